import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execute, select, writeTransaction } from '../../api/src/db/sql.js';
import { startTestProduct, type TestProduct } from '../support/product.js';

/**
 * writeTransaction (api/src/db/sql.ts) on the product's own database, SQLite and (DATABASE_URL)
 * PostgreSQL alike: what fails leaves nothing behind, and every connection it took goes back, so
 * more failures than the pool holds (PostgreSQL: 10) never starve the next transaction.
 */
let t: TestProduct;
beforeAll(async () => {
  t = await startTestProduct();
  await execute(t.sequelize, 'CREATE TABLE tx_parents (id INTEGER PRIMARY KEY)', {});
  // Checked at COMMIT, not at the INSERT: the way to make a COMMIT fail on both databases.
  await execute(
    t.sequelize,
    'CREATE TABLE tx_children (id INTEGER PRIMARY KEY, parent_id INTEGER REFERENCES tx_parents (id) DEFERRABLE INITIALLY DEFERRED)',
    {},
  );
});
afterAll(async () => t?.stop());

const children = async () => (await select<{ id: number }>(t.sequelize, 'SELECT id FROM tx_children ORDER BY id')).map((r) => Number(r.id));

describe('writeTransaction', () => {
  it('rolls back what fn wrote when fn fails, and the transaction refuses statements after', async () => {
    let used: Parameters<Parameters<typeof writeTransaction>[1]>[0] | undefined;
    await expect(
      writeTransaction(t.sequelize, async (tx) => {
        used = tx;
        await execute(t.sequelize, 'INSERT INTO tx_children (id) VALUES (1)', {}, tx);
        throw new Error('fn failed');
      }),
    ).rejects.toThrow('fn failed');
    expect(await children()).toEqual([]);
    await expect(execute(t.sequelize, 'INSERT INTO tx_children (id) VALUES (2)', {}, used)).rejects.toThrow(/has been called/);
  });

  it('rolls back when COMMIT fails (a deferred foreign key), and answers the database error', async () => {
    await expect(
      writeTransaction(t.sequelize, (tx) => execute(t.sequelize, 'INSERT INTO tx_children (id, parent_id) VALUES (3, 999)', {}, tx)),
    ).rejects.toMatchObject({ name: 'SequelizeForeignKeyConstraintError' });
    expect(await children()).toEqual([]);
  });

  it('gives back every connection: twelve failed COMMITs and twelve failed fns, then a transaction that commits', async () => {
    for (let i = 0; i < 12; i++) {
      await expect(
        writeTransaction(t.sequelize, (tx) =>
          execute(t.sequelize, 'INSERT INTO tx_children (id, parent_id) VALUES (:id, 999)', { id: 10 + i }, tx),
        ),
      ).rejects.toBeTruthy();
      await expect(
        writeTransaction(t.sequelize, async () => {
          throw new Error('fn failed');
        }),
      ).rejects.toThrow('fn failed');
    }
    const hooks: string[] = [];
    await writeTransaction(t.sequelize, async (tx) => {
      await execute(t.sequelize, 'INSERT INTO tx_parents (id) VALUES (1)', {}, tx);
      await execute(t.sequelize, 'INSERT INTO tx_children (id, parent_id) VALUES (4, 1)', {}, tx);
      tx.afterCommit(() => {
        hooks.push('after commit');
      });
    });
    expect(hooks).toEqual(['after commit']);
    expect(await children()).toEqual([4]);
  });
});
