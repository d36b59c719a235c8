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
 * PostgreSQL goes straight to node-postgres the same way (pgQuery): Sequelize's path was 12 % of
 * the API's busy time under single-reading load, where the main thread is what limits (issue 22).
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

/** A node-postgres client as Sequelize's pool hands it out (its type parsers are Sequelize's). */
interface PgClient {
  query(text: string, values?: unknown[]): Promise<{ rows: object[]; rowCount: number | null }>;
  query(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: object[]; rowCount: number | null }>;
  /** Sequelize's pool drops a connection so marked. */
  _invalid?: boolean;
  uuid?: string;
}
interface PgInternals {
  dialect: AbstractDialect & {
    Query: new (conn: unknown, sequelize: Sequelize, options: object) => { formatError(err: Error, stack?: string): Error };
  };
  connectionManager: {
    getConnection(o: object): Promise<PgClient>;
    releaseConnection(c: PgClient): Promise<void> | void;
    destroyConnection(c: PgClient): Promise<void>;
  };
}
type PgResult = { rows: object[]; rowCount: number | null };

/**
 * The last statement sent on each PostgreSQL transaction. A transaction is one client, which runs
 * one statement at a time anyway; statements sent together (the ingestion hooks' reads beside the
 * INSERT) wait here for the one before, instead of in node-postgres's own queue, which warns that
 * pg 9 will refuse a query sent while another runs on the same client.
 */
const pgTransactionTail = new WeakMap<Transaction, Promise<unknown>>();

/** Sequelize's own care for text values: PostgreSQL refuses NUL in text. */
const pgValue = (v: unknown) => (typeof v === 'string' && v.includes('\0') ? v.replace(/\0/g, '\\0') : v);

/**
 * Transactions whose statements run as named prepared statements with generic plans (writeTransaction's
 * `genericPlans`): PostgreSQL plans each such text once per connection instead of on every
 * execution. Planning was most of a small statement's cost here: the alarm rules' read took 0.5-0.7
 * ms a time planned afresh and 0.15 ms prepared with its generic plan (issue 22).
 */
const genericPlanTransactions = new WeakSet<Transaction>();
/** Statement names by text. Bounded: a text built per call (a multi-row VALUES) past the cap goes unnamed. */
const preparedNames = new Map<string, string>();
const MAX_PREPARED = 300;
function preparedName(text: string): string | undefined {
  let name = preparedNames.get(text);
  if (name === undefined && preparedNames.size < MAX_PREPARED) preparedNames.set(text, (name = `vigia_${preparedNames.size + 1}`));
  return name;
}

/**
 * Statements of the request path that run outside any transaction as named prepared statements on
 * PostgreSQL (`prepared`): parsed once per connection, and planned once PostgreSQL finds its
 * generic plan as good as a fresh one (after five runs, the default plan_cache_mode). Only point
 * lookups by key, whose every plan is the same index scan.
 */
const preparedTexts = new Set<string>();
/**
 * Marks `sql` (answered as it is) to run as a named prepared statement on PostgreSQL wherever it
 * runs: the session and patient lookups behind every request (issue 22, where each lookup was
 * parsed and planned afresh). SQLite keeps every statement prepared anyway (sqlite-statements.ts).
 */
export function prepared(sql: string): string {
  preparedTexts.add(sql);
  return sql;
}

/** Told each statement's duration (issue 39's SQL time metric); set once by the composition root. */
let statementObserver: ((seconds: number, dialect: 'sqlite' | 'postgres') => void) | null = null;
export function observeStatements(observer: typeof statementObserver): void {
  statementObserver = observer;
}
const since = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e9;

