import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execute, prepared, select } from '../../api/src/db/sql.js';
import { startTestProduct, type TestProduct } from '../support/product.js';

/**
 * `prepared` (api/src/db/sql.ts): on PostgreSQL a statement so marked runs as a named prepared
 * statement on whichever pool client it gets, outside any transaction, and answers as before
 * whatever its list holds. SQLite keeps every statement prepared anyway: nothing to see there.
 */
const postgres = !!process.env.DATABASE_URL;
const BY_ID = prepared('SELECT id, v FROM prepared_rows WHERE id IN (:ids)');

let t: TestProduct;
beforeAll(async () => {
  t = await startTestProduct();
  await execute(t.sequelize, 'CREATE TABLE prepared_rows (id INTEGER PRIMARY KEY, v TEXT)', {});
  await execute(t.sequelize, "INSERT INTO prepared_rows (id, v) VALUES (1, 'a'), (2, 'b'), (3, 'c')", {});
});
afterAll(async () => t?.stop());

describe('prepared statements', () => {
  it('answer the same rows for lists of any length, past the runs after which PostgreSQL keeps a generic plan', async () => {
    const lists = [[1], [1, 2], [3, 2, 1], [4], [2, 3], [1, 2, 3, 4, 5], [2], [3], [1, 3]];
    for (const ids of lists) {
      const rows = await select<{ id: number; v: string }>(t.sequelize, BY_ID, { ids });
      expect(rows.map((r) => Number(r.id)).sort()).toEqual(ids.filter((id) => id <= 3).sort());
    }
  });

  it.skipIf(!postgres)('are named on the clients that ran them (pg_prepared_statements)', async () => {
    // Ten at once: the pool's clients each run it; then ten checks on those same clients.
    await Promise.all(Array.from({ length: 10 }, () => select(t.sequelize, BY_ID, { ids: [1] })));
    const seen = await Promise.all(
      Array.from({ length: 10 }, () =>
        select<{ n: number | string }>(
          t.sequelize,
          "SELECT COUNT(*) AS n FROM pg_prepared_statements WHERE statement LIKE '%FROM prepared_rows WHERE id = ANY($1)%'",
        ),
      ),
    );
    expect(seen.some(([{ n }]) => Number(n) > 0)).toBe(true);
  });
});
