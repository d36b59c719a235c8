import { describe, expect, it } from 'vitest';
import { perDatabase } from './per-database.js';

describe('perDatabase', () => {
  it('shares one instance per key, whatever argument object carries it', () => {
    const dbA = {};
    const dbB = {};
    const made: object[] = [];
    const per = perDatabase(
      (deps: { db: object }) => deps.db,
      (deps) => {
        made.push(deps.db);
        return { db: deps.db };
      },
    );
    expect(per({ db: dbA })).toBe(per({ db: dbA }));
    expect(per({ db: dbB })).not.toBe(per({ db: dbA }));
    expect(made).toEqual([dbA, dbB]);
  });
});