/** Runs on one client; a failure becomes the error class Sequelize would raise (UniqueConstraintError...). */
async function runOnPg(sequelize: Sequelize, conn: PgClient, text: string, params: unknown[], name?: string): Promise<PgResult> {
  const start = process.hrtime.bigint();
  try {
    const values = params.length ? params.map(pgValue) : undefined;
    return await (name && values ? conn.query({ name, text, values }) : conn.query(text, values)).finally(() =>
      statementObserver?.(since(start), 'postgres'),
    );
  } catch (err) {
    const e = err as Error & { code?: string; sql?: string; parameters?: unknown };
    // As Sequelize does: a client whose connection broke goes back to the pool marked, and is dropped.
    if (e.code === 'ECONNRESET' || e.message === 'Query read timeout') conn._invalid = true;
    Object.assign(e, { sql: text, parameters: params });
    const s = sequelize as unknown as PgInternals;
    throw Object.assign(new s.dialect.Query(conn, sequelize, { type: QueryTypes.RAW }).formatError(e), { sql: text });
  }
}

function logStatement(sequelize: Sequelize, transaction: Transaction | undefined, text: string, params: unknown[]): void {
  // Sequelize's `logging` option still sees every statement (off in production; the benchmark's
  // statement capture and a developer's debugging turn it on).
  const { logging } = (sequelize as unknown as { options: { logging?: unknown } }).options;
  if (typeof logging === 'function') logging(`Executing (${transaction ? 'transaction' : 'default'}): ${text}`, { bind: params });
}

/** On PostgreSQL: the transaction's client (one statement after another), or one from the pool for this statement. */
async function pgQuery(sequelize: Sequelize, sql: string, values: Values | undefined, transaction?: Transaction): Promise<PgResult> {
  const { text, params } = bound(sequelize, sql, values);
  logStatement(sequelize, transaction, text, params);
  // Marked by prepared(): named wherever it runs.
  const named = preparedTexts.has(sql);
  if (transaction) {
    const t = transaction as unknown as { finished?: string; connection: PgClient };
    if (t.finished) throw new Error(`${t.finished} has been called on this transaction, you can no longer use it.`);
    const name = named || genericPlanTransactions.has(transaction) ? preparedName(text) : undefined;
    const send = () => runOnPg(sequelize, t.connection, text, params, name);
    const sent = (pgTransactionTail.get(transaction) ?? Promise.resolve()).then(send, send);
    pgTransactionTail.set(
      transaction,
      sent.catch(() => undefined),
    );
    return sent;
  }
  const s = sequelize as unknown as PgInternals;
  // No type: with read replicas configured, Sequelize would send a SELECT-typed checkout to a
  // replica, and this statement may be a write.
  const conn = await s.connectionManager.getConnection({});
  try {
    return await runOnPg(sequelize, conn, text, params, named ? preparedName(text) : undefined);
  } finally {
    await s.connectionManager.releaseConnection(conn);
  }
}

