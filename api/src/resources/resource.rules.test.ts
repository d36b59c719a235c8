import { describe, it, expect } from 'vitest';
import type { ListFields } from '../http/list-params';
import { contractDrift } from './resource.rules';

const FIELDS: ListFields = {
  id: { column: 'id', kind: 'integer', sort: true },
  name: { column: 'name', kind: 'text', sort: true },
  expires: { column: 'expires', kind: 'date' },
  kind: { column: 'kind', kind: 'enum', operators: ['ne'] },
};
const DECLARED = [
  '_start',
  '_end',
  '_sort',
  'q',
  'id',
  'id_ne',
  'id_gte',
  'id_lte',
  'name',
  'name_ne',
  'name_like',
  'expires',
  'expires_ne',
  'expires_gte',
  'expires_lte',
  'expires_like',
  'kind',
  'kind_ne',
];

describe('contractDrift: a declaration and its list operation say the same', () => {
  it('finds nothing when they agree (a parameter of its own meaning, like kind=, is free)', () => {
    expect(contractDrift('listThings', FIELDS, DECLARED, ['id', 'name'])).toEqual([]);
  });

  it.each([
    [
      'a filter the contract does not declare',
      DECLARED.filter((n) => n !== 'expires_like'),
      ['id', 'name'],
      "does not declare 'expires_like'",
    ],
    ['a declared filter no field answers', [...DECLARED, 'name_gte'], ['id', 'name'], "declares 'name_gte', which no field answers"],
    [
      'a sort field the declaration does not sort by',
      DECLARED,
      ['id', 'name', 'expires'],
      '_sort is [id, name, expires], the fields sort by [id, name]',
    ],
    ['a sortable field the contract does not list', DECLARED, ['id'], '_sort is [id], the fields sort by [id, name]'],
  ])('names %s', (_what, parameters, sortable, problem) => {
    expect(contractDrift('listThings', FIELDS, parameters, sortable)).toEqual([`listThings ${problem}`]);
  });
});
