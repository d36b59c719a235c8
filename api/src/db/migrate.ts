import path from 'node:path';
import { Umzug, SequelizeStorage } from 'umzug';
import type { Sequelize, QueryInterface } from 'sequelize';
import * as m0001 from './migrations/0001-foundation.js';
import * as m0002 from './migrations/0002-patient-search-terms.js';
import * as m0003 from './migrations/0003-jobs.js';
import * as m0004 from './migrations/0004-measurements.js';
import * as m0005 from './migrations/0005-patient-record.js';
import * as m0006 from './migrations/0006-orders-activities.js';
import * as m0007 from './migrations/0007-alarms-alerts.js';
import * as m0008 from './migrations/0008-administration.js';
import * as m0009 from './migrations/0009-webhooks.js';
import * as m0010 from './migrations/0010-messaging.js';
import * as m0011 from './migrations/0011-patient-status-changes.js';
import * as m0012 from './migrations/0012-audit.js';
import * as m0013 from './migrations/0013-activities-by-client-day.js';
import * as m0014 from './migrations/0014-patients-by-client-id.js';
import * as m0015 from './migrations/0015-alerts-covering-filters.js';
import * as m0016 from './migrations/0016-alerts-priority-element.js';
import * as m0017 from './migrations/0017-alert-status-counts.js';
import * as m0018 from './migrations/0018-devices-card-per-client.js';
import * as m0019 from './migrations/0019-notifications.js';
import * as m0020 from './migrations/0020-triage-summaries.js';
import * as m0021 from './migrations/0021-alert-filter-counts.js';
import * as m0022 from './migrations/0022-drop-alert-status-counts.js';
import * as m0023 from './migrations/0023-triage-mark-readings.js';
import * as m0024 from './migrations/0024-notification-privacy.js';
import * as m0025 from './migrations/0025-triage-summaries-due.js';
import * as m0027 from './migrations/0027-password-resets-sessions.js';
import * as m0028 from './migrations/0028-second-factors.js';
import * as m0029 from './migrations/0029-api-clients.js';
import * as m0030 from './migrations/0030-fhir-exports.js';
import * as m0031 from './migrations/0031-fhir-keyset-indexes.js';
import * as m0032 from './migrations/0032-users-break-glass.js';
import * as m0033 from './migrations/0033-orders-tab-index.js';
import * as m0034 from './migrations/0034-idempotency-keys.js';
import * as m0035 from './migrations/0035-rda-data.js';
import * as m0036 from './migrations/0036-patient-history.js';
import * as m0037 from './migrations/0037-rdas.js';
import * as m0039 from './migrations/0039-teleconsultations.js';
import * as m0040 from './migrations/0040-rda-corrections.js';
import * as m0041 from './migrations/0041-rda-documents.js';
import * as m0042 from './migrations/0042-orders-stale-check.js';
import * as m0043 from './migrations/0043-jobs-pending.js';

interface Migration {
  up(params: { context: QueryInterface }): Promise<void>;
  down(params: { context: QueryInterface }): Promise<void>;
}

/** Listed explicitly so the order is reviewable and bundling never misses a file. */
export const MIGRATIONS: Array<[string, Migration]> = [
  ['0001-foundation', m0001],
  ['0002-patient-search-terms', m0002],
  ['0003-jobs', m0003],
  ['0004-measurements', m0004],
  ['0005-patient-record', m0005],
  ['0006-orders-activities', m0006],
  ['0007-alarms-alerts', m0007],
  ['0008-administration', m0008],
  ['0009-webhooks', m0009],
  ['0010-messaging', m0010],
  ['0011-patient-status-changes', m0011],
  ['0012-audit', m0012],
  ['0013-activities-by-client-day', m0013],
  ['0014-patients-by-client-id', m0014],
  ['0015-alerts-covering-filters', m0015],
  ['0016-alerts-priority-element', m0016],
  ['0017-alert-status-counts', m0017],
  ['0018-devices-card-per-client', m0018],
  ['0019-notifications', m0019],
  ['0020-triage-summaries', m0020],
  ['0021-alert-filter-counts', m0021],
  ['0022-drop-alert-status-counts', m0022],
  ['0023-triage-mark-readings', m0023],
  ['0024-notification-privacy', m0024],
  ['0025-triage-summaries-due', m0025],
  ['0027-password-resets-sessions', m0027],
  ['0028-second-factors', m0028],
  ['0029-api-clients', m0029],
  ['0030-fhir-exports', m0030],
  ['0031-fhir-keyset-indexes', m0031],
  ['0032-users-break-glass', m0032],
  ['0033-orders-tab-index', m0033],
  ['0034-idempotency-keys', m0034],
  ['0035-rda-data', m0035],
  ['0036-patient-history', m0036],
  ['0037-rdas', m0037],
  ['0039-teleconsultations', m0039],
  ['0040-rda-corrections', m0040],
  ['0041-rda-documents', m0041],
  ['0042-orders-stale-check', m0042],
  ['0043-jobs-pending', m0043],
];

function createMigrator(sequelize: Sequelize) {
  return new Umzug({
    migrations: MIGRATIONS.map(([name, m]) => ({ name, up: m.up, down: m.down })),
    context: sequelize.getQueryInterface(),
    storage: new SequelizeStorage({ sequelize, tableName: 'schema_migrations' }),
    logger: undefined,
  });
}