function runOn<T>(sequelize: Sequelize, conn: SqliteConnection, text: string, params: unknown[], call: SqliteCall<T>): Promise<T> {
  // Queued one at a time on the connection, as Sequelize does: statements waiting for the write
  // lock (busy_timeout) then hold one libuv pool thread, not all of them (see serialiseTransactions).
  // Each text stays prepared on its connection (sqlite-statements.ts).
  return new Promise<T>((resolve, reject) => {
    const start = process.hrtime.bigint();
    call(preparedStatements(conn), text, params, (err, value) => {
      statementObserver?.(since(start), 'sqlite');
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
  background = false,
): Promise<T> {
  const s = sequelize as unknown as SqliteInternals;
  const { text, params } = bound(sequelize, sql, values);
  logStatement(sequelize, transaction, text, params);
  if (transaction) {
    const t = transaction as unknown as { finished?: string; connection: SqliteConnection };
    if (t.finished) throw new Error(`${t.finished} has been called on this transaction, you can no longer use it.`);
    return runOn(sequelize, t.connection, text, params, call);
  }
  const turn = writes ? inWriterTurn(sequelize, (conn) => runOn(sequelize, conn as SqliteConnection, text, params, call)) : null;
  if (turn) return turn;
  const reader = writes ? null : readConnection(sequelize, background);
  if (reader) return runOn(sequelize, (await reader) as SqliteConnection, text, params, call);
  const conn = await s.connectionManager.getConnection({ type: 'SELECT' });
  try {
    return await runOn(sequelize, conn, text, params, call);
  } finally {
    s.connectionManager.releaseConnection(conn);
  }
}

const sqliteAll = <T>(sequelize: Sequelize, sql: string, values?: Values, transaction?: Transaction, writes = false, background = false) =>
  onSqlite<T[]>(
    sequelize,
    sql,
    values,
    transaction,
    (statements, text, params, done) => statements.all(text, params, (err, rows) => done(err, rows as T[])),
    writes,
    background,
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
  return Number((await pgQuery(sequelize, sql, values, transaction)).rowCount ?? 0);
}

/** Runs `INSERT ... RETURNING id` and answers the new id on SQLite (lastID) and PostgreSQL (rows). */
export async function insertReturningId(sequelize: Sequelize, sql: string, values: Values, transaction?: Transaction): Promise<number> {
  if (isSqlite(sequelize)) return (await sqliteRun(sequelize, sql, values, transaction)).lastID;
  const { rows } = await pgQuery(sequelize, sql, values, transaction);
  return Number((rows[0] as { id: number | string }).id);
}

/**
 * Whether a statement may change data: it starts with INSERT, UPDATE, DELETE or REPLACE, or is a
 * WITH whose text holds one of them. Errs towards yes (a read naming a column `update` in a WITH
 * takes the writer's turn, which is only slower).
 */
export function writesData(sql: string): boolean {
  return /^\s*(INSERT|UPDATE|DELETE|REPLACE)\b/i.test(sql) || (/^\s*WITH\b/i.test(sql) && /\b(INSERT|UPDATE|DELETE|REPLACE)\b/i.test(sql));
}

/**
 * Given to select instead of a transaction: a read of background work (the summary job, the order
 * sweep), which must never queue ahead of a request's reads. On SQLite it runs on a connection of
 * its own (database.ts, readConnection); on PostgreSQL every statement has a pool client anyway.
 */
export const BACKGROUND = Symbol('background read');

/**
 * Runs a read and answers its rows, typed. A statement that writes (`UPDATE … RETURNING`, the job
 * queue's claim) goes to the writer as insertReturning's do: on a read connection it would take
 * SQLite's write lock from there, wait out the writer's transaction in the busy handler's sleeps
 * (20-100 ms under ingestion load), and every read queued behind it on that connection with it.
 */
export async function select<T extends object>(
  sequelize: Sequelize,
  sql: string,
  values: Values = {},
  on?: Transaction | typeof BACKGROUND,
): Promise<T[]> {
  const transaction = on === BACKGROUND ? undefined : on;
  if (isSqlite(sequelize)) return sqliteAll<T>(sequelize, sql, values, transaction, !transaction && writesData(sql), on === BACKGROUND);
  return (await pgQuery(sequelize, sql, values, transaction)).rows as T[];
}

/**
 * Runs `INSERT ... RETURNING ...` (also with ON CONFLICT DO NOTHING, or DELETE ... RETURNING) and
 * answers the returned rows on both dialects (on SQLite through the driver's `all`, which reads them).
 */
export async function insertReturning<T extends object>(
  sequelize: Sequelize,
  sql: string,
  values?: Values,
  transaction?: Transaction,
): Promise<T[]> {
  if (isSqlite(sequelize)) return sqliteAll<T>(sequelize, sql, values, transaction, true);
  return (await pgQuery(sequelize, sql, values, transaction)).rows as T[];
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
 * PostgreSQL it takes a client from the pool and sends START TRANSACTION and COMMIT on it the same
 * way (pgTransaction); a SQLite database not opened by openDatabase gets sequelize.transaction(fn).
 * `genericPlans` (PostgreSQL): the statements run prepared, each with one plan made without its
 * values (genericPlanTransactions), for a transaction whose every statement finds its rows by the
 * same indexes whatever the values (the ingestion group's, checked by tests/api/ingest-plans.test.ts).
 */
export function writeTransaction<T>(
  sequelize: Sequelize,
  fn: (transaction: Transaction) => Promise<T>,
  opts: { genericPlans?: boolean } = {},
): Promise<T> {
  const turn = isSqlite(sequelize)
    ? inWriterTurn(sequelize, (conn) => {
        const t = new Transaction(sequelize, {}) as OpenTransaction<unknown>;
        t.connection = conn;
        // The writer's connection stays with the queue whatever happened: nothing to give back.
        return runTransaction(sequelize, t, 'BEGIN IMMEDIATE TRANSACTION', fn, async () => undefined);
      })
    : null;
  if (turn) return turn;
  return isSqlite(sequelize) ? sequelize.transaction(fn) : pgTransaction(sequelize, fn, opts.genericPlans ?? false);
}

type OpenTransaction<C> = Transaction & {
  id: string;
  connection: C;
  finished?: string;
  _afterCommitHooks: Array<(t: Transaction) => unknown>;
};

/**
 * What sequelize.transaction(fn) does, without its query path, on a connection `t` already holds:
 * `begin`, fn, COMMIT, then the after-commit hooks. If fn or COMMIT fails, ROLLBACK (a failed
 * COMMIT may have ended the transaction already: SQLite rolls back on some errors, PostgreSQL
 * always). `end` gives the connection back, told whether it is known to be clean: not after a
 * failed COMMIT, nor after a ROLLBACK that failed.
 */
async function runTransaction<T, C>(
  sequelize: Sequelize,
  t: OpenTransaction<C>,
  begin: string,
  fn: (transaction: Transaction) => Promise<T>,
  end: (clean: boolean) => Promise<void>,
): Promise<T> {
  let out: T;
  let committing = false;
  try {
    await execute(sequelize, begin, {}, t);
    out = await fn(t);
    committing = true;
    await execute(sequelize, 'COMMIT', {}, t);
  } catch (err) {
    const rolledBack = await execute(sequelize, 'ROLLBACK', {}, t).then(
      () => true,
      () => false,
    );
    t.finished = committing ? 'commit' : 'rollback';
    await end(rolledBack && !committing);
    throw err;
  }
  t.finished = 'commit';
  await end(true);
  for (const hook of t._afterCommitHooks) await hook(t);
  return out;
}

/**
 * On PostgreSQL: a client from the pool for the transaction (runTransaction), destroyed rather
 * than given back when it is not known to be clean, as Sequelize does. With `genericPlans` the
 * statements run prepared with generic plans (genericPlanTransactions); the SET LOCAL goes with
 * START TRANSACTION in one round trip (no parameters: the simple protocol takes several statements).
 */
async function pgTransaction<T>(sequelize: Sequelize, fn: (transaction: Transaction) => Promise<T>, genericPlans: boolean): Promise<T> {
  const s = sequelize as unknown as PgInternals;
  const t = new Transaction(sequelize, {}) as OpenTransaction<PgClient>;
  const conn = await s.connectionManager.getConnection({ uuid: t.id });
  conn.uuid = t.id;
  t.connection = conn;
  if (genericPlans) genericPlanTransactions.add(t);
  return runTransaction(
    sequelize,
    t,
    genericPlans ? 'START TRANSACTION; SET LOCAL plan_cache_mode = force_generic_plan' : 'START TRANSACTION',
    fn,
    async (clean) => {
      conn.uuid = undefined;
      if (clean) await s.connectionManager.releaseConnection(conn);
      else await s.connectionManager.destroyConnection(conn);
    },
  );
}

/**
 * A list of the contract's named codes (status, type) written into SQL text: `status IN ${sqlIn(A, B)}`.
 * Only integers: constants of the code, never a user's value (those stay bound).
 */
export function sqlIn(...values: number[]): string {
  if (!values.length || !values.every(Number.isInteger)) throw new Error(`sqlIn: integer codes expected, got ${values.join(', ')}`);
  return `(${values.join(', ')})`;
}
