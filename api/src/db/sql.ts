import { QueryTypes, Transaction, type Sequelize } from 'sequelize';
import type { AbstractDialect } from 'sequelize/lib/dialects/abstract/index';
import { inWriterTurn, readConnection } from './database.js';
import { bindNamed, type Bound } from './bind.js';
import { preparedStatements, type PreparedStatements, type SqliteDatabase } from './sqlite-statements.js';

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
type SqliteConnection = SqliteDatabase;
interface SqliteInternals {
  dialect: AbstractDialect & {
    Query: new (conn: unknown, sequelize: Sequelize, options: object) => { formatError(err: Error, stack?: string): Error };
  };
  connectionManager: { getConnection(o: object): Promise<SqliteConnection>; releaseConnection(c: SqliteConnection): void };
}
type SqliteCall<T> = (
  statements: PreparedStatements,
  text: string,
  params: unknown[],
  done: (err: Error | null, value?: T) => void,
) => void;

const isSqlite = (sequelize: Sequelize) => sequelize.getDialect() === 'sqlite';

/**
 * Values of a statement whose text already holds the dialect's positional placeholders (built with
 * rowPlaceholders): multi-row INSERTs of hundreds of values, where naming each would cost a key
 * per value and a scan of the text.
 */
export class Positional {
  constructor(readonly params: unknown[]) {}
}
/** A statement's values: by `:name`, or positional. Either way they travel as bound parameters. */
export type Values = Record<string, unknown> | Positional;

/** A Date as SQLite stores it: Sequelize's text ('2026-11-21 12:34:56.789 +00:00'). */
export const sqliteDate = (d: Date) => sqlDate(d).slice(1, -1);

/** The statement's text with the driver's placeholders and its values in order (bind.ts). */
function bound(sequelize: Sequelize, sql: string, values: Values | undefined): Bound {
  const dialect = isSqlite(sequelize) ? 'sqlite' : 'postgres';
  if (values instanceof Positional)
    return { text: sql.trim(), params: dialect === 'sqlite' ? values.params.map((v) => sqliteValue(v)) : values.params };
  return bindNamed(sql.trim(), values ?? {}, dialect, sqliteDate);
}

function sqliteValue(v: unknown): unknown {
  if (v === undefined) return null;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (v instanceof Date) return sqliteDate(v);
  return v;
}

/**
 * The last statement sent on each PostgreSQL transaction. A transaction is one client, which runs
 * one statement at a time anyway; statements sent together (the ingestion hooks' reads beside the
 * INSERT) wait here for the one before, instead of in node-postgres's own queue, which warns that
 * pg 9 will refuse a query sent while another runs on the same client.
 */
const pgTransactionTail = new WeakMap<Transaction, Promise<unknown>>();

/** On PostgreSQL, through Sequelize with the values bound; the statement is marked so nothing is lifted again. */
function pgQuery<T>(
  sequelize: Sequelize,
  sql: string,
  values: Values | undefined,
  options: { transaction?: Transaction; type: QueryTypes },
): Promise<T> {
  const { text, params } = bound(sequelize, sql, values);
  const send = () => sequelize.query(text, { ...options, bind: params, bound: true } as object) as Promise<T>;
  const { transaction } = options;
  if (!transaction) return send();
  const sent = (pgTransactionTail.get(transaction) ?? Promise.resolve()).then(send, send);
  pgTransactionTail.set(
    transaction,
    sent.catch(() => undefined),
  );
  return sent;
}

function runOn<T>(sequelize: Sequelize, conn: SqliteConnection, text: string, params: unknown[], call: SqliteCall<T>): Promise<T> {
  // Queued one at a time on the connection, as Sequelize does: statements waiting for the write
  // lock (busy_timeout) then hold one libuv pool thread, not all of them (see serialiseTransactions).
  // Each text stays prepared on its connection (sqlite-statements.ts).
  return new Promise<T>((resolve, reject) => {
    call(preparedStatements(conn), text, params, (err, value) => {
      if (!err) return resolve(value as T);
      const s = sequelize as unknown as SqliteInternals;
      reject(Object.assign(new s.dialect.Query(conn, sequelize, { type: QueryTypes.RAW }).formatError(err), { sql: text }));
    });
  });
}

