import { describe, expect, it } from 'vitest';
import { BatchLoader } from './batch-load.js';

const ROWS = new Map([
  [1, 'uno'],
  [2, 'dos'],
  [3, 'tres'],
]);

function recorder(fail = false) {
  const calls: number[][] = [];
  const loadMany = async (keys: number[]) => {
    calls.push(keys);
    if (fail) throw new Error('base de datos caída');
    return new Map(keys.filter((k) => ROWS.has(k)).map((k) => [k, ROWS.get(k)!]));
  };
  return { calls, loadMany };
}

describe('BatchLoader', () => {
  it.each([
    { name: 'one lookup is one query', keys: [1], maxKeys: 10, calls: [[1]], answers: ['uno'] },
    { name: 'lookups in the same turn share one query', keys: [1, 2, 3], maxKeys: 10, calls: [[1, 2, 3]], answers: ['uno', 'dos', 'tres'] },
    { name: 'the same key asked twice is read once and answered twice', keys: [2, 2], maxKeys: 10, calls: [[2]], answers: ['dos', 'dos'] },
    {
      name: 'a missing key is answered undefined, the others found',
      keys: [1, 9],
      maxKeys: 10,
      calls: [[1, 9]],
      answers: ['uno', undefined],
    },
    {
      name: 'more keys than maxKeys go in several queries',
      keys: [1, 2, 3],
      maxKeys: 2,
      calls: [[1, 2], [3]],
      answers: ['uno', 'dos', 'tres'],
    },
  ])('$name', async ({ keys, maxKeys, calls, answers }) => {
    const r = recorder();
    const loader = new BatchLoader(r.loadMany, maxKeys);
    expect(await Promise.all(keys.map((k) => loader.load(k)))).toEqual(answers);
    expect(r.calls).toEqual(calls);
  });

  it('lookups in later turns are new queries: nothing is cached', async () => {
    const r = recorder();
    const loader = new BatchLoader(r.loadMany);
    expect(await loader.load(1)).toBe('uno');
    expect(await loader.load(1)).toBe('uno');
    expect(r.calls).toEqual([[1], [1]]);
  });

  it('a failed query fails every lookup waiting on it, and the next turn queries again', async () => {
    const bad = recorder(true);
    const loader = new BatchLoader(bad.loadMany);
    const results = await Promise.allSettled([loader.load(1), loader.load(2)]);
    expect(results.map((x) => x.status)).toEqual(['rejected', 'rejected']);
    expect(bad.calls).toEqual([[1, 2]]);
  });
});
