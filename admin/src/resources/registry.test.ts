import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { crudScreens } from '../crud/routes';
import { basePath } from '../crud/types';
import { crudResources } from './registry';

// The app imports openapi.yaml through Vite's YAML plugin, which the unit project lacks: the same contract, parsed here.
const contract = parse(readFileSync(new URL('../../../openapi.yaml', import.meta.url), 'utf8')) as {
  paths: Record<string, Record<string, unknown>>;
};

/** The contract's methods on /<name>/{id}: what the generic show and edit screens call. */
const methodsOnOne = (name: string) => Object.keys(contract.paths[`/${name}/{id}`] ?? {});

describe('generic screens of the declared resources ask only what the contract answers', () => {
  const cases = crudResources.map((r) => ({ name: r.name, paths: crudScreens(r).map((s) => s.path.slice(basePath(r).length)) }));

  it.each(cases)('$name: a show screen only with a GET of one record, an edit screen only with PATCH or PUT', ({ name, paths }) => {
    const methods = methodsOnOne(name);
    if (paths.includes('/show/:id')) expect(methods).toContain('get');
    if (paths.includes('/edit/:id')) expect(methods.some((m) => m === 'patch' || m === 'put')).toBe(true);
  });

  it('moves, a ledger without GET /moves/{id}, have a list and a create screen only', () => {
    expect(cases.find((c) => c.name === 'moves')?.paths).toEqual(['', '/create']);
  });
});
