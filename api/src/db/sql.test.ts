import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { QueryTypes, Sequelize, type Transaction } from 'sequelize';
import { openDatabase } from './database.js';
import { BACKGROUND, execute, Positional, rowPlaceholders, select, sqlDate, writesData, writeTransaction } from './sql.js';

describe('sqlDate', () => {
  const sqlite = new Sequelize({ dialect: 'sqlite', storage: ':memory:', logging: false });
  it.each(['2026-11-21T12:34:56.789Z', '2026-01-01T00:00:00.000Z', '1999-12-31T23:59:59.999Z', '2026-03-08T07:00:00.001Z'])(
    '%s is written as sequelize.escape writes it',
    (iso) => {
      expect(sqlDate(new Date(iso))).toBe(sqlite.escape(new Date(iso) as unknown as string));
    },
  );
});

describe('select on SQLite (straight to the driver)', () => {
  const sqlite = new Sequelize({ dialect: 'sqlite', storage: ':memory:', logging: false });
  it.each([
    ['a date', { v: new Date('2026-11-21T12:34:56.789Z') }],
    ['a string with a quote', { v: "O'Higgins" }],
    ['a number', { v: 36.6 }],
    ['null', { v: null }],
  ])('writes %s as Sequelize does', async (_name, replacements) => {
    const [ours] = await select<{ v: unknown }>(sqlite, 'SELECT :v AS v', replacements);
    const [theirs] = (await sqlite.query('SELECT :v AS v', { replacements, type: QueryTypes.SELECT })) as Array<{ v: unknown }>;
    expect(ours.v).toEqual(theirs.v);
  });

  it.each([
    ['a date', new Date('2026-11-21T12:34:56.789Z')],
    ['a string with quotes and a backslash', 'O\'Higgins \\ "x"'],
    ['a decimal', 36.6],
    ['a negative integer', -7],
    ['true', true],
    ['null', null],
    ['undefined', undefined],
  ])('a positional value reads back %s as a named one does', async (_name, v) => {
    const [ours] = await select<{ v: unknown }>(sqlite, `SELECT ${rowPlaceholders(sqlite, 1, 1).slice(1, -1)} AS v`, new Positional([v]));
    const [theirs] = await select<{ v: unknown }>(sqlite, 'SELECT :v AS v', { v: (v ?? null) as unknown });
    expect(ours.v).toEqual(theirs.v);
  });

  it('expands a list for IN', async () => {
    const rows = await select<{ v: number }>(sqlite, 'SELECT value AS v FROM json_each(:list) WHERE value IN (:ids)', {
      list: '[1,2,3,4]',
      ids: [2, 4],
    });
    expect(rows.map((r) => r.v)).toEqual([2, 4]);
  });
});

describe('logging on SQLite', () => {
  it("shows the statement sent straight to the driver to Sequelize's logging option", async () => {
    const logged: string[] = [];
    const sqlite = new Sequelize({ dialect: 'sqlite', storage: ':memory:', logging: (text: string) => logged.push(text) });
    await select(sqlite, 'SELECT :v AS v', { v: 7 });
    expect(logged.at(-1)).toBe('Executing (default): SELECT ? AS v');
  });
});

describe('writeTransaction on SQLite (BEGIN and COMMIT straight to the driver)', () => {
  const open = async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigia-tx-'));
    const sequelize = await openDatabase({ dataDir: dir, databaseUrl: null });
    await sequelize.query('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT NOT NULL)');
    return sequelize;
  };
  const values = async (sequelize: Sequelize) => (await select<{ v: string }>(sequelize, 'SELECT v FROM t ORDER BY id')).map((r) => r.v);

  it('commits what raw statements and ORM calls wrote inside it, then runs afterCommit hooks', async () => {
    const sequelize = await open();
    const events: string[] = [];
    const out = await writeTransaction(sequelize, async (t) => {
      t.afterCommit(async () => {
        events.push(`after commit: ${(await values(sequelize)).join(',')}`);
      });
      await execute(sequelize, 'INSERT INTO t (v) VALUES (:v)', { v: 'raw' }, t);
      await sequelize.query("INSERT INTO t (v) VALUES ('orm')", { transaction: t });
      // Not visible outside before COMMIT (WAL: the main connection reads the last commit).
      events.push(`inside: ${(await values(sequelize)).join(',')}`);
      return 42;
    });
    expect(out).toBe(42);
    expect(events).toEqual(['inside: ', 'after commit: raw,orm']);
    await sequelize.close();
  });

  it('rolls back everything when the work fails, and the next transaction runs', async () => {
    const sequelize = await open();
    let used: Transaction | null = null;
    await expect(
      writeTransaction(sequelize, async (t) => {
        used = t;
        await execute(sequelize, 'INSERT INTO t (v) VALUES (:v)', { v: 'lost' }, t);
        await execute(sequelize, 'INSERT INTO missing (v) VALUES (1)', {}, t);
      }),
    ).rejects.toMatchObject({ name: 'SequelizeDatabaseError' });
    expect(await values(sequelize)).toEqual([]);
    await expect(execute(sequelize, "INSERT INTO t (v) VALUES ('late')", {}, used!)).rejects.toThrow(/rollback has been called/);
    await writeTransaction(sequelize, (t) => execute(sequelize, "INSERT INTO t (v) VALUES ('kept')", {}, t));
    expect(await values(sequelize)).toEqual(['kept']);
    await sequelize.close();
  });

  it("takes turns with Sequelize's managed transactions and lone writes: none fails busy", async () => {
    const sequelize = await open();
    const work = Array.from({ length: 6 }, (_, i) => [
      writeTransaction(sequelize, (t) => execute(sequelize, 'INSERT INTO t (v) VALUES (:v)', { v: `w${i}` }, t)),
      sequelize.transaction((t) => sequelize.query(`INSERT INTO t (v) VALUES ('s${i}')`, { transaction: t })),
      execute(sequelize, 'INSERT INTO t (v) VALUES (:v)', { v: `e${i}` }),
    ]).flat();
    await Promise.all(work);
    expect((await values(sequelize)).sort()).toHaveLength(18);
    await sequelize.close();
  });
});

