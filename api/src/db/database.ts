import path from 'node:path';
import { Sequelize, Transaction } from 'sequelize';
import type { Config } from '../config.js';
import { bindEveryStatement } from './bound-statements.js';
import { preparedStatements, type SqliteDatabase } from './sqlite-statements.js';

interface SqliteHandle {
  run(sql: string, cb: (err: Error | null) => void): void;
}

/**
 * Per-connection settings: SQLite keeps these per connection, not per file. journal_size_limit:
 * once a checkpoint has emptied the WAL, the writer that starts it over cuts the file back to 64 MB
 * (without it a WAL that grew once, under a bulk load or behind a long backup, stays that size).
 */
const CONNECTION_PRAGMAS = [
  'PRAGMA busy_timeout = 5000',
  'PRAGMA synchronous = NORMAL',
  'PRAGMA foreign_keys = ON',
  'PRAGMA journal_size_limit = 67108864',
];

/**
 * Checkpoints off the writer's path (issue 51). SQLite's automatic checkpoint runs inside the commit
 * that takes the WAL past 1,000 pages, on the committing connection, while it still holds the
 * write lock: that commit copies ~4 MB into the database file and syncs it, and every write queued
 * behind it waits. While an RDA backlog drained, that was where the readings' tail came from (the
 * slowest readings came in bursts right after large writes). A connection of its own checkpoints
 * instead (PASSIVE: it never takes the write lock nor waits for readers) every
 * CHECKPOINT_INTERVAL_MS (with nothing new in the WAL it only reads the WAL's header); the writer keeps an automatic checkpoint only
 * far above what a second of writes makes, as a bound should that connection ever fall behind.
 */
const CHECKPOINT_INTERVAL_MS = 1000;
const WRITER_AUTOCHECKPOINT_PAGES = 16_384;

/**
 * The writer's own: a statement that may fail halfway inside a transaction (the group's INSERT with
 * its trigger, a multi-row UPDATE) keeps the pages it changes in a statement journal, which SQLite
 * spills past 64 KB to a temporary file it creates and deletes in /var/tmp, once per transaction.
 * Under single-reading load that was a quarter of the bytes the API's SQLite wrote (pwrite, strace
 * over 4 s of the benchmark's 10-connection phase) and a file created and unlinked per group
 * (issue 22). In memory it is a few MB at most (a group of 2,000 rows). Only the writer: a reader's
 * temporary tables and sorts stay on disk, so a large sort cannot grow the API's memory.
 */
const WRITER_PRAGMAS = ['PRAGMA temp_store = MEMORY', `PRAGMA wal_autocheckpoint = ${WRITER_AUTOCHECKPOINT_PAGES}`];

function runPragmas(conn: SqliteHandle, extra: string[] = []): Promise<void> {
  return [...CONNECTION_PRAGMAS, ...extra].reduce<Promise<void>>(
    (p, sql) => p.then(() => new Promise<void>((resolve, reject) => conn.run(sql, (err) => (err ? reject(err) : resolve())))),
    Promise.resolve(),
  );
}

/**
 * Sequelize's SQLite dialect opens a new connection for every transaction and closes it at the
 * end: each transaction then pays for opening the file and parsing the schema, and, since
 * `synchronous` is a per-connection setting, ran with the default FULL (an fsync per commit). That
 * was most of the cost of a stored reading (bench: 80 readings/s against 1,237 for a bare
 * INSERT). Managed transactions run one at a time (serialiseTransactions below), so they all share
 * one long-lived connection, opened once with the same pragmas as the main one.
 */
function shareTransactionConnection(sequelize: Sequelize) {
  const manager = sequelize.connectionManager as unknown as {
    getConnection(o?: { uuid?: string }): Promise<SqliteHandle>;
    releaseConnection(conn: SqliteHandle, force?: boolean): void;
  };
  const getConnection = manager.getConnection.bind(manager);
  const releaseConnection = manager.releaseConnection.bind(manager);
  const prepared = new WeakSet<SqliteHandle>();
  let shared: Promise<SqliteHandle> | null = null;
  let sharedConn: SqliteHandle | null = null;
  const prepare = async (conn: SqliteHandle, extra: string[] = []) => {
    if (!prepared.has(conn)) {
      prepared.add(conn);
      await runPragmas(conn, extra);
    }
    return conn;
  };
  manager.getConnection = async (o?: { uuid?: string }) => {
    if (!o?.uuid || o.uuid === 'default') return prepare(await getConnection(o));
    // Every transaction id maps to the one transaction connection, opened under a fixed key.
    shared ??= getConnection({ ...o, uuid: 'transactions' })
      .then((conn) => prepare(conn, WRITER_PRAGMAS))
      .then((conn) => (sharedConn = conn))
      .catch((err) => {
        shared = null;
        throw err;
      });
    return shared;
  };
  manager.releaseConnection = (conn: SqliteHandle, force?: boolean) => {
    // Kept open between transactions; closed with the others when Sequelize closes.
    if (conn === sharedConn && !force) return;
    releaseConnection(conn, force);
  };
}

