/**
 * Which database failures are the database's state rather than a bug (issue 49): the API answers
 * them 503 with Retry-After, the job runner waits them out with one log line. Sequelize wraps the
 * driver's error (`parent`/`original`), and the driver's may carry a `cause`: every layer is read.
 */

export type DatabaseFailure =
  /** The database cannot be reached: refused, cut, stopped, renamed, its file unopenable. */
  | 'unreachable'
  /** It answers but cannot take this now: a lock, a deadlock, a full disk, no free connection. */
  | 'busy';

interface ErrorLayer {
  name?: unknown;
  code?: unknown;
  message?: unknown;
  parent?: unknown;
  original?: unknown;
  cause?: unknown;
}

/** Sequelize's connection errors, whatever the dialect (ConnectionAcquireTimeout is 'busy': a full pool). */
const UNREACHABLE_NAMES = new Set([
  'SequelizeConnectionError',
  'SequelizeConnectionRefusedError',
  'SequelizeHostNotFoundError',
  'SequelizeHostNotReachableError',
  'SequelizeConnectionTimedOutError',
  'SequelizeInvalidConnectionError',
  'SequelizeAccessDeniedError',
]);

/** A socket's failure, the database's only when a Sequelize error carries it (not a webhook's peer). */
const SOCKET_CODE = /^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|ENOTFOUND|EAI_AGAIN|EPIPE)$/;

/**
 * PostgreSQL's class 08 (connection exception), 57P01–57P03 (terminated by an
 * administrator, a crash, or not accepting connections yet) and 3D000 (the database is gone or
 * renamed); SQLite's file that cannot be opened or read.
 */
const UNREACHABLE_CODE = /^(08[0-9A-Z]{3}|57P0[123]|3D000|SQLITE_CANTOPEN)$/;

/** node-postgres says these in words only, without a code. */
const UNREACHABLE_TEXT =
  /Connection terminated|connection error and is not queryable|Client was closed and is not queryable|terminating connection due to|the database system is (starting up|shutting down|in recovery mode)|SQLITE_CANTOPEN/i;

const BUSY_TEXT =
  /SQLITE_BUSY|SQLITE_LOCKED|SQLITE_FULL|SQLITE_IOERR|database is locked|lock timeout|deadlock detected|ConnectionAcquireTimeout|ECONNREFUSED|too many clients/i;

function layersOf(err: unknown): ErrorLayer[] {
  const layers: ErrorLayer[] = [];
  const queue: unknown[] = [err];
  while (queue.length && layers.length < 8) {
    const e = queue.shift();
    if (!e || typeof e !== 'object' || layers.includes(e as ErrorLayer)) continue;
    const layer = e as ErrorLayer;
    layers.push(layer);
    queue.push(layer.parent, layer.original, layer.cause);
  }
  return layers;
}

/** null: not a database state (a bug, a constraint, a bad statement). */
export function databaseFailureOf(err: unknown): DatabaseFailure | null {
  const layers = layersOf(err);
  const text = (l: ErrorLayer) => `${String(l.name ?? '')} ${String(l.code ?? '')} ${String(l.message ?? '')}`;
  const fromSequelize = layers.some((l) => String(l.name).startsWith('Sequelize'));
  for (const { name, code, message } of layers) {
    if (
      UNREACHABLE_NAMES.has(String(name)) ||
      UNREACHABLE_CODE.test(String(code ?? '')) ||
      (fromSequelize && SOCKET_CODE.test(String(code ?? ''))) ||
      UNREACHABLE_TEXT.test(String(message ?? ''))
    )
      return 'unreachable';
  }
  return layers.some((l) => BUSY_TEXT.test(text(l))) ? 'busy' : null;
}
