import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sqlite3 from 'sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sequelize } from 'sequelize';
import { openDatabase } from './database.js';
import { execute, Positional, writeTransaction } from './sql.js';

/**
 * The writer keeps its statement journals in memory (database.ts, WRITER_PRAGMAS): a statement
 * that may fail halfway inside a transaction journals the pages it changes, and SQLite spills that
 * journal past 64 KB to a temporary file (etilqs_*) it creates and deletes once per transaction.
 * Watched in a temporary directory of this test's own (PRAGMA temp_store_directory, process-wide).
 */
const ROWS = 3000;
const rowsJson = (seed: number) => JSON.stringify(Array.from({ length: ROWS }, (_, i) => [i % 300, `${seed}-${i}`]));
/** A multi-row INSERT whose trigger writes another table: it may abort halfway, so it journals. */
const INSERT = 'INSERT INTO m (p, w) SELECT value->>0, value->>1 FROM json_each(?) WHERE true ON CONFLICT DO NOTHING';

function raw(file: string) {
  const db = new sqlite3.Database(file);
  const q = (sql: string, params: unknown[] = []) =>
    new Promise<void>((resolve, reject) => db.run(sql, params, (err: Error | null) => (err ? reject(err) : resolve())));
  return { q, close: () => new Promise<void>((resolve) => db.close(() => resolve())) };
}

describe('the writer connection on SQLite', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigia-writer-'));
  const tempDir = path.join(dir, 'temp');
  const file = path.join(dir, 'vigia.sqlite');
  let sequelize: Sequelize;
  let created: string[] = [];
  let watcher: fs.FSWatcher;
  const settled = () => new Promise((resolve) => setTimeout(resolve, 100));

  beforeAll(async () => {
    fs.mkdirSync(tempDir);
    sequelize = await openDatabase({ dataDir: dir, databaseUrl: null });
    await sequelize.query(`PRAGMA temp_store_directory = '${tempDir}'`);
    await sequelize.query('CREATE TABLE m (id INTEGER PRIMARY KEY, p INTEGER NOT NULL, w TEXT NOT NULL)');
    await sequelize.query('CREATE INDEX m_p_w ON m (p, w)');
    await sequelize.query('CREATE TABLE d (p INTEGER PRIMARY KEY)');
    await sequelize.query('CREATE TRIGGER m_d AFTER INSERT ON m BEGIN INSERT INTO d (p) VALUES (NEW.p) ON CONFLICT DO NOTHING; END');
    await execute(sequelize, INSERT, new Positional([rowsJson(0)]));
    watcher = fs.watch(tempDir, (event, name) => {
      if (event === 'rename' && name?.startsWith('etilqs_')) created.push(name);
    });
  });
  afterAll(async () => {
    watcher.close();
    await sequelize.query("PRAGMA temp_store_directory = ''");
    await sequelize.close();
  });

  it('control: a connection with SQLite’s defaults spills the same transaction’s journal to a temporary file', async () => {
    created = [];
    const other = raw(file);
    await other.q('PRAGMA busy_timeout = 5000');
    await other.q('BEGIN IMMEDIATE');
    await other.q(INSERT, [rowsJson(1)]);
    await other.q('COMMIT');
    await other.close();
    await settled();
    expect(created.length).toBeGreaterThan(0);
  });

  it('keeps it in memory: the same transaction through writeTransaction creates no temporary file', async () => {
    created = [];
    await writeTransaction(sequelize, (t) => execute(sequelize, INSERT, new Positional([rowsJson(2)]), t));
    await settled();
    expect(created).toEqual([]);
    const [[{ n }]] = (await sequelize.query('SELECT COUNT(*) AS n FROM m')) as [Array<{ n: number }>, unknown];
    expect(Number(n)).toBe(3 * ROWS);
  });
});

/**
 * Checkpoints off the writer's path (database.ts, checkpointAside): a commit that takes the WAL past
 * SQLite's 1,000 pages no longer copies it into the database file while holding the write lock; a
 * connection of its own does, on its timer. Watched through the database file's size: a checkpoint
 * is what moves pages from the WAL into it.
 */
describe('checkpoints on SQLite', () => {
  const PAGES = 2500; // ~10 MB of 4 KB rows: past the automatic checkpoint's 1,000 pages, under the writer's bound
  const FILL = `WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < ${PAGES}) INSERT INTO t (b) SELECT randomblob(4000) FROM c`;
  const open = async (checkpointEveryMs: number) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigia-checkpoint-'));
    const sequelize = await openDatabase({ dataDir: dir, databaseUrl: null }, { checkpointEveryMs });
    await sequelize.query('CREATE TABLE t (id INTEGER PRIMARY KEY, b BLOB NOT NULL)');
    const file = path.join(dir, 'vigia.sqlite');
    return { sequelize, file, size: () => fs.statSync(file).size };
  };

  it('the writer does not checkpoint when its commit passes 1,000 pages; a connection with the defaults does', async () => {
    const db = await open(3_600_000); // the aside checkpoint never comes during this test
    try {
      const before = db.size();
      await writeTransaction(db.sequelize, (t) => execute(db.sequelize, FILL, new Positional([]), t));
      await writeTransaction(db.sequelize, (t) => execute(db.sequelize, "INSERT INTO t (b) VALUES (x'00')", new Positional([]), t));
      expect(db.size() - before).toBeLessThan(1024 * 1024);
      // Control: the same commit on a connection with SQLite's defaults checkpoints inside it.
      const other = raw(db.file);
      await other.q('PRAGMA busy_timeout = 5000');
      await other.q(FILL);
      await other.close();
      expect(db.size() - before).toBeGreaterThan(PAGES * 4000);
    } finally {
      await db.sequelize.close();
    }
  });

  it('the checkpoint connection copies the WAL into the database file on its own, soon after', async () => {
    const db = await open(50);
    try {
      const before = db.size();
      await writeTransaction(db.sequelize, (t) => execute(db.sequelize, FILL, new Positional([]), t));
      const until = Date.now() + 10_000;
      while (db.size() - before < PAGES * 4000 && Date.now() < until) await new Promise((r) => setTimeout(r, 25));
      expect(db.size() - before).toBeGreaterThan(PAGES * 4000);
      const [[{ n }]] = (await db.sequelize.query('SELECT COUNT(*) AS n FROM t')) as [Array<{ n: number }>, unknown];
      expect(Number(n)).toBe(PAGES);
    } finally {
      await db.sequelize.close();
    }
  });
});