/** Applies the pending migrations; answers how many ran. */
export async function migrate(sequelize: Sequelize): Promise<number> {
  return (await createMigrator(sequelize).up()).length;
}

/** The migrations this code has that the database has not run (the readiness check's). */
export async function pendingMigrations(sequelize: Sequelize): Promise<string[]> {
  return (await createMigrator(sequelize).pending()).map((m) => m.name);
}

/**
 * The key of the PostgreSQL advisory lock held while a process prepares the database ('vigi' in
 * ASCII). Advisory locks are per database, so two installations on one server never wait for each other.
 */
const START_LOCK_KEY = 0x76696769;
/** How often a process that finds the lock taken asks again. */
const START_LOCK_POLL_MS = 200;
/** SQLite: the file, beside the database, whose lock stands for "a process is preparing the database". */
export const SQLITE_START_LOCK_FILE = 'vigia.start-lock';

interface PgClient {
  query(text: string, values: unknown[]): Promise<{ rows: Array<Record<string, unknown>> }>;
}
interface SqliteLockHandle {
  run(sql: string, cb: (err: (Error & { code?: string }) | null) => void): void;
  close(cb: (err: Error | null) => void): void;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs `fn` (the migrations, the catalogues and the first start's demo data) while no other process
 * prepares the same database: two processes started together on a new database each ran every
 * migration, and one died on the other's tables (issue 49: `relation "prompts_owner" already
 * exists`), or both seeded the demo. The second waits, then finds the work done. The lock lives in
 * the database server's or the operating system's hands, so a process killed while holding it
 * frees it: PostgreSQL drops a session's advisory locks with its connection, the kernel drops a
 * dead process's file locks. `onWait` is told once when the lock was taken by someone else.
 */
export async function underStartLock<T>(sequelize: Sequelize, fn: () => Promise<T>, onWait?: () => void): Promise<T> {
  let told = false;
  const waiting = async () => {
    if (!told) onWait?.();
    told = true;
    await sleep(START_LOCK_POLL_MS);
  };
  if (sequelize.getDialect() === 'postgres') return underAdvisoryLock(sequelize, fn, waiting);
  const storage = (sequelize as unknown as { options: { storage?: string } }).options.storage;
  if (!storage || storage === ':memory:') return fn();
  return underFileLock(sequelize, path.join(path.dirname(storage), SQLITE_START_LOCK_FILE), fn, waiting);
}

/**
 * A session advisory lock on a connection of its own, taken out of the pool for the time of `fn`:
 * the statements of `fn` run on the others, so no transaction stays open around DDL (a server's
 * idle_in_transaction_session_timeout would end it). Asked with pg_try_advisory_lock rather than
 * waited for, since the connections' lock_timeout (5 s, database.ts) would fail a longer wait.
 */
async function underAdvisoryLock<T>(sequelize: Sequelize, fn: () => Promise<T>, waiting: () => Promise<void>): Promise<T> {
  const manager = sequelize.connectionManager as unknown as {
    getConnection(o: { type: string }): Promise<PgClient>;
    releaseConnection(conn: PgClient): Promise<void>;
  };
  const conn = await manager.getConnection({ type: 'SELECT' });
  try {
    while (!(await conn.query('SELECT pg_try_advisory_lock($1) AS taken', [START_LOCK_KEY])).rows[0]?.taken) await waiting();
    try {
      return await fn();
    } finally {
      // A connection lost meanwhile took the lock with it: `fn`'s own error is the one to report.
      await conn.query('SELECT pg_advisory_unlock($1)', [START_LOCK_KEY]).catch(() => undefined);
    }
  } finally {
    await manager.releaseConnection(conn);
  }
}

/**
 * SQLite: an exclusive transaction on a small file of its own beside the database. Not on the
 * database itself: `fn` writes there through this process's other connections, which would wait
 * for it. The file holds nothing (the transaction writes nothing); only its lock matters.
 */
async function underFileLock<T>(sequelize: Sequelize, file: string, fn: () => Promise<T>, waiting: () => Promise<void>): Promise<T> {
  const { lib } = sequelize.connectionManager as unknown as {
    lib: {
      Database: new (file: string, mode: number, cb: (err: Error | null) => void) => SqliteLockHandle;
      OPEN_READWRITE: number;
      OPEN_CREATE: number;
    };
  };
  const lock = await new Promise<SqliteLockHandle>((resolve, reject) => {
    const db = new lib.Database(file, lib.OPEN_READWRITE | lib.OPEN_CREATE, (err) => (err ? reject(err) : resolve(db)));
  });
  const run = (sql: string) => new Promise<void>((resolve, reject) => lock.run(sql, (err) => (err ? reject(err) : resolve())));
  try {
    for (;;) {
      try {
        await run('BEGIN EXCLUSIVE');
        break;
      } catch (err) {
        if ((err as { code?: string }).code !== 'SQLITE_BUSY') throw err;
        await waiting();
      }
    }
    try {
      return await fn();
    } finally {
      // Closing the file below ends the transaction anyway: `fn`'s own error is the one to report.
      await run('ROLLBACK').catch(() => undefined);
    }
  } finally {
    await new Promise<void>((resolve) => lock.close(() => resolve()));
  }
}
