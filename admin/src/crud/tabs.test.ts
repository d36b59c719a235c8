import { describe, expect, it } from 'vitest';
import { activeTabKey, filterOnTab, isUserFiltered, tabFilters } from './tabs';
import type { FilterDeclaration, TabsDeclaration } from './types';

const TABS: TabsDeclaration = {
  field: 'filter',
  items: [
    { key: '0', label: 'No Gestionadas', filter: '0' },
    { key: '1', label: 'Programadas', filter: '1' },
    { key: '2', label: 'Cerradas', filter: '2' },
  ],
};
const FILTERS: FilterDeclaration[] = [
  { field: 'q', label: 'Buscar', widget: 'search' },
  { field: 'type', label: 'Tipo', widget: 'toggle', tabs: ['1', '2'] },
];

describe('activeTabKey: the URL keeps the tab', () => {
  it.each([
    ['a declared key', '2', '2'],
    ['no parameter', null, '0'],
    ['an empty parameter', '', '0'],
    ['an unknown key', '7', '0'],
    ['a label instead of a key', 'Cerradas', '0'],
  ])('%s (%j) → %j', (_name, requested, expected) => {
    expect(activeTabKey(TABS, requested)).toBe(expected);
  });
});

describe('filterOnTab', () => {
  it.each([
    ['a filter on every tab', FILTERS[0], '0', true],
    ['the type toggle on No Gestionadas', FILTERS[1], '0', false],
    ['the type toggle on Programadas', FILTERS[1], '1', true],
    ['the type toggle on Cerradas', FILTERS[1], '2', true],
    ['any filter when the list has no tabs', FILTERS[1], undefined, true],
  ])('%s → %s', (_name, filter, tab, expected) => {
    expect(filterOnTab(filter, tab)).toBe(expected);
  });
});

describe('tabFilters: the tab value, and hidden filters dropped', () => {
  it.each([
    [
      'No Gestionadas drops the type',
      '0',
      [
        { field: 'filter', operator: 'eq', value: '0' },
        { field: 'type', operator: 'eq', value: undefined },
      ],
    ],
    ['Programadas keeps it', '1', [{ field: 'filter', operator: 'eq', value: '1' }]],
    ['Cerradas keeps it', '2', [{ field: 'filter', operator: 'eq', value: '2' }]],
    [
      'an unknown key falls back to the first tab',
      'x',
      [
        { field: 'filter', operator: 'eq', value: '0' },
        { field: 'type', operator: 'eq', value: undefined },
      ],
    ],
  ])('%s', (_name, key, expected) => {
    expect(tabFilters(TABS, key, FILTERS)).toEqual(expected);
  });
  it('a numeric tab value is sent as declared', () => {
    expect(tabFilters({ field: 'status', items: [{ key: 'open', label: 'Abiertas', filter: 1 }] }, 'open')).toEqual([
      { field: 'status', operator: 'eq', value: 1 },
    ]);
  });
});

describe('isUserFiltered: the tab alone is not a search', () => {
  it.each([
    ['only the tab', [{ field: 'filter', operator: 'eq' as const, value: '1' }], false],
    [
      'the tab and a type',
      [
        { field: 'filter', operator: 'eq' as const, value: '1' },
        { field: 'type', operator: 'eq' as const, value: 0 },
      ],
      true,
    ],
    ['an empty search', [{ field: 'q', operator: 'eq' as const, value: '' }], false],
    ['a search', [{ field: 'q', operator: 'eq' as const, value: 'ana' }], true],
  ])('%s → %s', (_name, filters, expected) => {
    expect(isUserFiltered(filters, 'filter')).toBe(expected);
  });
});
