import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import sqlite3 from 'sqlite3';
import { MAX_PREPARED, preparedStatements, type RunInfo, type SqliteDatabase } from './sqlite-statements.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function open(file?: string): Promise<sqlite3.Database> {
  const f = file ?? path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'vigia-stmt-')), 'db.sqlite');
  if (!file) dirs.push(path.dirname(f));
  return new Promise((resolve, reject) => {
    const db = new sqlite3.Database(f, (err) => (err ? reject(err) : resolve(db)));
  });
}
const fileOf = (db: sqlite3.Database) => (db as unknown as { filename: string }).filename;

const all = (db: sqlite3.Database, sql: string, params: unknown[] = []) =>
  new Promise<unknown[]>((resolve, reject) =>
    preparedStatements(db as unknown as SqliteDatabase).all(sql, params, (err, rows) => (err ? reject(err) : resolve(rows))),
  );
const run = (db: sqlite3.Database, sql: string, params: unknown[] = []) =>
  new Promise<RunInfo>((resolve, reject) =>
    preparedStatements(db as unknown as SqliteDatabase).run(sql, params, (err, info) => (err ? reject(err) : resolve(info!))),
  );
const close = (db: sqlite3.Database) => new Promise<void>((resolve, reject) => db.close((err) => (err ? reject(err) : resolve())));

/** Counts the statements the driver prepares and finalizes on this connection. */
function spy(db: sqlite3.Database) {
  const counts = { prepared: 0, finalized: 0 };
  const prepare = db.prepare.bind(db);
  db.prepare = ((sql: string, cb?: (err: Error | null) => void) => {
    counts.prepared++;
    const s = prepare(sql, cb);
    const finalize = s.finalize.bind(s);
    s.finalize = ((done?: (err: Error) => void) => {
      counts.finalized++;
      return finalize(done);
    }) as typeof s.finalize;
    return s;
  }) as typeof db.prepare;
  return counts;
}

describe('prepared statements per SQLite connection', () => {
  it('prepares a text once and reuses it with other values', async () => {
    const db = await open();
    const counts = spy(db);
    await run(db, 'CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT UNIQUE)');
    for (const v of ['a', 'b', 'c']) await run(db, 'INSERT INTO t (v) VALUES (?)', [v]);
    expect(await all(db, 'SELECT v FROM t WHERE id > ? ORDER BY id', [1])).toEqual([{ v: 'b' }, { v: 'c' }]);
    expect(await all(db, 'SELECT v FROM t WHERE id > ? ORDER BY id', [2])).toEqual([{ v: 'c' }]);
    // The INSERT and the SELECT; CREATE TABLE is not a statement run keeps.
    expect(counts.prepared).toBe(2);
    expect(preparedStatements(db as unknown as SqliteDatabase).size).toBe(2);
    await close(db);
  });

  it('answers changes and the new row id of a write, as db.run does', async () => {
    const db = await open();
    await run(db, 'CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)');
    expect(await run(db, 'INSERT INTO t (v) VALUES (?)', ['a'])).toEqual({ changes: 1, lastID: 1 });
    expect(await run(db, 'INSERT INTO t (v) VALUES (?)', ['b'])).toEqual({ changes: 1, lastID: 2 });
    expect((await run(db, 'UPDATE t SET v = ? WHERE id >= ?', ['x', 1])).changes).toBe(2);
    await close(db);
  });

  it('runs statements sent together one after another, in the order sent', async () => {
    const db = await open();
    await run(db, 'CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)');
    const sent = [
      run(db, 'BEGIN IMMEDIATE TRANSACTION'),
      run(db, 'INSERT INTO t (v) VALUES (?)', ['first']),
      all(db, 'SELECT COUNT(*) AS n FROM t'),
      run(db, 'INSERT INTO t (v) VALUES (?)', ['second']),
      all(db, 'SELECT COUNT(*) AS n FROM t'),
      run(db, 'COMMIT'),
    ];
    const answers = await Promise.all(sent);
    expect(answers[2]).toEqual([{ n: 1 }]);
    expect(answers[4]).toEqual([{ n: 2 }]);
    await close(db);
  });

  it.each([
    ['bad SQL', 'SELEC 1', /syntax error/],
    ['a table not there yet', 'SELECT v FROM later', /no such table/],
  ])('answers %s with the driver error, keeps nothing, and prepares the text again next time', async (_name, sql, message) => {
    const db = await open();
    await expect(all(db, sql)).rejects.toThrow(message);
    expect(preparedStatements(db as unknown as SqliteDatabase).size).toBe(0);
    if (sql.includes('later')) {
      await run(db, 'CREATE TABLE later (v TEXT)');
      await run(db, "INSERT INTO later (v) VALUES ('now')");
      expect(await all(db, sql)).toEqual([{ v: 'now' }]);
    }
    await close(db);
  });

  it('goes on after a constraint error on a prepared write', async () => {
    const db = await open();
    await run(db, 'CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT UNIQUE)');
    await run(db, 'INSERT INTO t (v) VALUES (?)', ['a']);
    await expect(run(db, 'INSERT INTO t (v) VALUES (?)', ['a'])).rejects.toMatchObject({ code: 'SQLITE_CONSTRAINT' });
    await run(db, 'INSERT INTO t (v) VALUES (?)', ['b']);
    expect(await all(db, 'SELECT v FROM t ORDER BY v')).toEqual([{ v: 'a' }, { v: 'b' }]);
    await close(db);
  });

  it('commits a write that returns rows through run: another connection sees it at once', async () => {
    const db = await open();
    await new Promise<void>((resolve, reject) => db.exec('PRAGMA journal_mode = WAL', (e) => (e ? reject(e) : resolve())));
    await run(db, 'CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)');
    expect((await run(db, 'INSERT INTO t (v) VALUES (?) RETURNING id', ['a'])).lastID).toBe(1);
    const other = await open(fileOf(db));
    // A statement left open after its first row would hold the write lock: this INSERT would wait
    // its second and fail busy.
    await new Promise<void>((resolve, reject) => other.run('PRAGMA busy_timeout = 1000', (e) => (e ? reject(e) : resolve())));
    await new Promise<void>((resolve, reject) => other.run("INSERT INTO t (v) VALUES ('b')", (e) => (e ? reject(e) : resolve())));
    expect(await all(db, 'SELECT v FROM t ORDER BY id')).toEqual([{ v: 'a' }, { v: 'b' }]);
    await close(other);
    await close(db);
  });

  it(`keeps at most ${MAX_PREPARED} texts, finalizing the least recently used`, async () => {
    const db = await open();
    const counts = spy(db);
    const statements = preparedStatements(db as unknown as SqliteDatabase);
    for (let i = 0; i < MAX_PREPARED; i++) await all(db, `SELECT ${i} AS n`);
    await all(db, 'SELECT 0 AS n'); // now the most recently used
    await all(db, `SELECT ${MAX_PREPARED} AS n`); // evicts SELECT 1
    expect(statements.size).toBe(MAX_PREPARED);
    expect(counts.finalized).toBe(1);
    await all(db, 'SELECT 0 AS n');
    expect(counts.prepared).toBe(MAX_PREPARED + 1);
    await all(db, 'SELECT 1 AS n');
    expect(counts.prepared).toBe(MAX_PREPARED + 2);
    await close(db);
  });

  it('closes a connection that holds prepared statements (SQLite refuses while any is open)', async () => {
    const db = await open();
    const counts = spy(db);
    await all(db, 'SELECT 1 AS n');
    await all(db, 'SELECT 2 AS n');
    await close(db);
    expect(counts.finalized).toBe(2);
  });
});