/** How each database openDatabase opened was given, for a worker thread that opens the same one. */
const openedWith = new WeakMap<Sequelize, Pick<Config, 'dataDir' | 'databaseUrl'>>();

/** What openDatabase was given for `sequelize` (null: opened some other way, as a few unit tests do). */
export function databaseOf(sequelize: Sequelize): Pick<Config, 'dataDir' | 'databaseUrl'> | null {
  return openedWith.get(sequelize) ?? null;
}

/**
 * SQLite (one file under DATA_DIR, WAL so readers never wait for the writer) unless
 * DATABASE_URL points at PostgreSQL.
 */
export async function openDatabase(
  config: Pick<Config, 'dataDir' | 'databaseUrl'>,
  /** checkpointEveryMs: the aside checkpoint's period; 0 for none (a process that only reads: the export worker). */
  options: { checkpointEveryMs?: number } = {},
): Promise<Sequelize> {
  const sequelize = await open(config, options.checkpointEveryMs ?? CHECKPOINT_INTERVAL_MS);
  openedWith.set(sequelize, { dataDir: config.dataDir, databaseUrl: config.databaseUrl });
  return sequelize;
}

async function open(config: Pick<Config, 'dataDir' | 'databaseUrl'>, checkpointEveryMs: number): Promise<Sequelize> {
  if (config.databaseUrl) {
    const sequelize = new Sequelize(config.databaseUrl, {
      logging: false,
      pool: { max: 10, min: 0, idle: 10_000 },
      define: { underscored: true },
      // A lock held elsewhere fails the statement after 5 s (answered 503) instead of hanging the request.
      dialectOptions: { lock_timeout: 5000 },
    });
    bindEveryStatement(sequelize);
    await sequelize.authenticate();
    return sequelize;
  }
  const storage = path.join(config.dataDir, 'vigia.sqlite');
  const sequelize = new Sequelize({
    dialect: 'sqlite',
    storage,
    logging: false,
    // SQLite serialises writers anyway. (The SQLite dialect ignores the pool for transactions.)
    pool: { max: 1, min: 1, idle: 60_000 },
    define: { underscored: true },
    retry: { max: 0 },
    // A write transaction takes the lock at BEGIN, so a concurrent one waits (busy_timeout) instead
    // of failing when its read snapshot went stale (SQLITE_BUSY_SNAPSHOT): found by tests/faults.
    transactionType: Transaction.TYPES.IMMEDIATE,
  });
  bindEveryStatement(sequelize);
  shareTransactionConnection(sequelize);
  shareReads(sequelize, storage, checkpointEveryMs);
  serialiseTransactions(sequelize);
  await sequelize.query('PRAGMA journal_mode = WAL');
  return sequelize;
}

/**
 * SQLite: the reads sql.ts sends outside a transaction share two connections, each statement going
 * to the one with fewer of them waiting (issue 22). Statements run one at a time per connection,
 * so with one connection a long read (the triage job's readings of 200 patients, a report) held
 * every session and patient lookup behind it: at 500 readings/s offered the API answered 331-343/s
 * with a p99 of 115-216 ms while the summary job ran. In WAL mode readers never wait for each
 * other or for the writer.
 *
 * Background work (the summary job's reads, sent as `background`) has a third connection of its
 * own: its reads go out several at once and run 100-200 ms each at 20,000 patients, and on the
 * shared two they still queued ahead of a request's lookups (the 500/s phase's stalls, issue 22).
 * The extra connections open on first use and close with the others.
 */
const readers = new WeakMap<Sequelize, (background: boolean) => Promise<SqliteHandle>>();