/** A read of about 100 ms that touches no table. */
const LONG_READ = 'WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < 2000000) SELECT COUNT(*) AS n FROM c';

/** Five times that. */
const LONGER_READ = LONG_READ.replace('2000000', '10000000');

/** A database opened as the API opens it (its read connections, the writer queue), in a directory of its own. */
async function inFreshDatabase(fn: (sequelize: Sequelize) => Promise<void>): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigia-reads-'));
  const sequelize = await openDatabase({ dataDir: dir, databaseUrl: null });
  try {
    await fn(sequelize);
  } finally {
    await sequelize.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

// These check which read answers first, never how fast: a loaded CI machine (two test runs and
// browsers on two cores) once took more than the default 5 s for the half-second read.
describe('reads outside a transaction on SQLite (two connections)', () => {
  it('answers a short read while a long one runs, on the other connection', { timeout: 60_000 }, async () => {
    await inFreshDatabase(async (sequelize) => {
      const answered: string[] = [];
      // Both read connections open first, and a long read of about half a second: under a loaded CI
      // (load 10 on 2 cores) a 100 ms read sent 20 ms before the short one had not always started.
      await Promise.all([select(sequelize, 'SELECT 1'), select(sequelize, 'SELECT 2')]);
      const long = select(sequelize, LONGER_READ).then((rows) => answered.push(`long ${JSON.stringify(rows)}`));
      // Sent once the long read is under way: one connection would answer it second.
      await new Promise((resolve) => setTimeout(resolve, 100));
      const short = select(sequelize, 'SELECT 1 AS one').then((rows) => answered.push(`short ${JSON.stringify(rows)}`));
      await Promise.all([long, short]);
      expect(answered).toEqual(['short [{"one":1}]', 'long [{"n":10000000}]']);
    });
  });
});

describe('background reads on SQLite', () => {
  it("run on a connection of their own: a long one never holds a request's reads", { timeout: 60_000 }, async () => {
    await inFreshDatabase(async (sequelize) => {
      const answered: string[] = [];
      const long = select(sequelize, LONG_READ, {}, BACKGROUND).then(() => answered.push('background'));
      await new Promise((resolve) => setTimeout(resolve, 20));
      // Three, each sent once the one before is queued (its pick made, no answer yet): on the two
      // shared connections alone, the second would queue behind the long read.
      const short: Array<Promise<number>> = [];
      for (const n of [1, 2, 3]) {
        short.push(select(sequelize, `SELECT ${n} AS n`).then(() => answered.push(`short ${n}`)));
        await new Promise((resolve) => process.nextTick(resolve));
      }
      await Promise.all([long, ...short]);
      expect(answered).toEqual(['short 1', 'short 2', 'short 3', 'background']);
    });
  });
});

describe('writesData', () => {
  it.each([
    ['SELECT 1', false],
    ['  select id from jobs', false],
    ["UPDATE jobs SET status = 'running' WHERE id IN (SELECT id FROM jobs) RETURNING id", true],
    ['\n  DELETE FROM triage_dirty RETURNING patient_id', true],
    ['INSERT INTO t (v) VALUES (1) RETURNING id', true],
    ['REPLACE INTO t (v) VALUES (1)', true],
    ['WITH gone AS (DELETE FROM c RETURNING n) SELECT COUNT(*) FROM gone', true],
    ['WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < 3) SELECT n FROM c', false],
    ['SELECT updated_at FROM jobs', false],
  ])('%s → %s', (sql, writes) => {
    expect(writesData(sql)).toBe(writes);
  });
});

describe('a write sent through select on SQLite', () => {
  it("waits its turn in the writer queue, not on a read connection, where the reads queued behind it would wait for the writer's transaction too", async () => {
    await inFreshDatabase(async (sequelize) => {
      await execute(sequelize, 'CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)', {});
      await execute(sequelize, "INSERT INTO t (v) VALUES ('a')", {});
      let open!: () => void;
      const gate = new Promise<void>((resolve) => (open = resolve));
      const held = writeTransaction(sequelize, async (t) => {
        await execute(sequelize, "INSERT INTO t (v) VALUES ('b')", {}, t);
        await gate;
      });
      await new Promise((resolve) => setTimeout(resolve, 20));
      const updated = select<{ v: string }>(sequelize, "UPDATE t SET v = v || '!' RETURNING v");
      // Two reads: with the UPDATE on a read connection, one of them would queue behind it until the gate opens.
      const reads = Promise.all([select(sequelize, 'SELECT 1 AS one'), select(sequelize, 'SELECT 2 AS two')]);
      const first = await Promise.race([
        reads.then(() => 'reads'),
        new Promise((resolve) => setTimeout(() => resolve('gate still shut'), 1000)),
      ]);
      open();
      await held;
      expect(first).toBe('reads');
      expect((await updated).map((r) => r.v).sort()).toEqual(['a!', 'b!']);
    });
  });
});
