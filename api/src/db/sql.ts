import { QueryTypes, Transaction, type Sequelize } from 'sequelize';
import { createRequire } from 'node:module';
import type { AbstractDialect } from 'sequelize/lib/dialects/abstract/index';
import { inWriterTurn } from './database.js';

/**
 * SQLite: the statement goes straight to the driver's connection. Sequelize's own query() costs
 * about 0.3 ms of main-thread CPU per statement on top of the driver (a Query object, the retry
 * wrapper, hooks, and an Error whose stack is captured and, under tsx, source-mapped on every
 * statement): a third of a stored reading's cost (issue 7's profile). The statement text is the
 * one Sequelize would run (its own injectReplacements), the connection the one it would use (the
 * transaction's, or the shared main one through the connection manager, so wrappers on it still
 * apply), and a failure is turned into the same error classes by the dialect's formatError.
 * PostgreSQL keeps Sequelize's path: there the network and the pool dominate.
 *
 * A write given no transaction takes its turn in the writer queue (inWriterTurn) and runs alone
 * on the transaction connection, as its own implicit transaction. On the main connection it would
 * wait for the write lock there (busy_timeout), and every read queued on that connection behind it
 * would wait too: under ingestion load the audit writer's INSERT held session and patient lookups
 * for 20-30 ms each.
 */
interface SqliteConnection {
  serialize(cb: () => void): void;
  all(sql: string, cb: (err: Error | null, rows: unknown[]) => void): void;
  run(sql: string, cb: (this: { changes: number; lastID: number }, err: Error | null) => void): void;
}
interface SqliteInternals {
  dialect: AbstractDialect & {
    Query: new (conn: unknown, sequelize: Sequelize, options: object) => { formatError(err: Error, stack?: string): Error };
  };
  connectionManager: { getConnection(o: object): Promise<SqliteConnection>; releaseConnection(c: SqliteConnection): void };
}
type SqliteCall<T> = (conn: SqliteConnection, text: string, done: (err: Error | null, value?: T) => void) => void;

// A CommonJS module whose exports Node's ESM loader cannot see by name.
const { injectReplacements } = createRequire(import.meta.url)('sequelize/lib/utils/sql') as typeof import('sequelize/lib/utils/sql');

const isSqlite = (sequelize: Sequelize) => sequelize.getDialect() === 'sqlite';

/**
 * Dates as the text Sequelize's escape writes for them (sqlDate, held equal by sql.test.ts)
 * without its per-value moment formatting: statements with a few dates run per stored reading.
 */
function withDatesWritten(replacements: Record<string, unknown>): Record<string, unknown> {
  let out: Record<string, unknown> | null = null;
  for (const key in replacements) {
    const v = replacements[key];
    if (v instanceof Date && !Number.isNaN(v.getTime())) (out ??= { ...replacements })[key] = sqlDate(v).slice(1, -1);
  }
  return out ?? replacements;
}

function runOn<T>(sequelize: Sequelize, conn: SqliteConnection, text: string, call: SqliteCall<T>): Promise<T> {
  // Queued one at a time on the connection, as Sequelize does: statements waiting for the write
  // lock (busy_timeout) then hold one libuv pool thread, not all of them (see serialiseTransactions).
  return new Promise<T>((resolve, reject) => {
    conn.serialize(() =>
      call(conn, text, (err, value) => {
        if (!err) return resolve(value as T);
        const s = sequelize as unknown as SqliteInternals;
        reject(Object.assign(new s.dialect.Query(conn, sequelize, { type: QueryTypes.RAW }).formatError(err), { sql: text }));
      }),
    );
  });
}

async function onSqlite<T>(
  sequelize: Sequelize,
  sql: string,
  replacements: Record<string, unknown> | undefined,
  transaction: Transaction | undefined,
  call: SqliteCall<T>,
  writes = false,
): Promise<T> {
  const s = sequelize as unknown as SqliteInternals;
  const text = replacements ? injectReplacements(sql.trim(), s.dialect, withDatesWritten(replacements)) : sql.trim();
  // Sequelize's `logging` option still sees every statement (off in production; the benchmark's
  // statement capture and a developer's debugging turn it on).
  const { logging } = (sequelize as unknown as { options: { logging?: unknown } }).options;
  if (typeof logging === 'function') logging(`Executing (${transaction ? 'transaction' : 'default'}): ${text}`, {});
  if (transaction) {
    const t = transaction as unknown as { finished?: string; connection: SqliteConnection };
    if (t.finished) throw new Error(`${t.finished} has been called on this transaction, you can no longer use it.`);
    return runOn(sequelize, t.connection, text, call);
  }
  const turn = writes ? inWriterTurn(sequelize, (conn) => runOn(sequelize, conn as SqliteConnection, text, call)) : null;
  if (turn) return turn;
  const conn = await s.connectionManager.getConnection({ type: 'SELECT' });
  try {
    return await runOn(sequelize, conn, text, call);
  } finally {
    s.connectionManager.releaseConnection(conn);
  }
}

const sqliteAll = <T>(
  sequelize: Sequelize,
  sql: string,
  replacements?: Record<string, unknown>,
  transaction?: Transaction,
  writes = false,
) =>
  onSqlite<T[]>(
    sequelize,
    sql,
    replacements,
    transaction,
    (conn, text, done) => conn.all(text, (err, rows) => done(err, rows as T[])),
    writes,
  );

const sqliteRun = (sequelize: Sequelize, sql: string, replacements?: Record<string, unknown>, transaction?: Transaction) =>
  onSqlite<{ changes: number; lastID: number }>(
    sequelize,
    sql,
    replacements,
    transaction,
    (conn, text, done) =>
      conn.run(text, function (err) {
        done(err, err ? undefined : { changes: this.changes, lastID: this.lastID });
      }),
    true,
  );