function shareReads(sequelize: Sequelize, storage: string, checkpointEveryMs: number) {
  const manager = sequelize.connectionManager as unknown as {
    getConnection(o: { type: string }): Promise<SqliteHandle>;
    connections: Record<string, unknown>;
    lib: { Database: new (file: string, mode: number, cb: (err: Error | null) => void) => SqliteHandle; OPEN_READWRITE: number };
  };
  /** A connection of its own, kept in the connection manager's list under `name` so it closes with the rest. */
  const extra = (name: string) => {
    let opened: Promise<SqliteHandle> | null = null;
    return () =>
      (opened ??= new Promise<SqliteHandle>((resolve, reject) => {
        const conn = new manager.lib.Database(storage, manager.lib.OPEN_READWRITE, (err) => (err ? reject(err) : resolve(conn)));
      })
        .then(async (conn) => {
          manager.connections[name] = conn;
          await runPragmas(conn);
          return conn;
        })
        .catch((err) => {
          opened = null;
          throw err;
        }));
  };
  const second = extra('reads');
  const background = extra('background');
  if (checkpointEveryMs > 0) checkpointAside(sequelize, extra('checkpoints'), checkpointEveryMs);
  const waiting = (conn: SqliteHandle) => preparedStatements(conn as unknown as SqliteDatabase).waiting;
  readers.set(sequelize, async (inBackground) => {
    if (inBackground) return background();
    const [main, other] = await Promise.all([manager.getConnection({ type: 'SELECT' }), second()]);
    return waiting(other) < waiting(main) ? other : main;
  });
}

/** SQLite: a PASSIVE checkpoint on `connection` every `everyMs` until the database closes. */
function checkpointAside(sequelize: Sequelize, connection: () => Promise<SqliteHandle>, everyMs: number) {
  let inFlight: Promise<void> | null = null;
  const timer = setInterval(() => {
    inFlight ??= connection()
      .then((conn) => new Promise<void>((resolve) => conn.run('PRAGMA wal_checkpoint(PASSIVE)', () => resolve())))
      // A connection that could not open is tried again at the next tick; the writer's bound holds meanwhile.
      .catch(() => undefined)
      .finally(() => (inFlight = null));
  }, everyMs);
  timer.unref();
  const close = sequelize.close.bind(sequelize);
  sequelize.close = async () => {
    clearInterval(timer);
    await inFlight; // its connection, opened by then, closes with the others
    return close();
  };
}

/**
 * SQLite: the read connection for a statement outside any transaction (`background`: the one kept
 * for background work); null for a database not opened by openDatabase.
 */
export function readConnection(sequelize: Sequelize, background = false): Promise<unknown> | null {
  return readers.get(sequelize)?.(background) ?? null;
}

/**
 * SQLite: one managed transaction at a time per process, queued in JavaScript. A transaction takes
 * the write lock at BEGIN IMMEDIATE, and a BEGIN that must wait does so inside a libuv pool thread
 * (busy_timeout); with more concurrent transactions than pool threads (4), the waiting BEGINs hold
 * every thread, the lock holder's next statement cannot run, and nothing moves until the 5 s
 * timeout fails them all (bench/ingest.ts: 10 concurrent single readings, none answered in 3 s).
 * SQLite runs one writer at a time anyway, so queueing here costs no throughput. A write of one
 * statement outside any transaction takes the same queue (inWriterTurn) and runs on the
 * transaction connection as its own implicit transaction: one round trip, no BEGIN and COMMIT.
 */
interface WriterQueue {
  tail: Promise<unknown>;
  connection: () => Promise<SqliteHandle>;
}
const writerQueues = new WeakMap<Sequelize, WriterQueue>();

function serialiseTransactions(sequelize: Sequelize) {
  const original = sequelize.transaction.bind(sequelize) as (...args: unknown[]) => Promise<unknown>;
  const manager = sequelize.connectionManager as unknown as { getConnection(o: { uuid: string }): Promise<SqliteHandle> };
  const queue: WriterQueue = { tail: Promise.resolve(), connection: () => manager.getConnection({ uuid: 'writer' }) };
  writerQueues.set(sequelize, queue);
  (sequelize as unknown as { transaction: (...args: unknown[]) => Promise<unknown> }).transaction = (...args: unknown[]) => {
    // Unmanaged transactions (no callback) are committed by their caller: left as they were.
    if (!args.some((a) => typeof a === 'function')) return original(...args);
    const run = queue.tail.then(() => original(...args));
    queue.tail = run.catch(() => undefined);
    return run;
  };
}

/**
 * SQLite: runs `fn` on the transaction connection once the transactions and writes queued before
 * it are done. Never call it from inside a managed transaction: the turn would wait for itself.
 * Null for a database not opened by openDatabase (it has no queue).
 */
export function inWriterTurn<T>(sequelize: Sequelize, fn: (connection: unknown) => Promise<T>): Promise<T> | null {
  const queue = writerQueues.get(sequelize);
  if (!queue) return null;
  const run = queue.tail.then(async () => fn(await queue.connection()));
  queue.tail = run.catch(() => undefined);
  return run;
}

export function isPostgres(sequelize: Sequelize): boolean {
  return sequelize.getDialect() === 'postgres';
}