async function onSqlite<T>(
  sequelize: Sequelize,
  sql: string,
  values: Values | undefined,
  transaction: Transaction | undefined,
  call: SqliteCall<T>,
  writes = false,
): Promise<T> {
  const s = sequelize as unknown as SqliteInternals;
  const { text, params } = bound(sequelize, sql, values);
  // Sequelize's `logging` option still sees every statement (off in production; the benchmark's
  // statement capture and a developer's debugging turn it on).
  const { logging } = (sequelize as unknown as { options: { logging?: unknown } }).options;
  if (typeof logging === 'function') logging(`Executing (${transaction ? 'transaction' : 'default'}): ${text}`, { bind: params });
  if (transaction) {
    const t = transaction as unknown as { finished?: string; connection: SqliteConnection };
    if (t.finished) throw new Error(`${t.finished} has been called on this transaction, you can no longer use it.`);
    return runOn(sequelize, t.connection, text, params, call);
  }
  const turn = writes ? inWriterTurn(sequelize, (conn) => runOn(sequelize, conn as SqliteConnection, text, params, call)) : null;
  if (turn) return turn;
  const reader = writes ? null : readConnection(sequelize);
  if (reader) return runOn(sequelize, (await reader) as SqliteConnection, text, params, call);
  const conn = await s.connectionManager.getConnection({ type: 'SELECT' });
  try {
    return await runOn(sequelize, conn, text, params, call);
  } finally {
    s.connectionManager.releaseConnection(conn);
  }
}

const sqliteAll = <T>(sequelize: Sequelize, sql: string, values?: Values, transaction?: Transaction, writes = false) =>
  onSqlite<T[]>(
    sequelize,
    sql,
    values,
    transaction,
    (statements, text, params, done) => statements.all(text, params, (err, rows) => done(err, rows as T[])),
    writes,
  );

const sqliteRun = (sequelize: Sequelize, sql: string, values?: Values, transaction?: Transaction) =>
  onSqlite<{ changes: number; lastID: number }>(
    sequelize,
    sql,
    values,
    transaction,
    (statements, text, params, done) => statements.run(text, params, done),
    true,
  );

/** Runs a write and answers how many rows it changed, on SQLite and PostgreSQL alike. */
export async function execute(sequelize: Sequelize, sql: string, values: Values, transaction?: Transaction): Promise<number> {
  if (isSqlite(sequelize)) return (await sqliteRun(sequelize, sql, values, transaction)).changes;
  // With QueryTypes.UPDATE both dialects answer [rows, affectedCount] (DELETE goes through it too).
  const [, affected] = await pgQuery<[unknown, number]>(sequelize, sql, values, { transaction, type: QueryTypes.UPDATE });
  return Number(affected ?? 0);
}

/** Runs `INSERT ... RETURNING id` and answers the new id on SQLite (lastID) and PostgreSQL (rows). */
export async function insertReturningId(sequelize: Sequelize, sql: string, values: Values, transaction?: Transaction): Promise<number> {
  if (isSqlite(sequelize)) return (await sqliteRun(sequelize, sql, values, transaction)).lastID;
  const [result] = await pgQuery<[unknown, unknown]>(sequelize, sql, values, { transaction, type: QueryTypes.INSERT });
  if (Array.isArray(result)) return Number((result[0] as { id: number }).id);
  return Number(result);
}

/** Runs a read and answers its rows, typed. */
export function select<T extends object>(sequelize: Sequelize, sql: string, values: Values = {}, transaction?: Transaction): Promise<T[]> {
  if (isSqlite(sequelize)) return sqliteAll<T>(sequelize, sql, values, transaction);
  return pgQuery<T[]>(sequelize, sql, values, { transaction, type: QueryTypes.SELECT });
}

/**
 * Runs `INSERT ... RETURNING ...` (also with ON CONFLICT DO NOTHING) and answers the returned rows
 * on both dialects. Sequelize's SQLite dialect runs a statement that starts with INSERT through
 * `run`, which reads no rows; a leading comment keeps it on `all`. PostgreSQL ignores the comment.
 */
export function insertReturning<T extends object>(
  sequelize: Sequelize,
  sql: string,
  values?: Values,
  transaction?: Transaction,
): Promise<T[]> {
  if (isSqlite(sequelize)) return sqliteAll<T>(sequelize, sql, values, transaction, true);
  return pgQuery<T[]>(sequelize, `/* returning */ ${sql}`, values, { transaction, type: QueryTypes.SELECT });
}

/**
 * `(?, ?, …), (…)` (SQLite) or `($1, $2, …), (…)` (PostgreSQL): the placeholders of `count` rows
 * of `width` values each, for multi-row INSERTs whose values go as one Positional list.
 */
export function rowPlaceholders(sequelize: Sequelize, count: number, width: number): string {
  const rows: string[] = new Array(count);
  if (isSqlite(sequelize)) {
    const row = `(${new Array(width).fill('?').join(',')})`;
    rows.fill(row);
  } else
    for (let r = 0; r < count; r++) {
      const cells: string[] = new Array(width);
      for (let c = 0; c < width; c++) cells[c] = `$${r * width + c + 1}`;
      rows[r] = `(${cells.join(',')})`;
    }
  return rows.join(',');
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