/** Runs a write and answers how many rows it changed, on SQLite and PostgreSQL alike. */
export async function execute(
  sequelize: Sequelize,
  sql: string,
  replacements: Record<string, unknown>,
  transaction?: Transaction,
): Promise<number> {
  if (isSqlite(sequelize)) return (await sqliteRun(sequelize, sql, replacements, transaction)).changes;
  // With QueryTypes.UPDATE both dialects answer [rows, affectedCount] (DELETE goes through it too).
  const [, affected] = (await sequelize.query(sql, { replacements, transaction, type: QueryTypes.UPDATE })) as unknown as [unknown, number];
  return Number(affected ?? 0);
}

/** Runs `INSERT ... RETURNING id` and answers the new id on SQLite (lastID) and PostgreSQL (rows). */
export async function insertReturningId(
  sequelize: Sequelize,
  sql: string,
  replacements: Record<string, unknown>,
  transaction?: Transaction,
): Promise<number> {
  if (isSqlite(sequelize)) return (await sqliteRun(sequelize, sql, replacements, transaction)).lastID;
  const [result] = (await sequelize.query(sql, { replacements, transaction, type: QueryTypes.INSERT })) as unknown as [unknown, unknown];
  if (Array.isArray(result)) return Number((result[0] as { id: number }).id);
  return Number(result);
}

/** Runs a read and answers its rows, typed. */
export function select<T extends object>(
  sequelize: Sequelize,
  sql: string,
  replacements: Record<string, unknown> = {},
  transaction?: Transaction,
): Promise<T[]> {
  if (isSqlite(sequelize)) return sqliteAll<T>(sequelize, sql, replacements, transaction);
  return sequelize.query<T>(sql, { replacements, transaction, type: QueryTypes.SELECT });
}

/**
 * Runs `INSERT ... RETURNING ...` (also with ON CONFLICT DO NOTHING) and answers the returned rows
 * on both dialects. Sequelize's SQLite dialect runs a statement that starts with INSERT through
 * `run`, which reads no rows; a leading comment keeps it on `all`. PostgreSQL ignores the comment.
 */
export function insertReturning<T extends object>(
  sequelize: Sequelize,
  sql: string,
  replacements?: Record<string, unknown>,
  transaction?: Transaction,
): Promise<T[]> {
  if (isSqlite(sequelize)) return sqliteAll<T>(sequelize, sql, replacements, transaction, true);
  return sequelize.query<T>(`/* returning */ ${sql}`, { replacements, transaction, type: QueryTypes.SELECT });
}

/**
 * One value written as SQL text, as Sequelize's replacements would write it (sql.test.ts), for
 * multi-row INSERTs built in bulk: a replacements object of thousands of keys is copied and
 * scanned per statement (the audit trail's INSERT of a hundred events).
 */
export function sqlValue(sequelize: Sequelize, v: unknown): string {
  if (v == null) return 'NULL';
  if (v instanceof Date) return sqlDate(v);
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return sequelize.escape(v as string);
}

/**
 * A Date as Sequelize writes it in SQL on both dialects ('2026-11-21 12:34:56.789 +00:00'), without
 * its per-value moment formatting: for statements built in bulk (ingestion writes hundreds of dates
 * per request). sql.test.ts holds it equal to sequelize.escape.
 */
export function sqlDate(d: Date): string {
  const iso = d.toISOString();
  return `'${iso.slice(0, 10)} ${iso.slice(11, 23)} +00:00'`;
}

/**
 * A write transaction for the hot path (ingestion groups). On SQLite it takes its turn in the
 * writer queue and sends BEGIN IMMEDIATE and COMMIT straight to the driver, as the statements
 * inside it go: Sequelize's own transaction() costs two trips through its query path and a
 * connection checkout per transaction (~7% of a stored reading's CPU, issue 7). `fn` gets a real
 * Sequelize Transaction bound to the connection, so ORM calls given it run inside it too. On
 * PostgreSQL, or a database not opened by openDatabase, it is sequelize.transaction(fn).
 */
export function writeTransaction<T>(sequelize: Sequelize, fn: (transaction: Transaction) => Promise<T>): Promise<T> {
  const turn = isSqlite(sequelize)
    ? inWriterTurn(sequelize, async (conn) => {
        const t = new Transaction(sequelize, {}) as Transaction & {
          connection: unknown;
          finished?: string;
          _afterCommitHooks: Array<(t: Transaction) => unknown>;
        };
        t.connection = conn;
        await execute(sequelize, 'BEGIN IMMEDIATE TRANSACTION', {}, t);
        let out: T;
        try {
          out = await fn(t);
          await execute(sequelize, 'COMMIT', {}, t);
        } catch (err) {
          // A failed COMMIT may have ended the transaction already (SQLite rolls back on some errors).
          await execute(sequelize, 'ROLLBACK', {}, t).catch(() => undefined);
          t.finished = 'rollback';
          throw err;
        }
        t.finished = 'commit';
        for (const hook of t._afterCommitHooks) await hook(t);
        return out;
      })
    : null;
  return turn ?? sequelize.transaction(fn);
}

/**
 * A list of the contract's named codes (status, type) written into SQL text: `status IN ${sqlIn(A, B)}`.
 * Only integers: constants of the code, never a user's value (those stay bound).
 */
export function sqlIn(...values: number[]): string {
  if (!values.length || !values.every(Number.isInteger)) throw new Error(`sqlIn: integer codes expected, got ${values.join(', ')}`);
  return `(${values.join(', ')})`;
}
