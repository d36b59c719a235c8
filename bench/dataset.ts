import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { QueryTypes, type Sequelize } from 'sequelize';
import { openDatabase } from '../api/src/db/database.js';
import { seedLarge } from '../seeds/large.js';
import { seedDeps } from '../api/src/seed-deps.js';
import { createJobRunner } from '../api/src/jobs/queue.js';
import { runLifecycle } from '../api/src/modules/orders/orders.lifecycle.js';
import { ORDER_STATUS, ORDER_TYPE, PENDING_ACTIVITY_STATUSES } from '@vigia/contract/rules/activities';
import type { Dialect, Driver, DriverTarget } from './driver.js';

export interface DatasetOptions {
  dialect: Dialect;
  patients: number;
  clients: number;
  seed: number;
  measurementsPerPatient: number;
  /** Readings over the last year of each client's first active patient (the CSV export's year). */
  heavyReadings: number;
  /** Fixed, so the same seed gives the same rows on any day. */
  now: string;
  /** PostgreSQL only; the database is dropped and created again when the data set is built. */
  databaseUrl: string | null;
}

export interface Manifest {
  options: DatasetOptions;
  /** Hash of the generator and the migrations: a data set built by older code is not reused. */
  source: string;
  /** Rows per table (empty tables left out), so rows added by later features show up unasked. */
  counts: Record<string, number>;
  sizeBytes: number;
  buildSeconds: number;
  builtAt: string;
}

export interface Dataset {
  /** The folder of this data set: the SQLite file (or, on PostgreSQL, only the manifest) and the API's log. */
  dir: string;
  target: DriverTarget;
  manifest: Manifest;
  reused: boolean;
}

function folderName(o: DatasetOptions): string {
  const shape = `${o.patients}x${o.clients}-s${o.seed}-m${o.measurementsPerPatient}`;
  return o.dialect === 'sqlite' ? `sqlite-${shape}` : `postgres-${new URL(o.databaseUrl!).pathname.slice(1)}`;
}

const sameOptions = (a: DatasetOptions, b: DatasetOptions) => JSON.stringify(a) === JSON.stringify(b);

function sourceFingerprint(rootDir: string): string {
  const hash = createHash('sha256');
  const migrations = path.join(rootDir, 'api', 'src', 'db', 'migrations');
  const files = [
    ...['large.ts', 'large.derived.ts', 'demo.rules.ts', 'demo.ts'].map((f) => path.join(rootDir, 'seeds', f)),
    // The build's own steps after the seed (settleOrders).
    path.join(rootDir, 'bench', 'dataset.ts'),
    path.join(rootDir, 'api', 'src', 'modules', 'orders', 'orders.lifecycle.ts'),
    ...fs
      .readdirSync(migrations)
      .sort()
      .map((f) => path.join(migrations, f)),
  ];
  // The path relative to the checkout: another clone of the same code reuses the data set.
  for (const file of files) hash.update(path.relative(rootDir, file)).update(fs.readFileSync(file));
  return hash.digest('hex').slice(0, 16);
}

/** The database name of a URL the benchmark may drop: only one named for benchmarks. */
export function droppableBenchDatabase(url: string): string {
  const name = new URL(url).pathname.slice(1);
  if (!/bench/i.test(name) || !/^[a-z0-9_]+$/i.test(name)) {
    throw new Error(`Por seguridad el benchmark solo borra bases cuyo nombre contiene "bench" (recibió "${name}").`);
  }
  return name;
}

/** Drops and creates the benchmark's PostgreSQL database; refuses any database not named for benchmarks. */
async function recreatePostgres(url: string) {
  const name = droppableBenchDatabase(url);
  const u = new URL(url);
  u.pathname = '/postgres';
  const admin = new pg.Client({ connectionString: u.toString() });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
}

async function countRows(sequelize: Sequelize): Promise<Record<string, number>> {
  const listSql =
    sequelize.getDialect() === 'postgres'
      ? "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'"
      : "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'";
  const tables = (await sequelize.query(listSql, { type: QueryTypes.SELECT })) as Array<{ name: string }>;
  const counts: Record<string, number> = {};
  for (const { name } of tables.sort((a, b) => a.name.localeCompare(b.name))) {
    const [row] = (await sequelize.query(`SELECT COUNT(*) AS n FROM "${name}"`, { type: QueryTypes.SELECT })) as Array<{
      n: number | string;
    }>;
    if (Number(row.n) > 0) counts[name] = Number(row.n);
  }
  return counts;
}

async function stillThere(target: DriverTarget): Promise<boolean> {
  if (target.dialect === 'sqlite') return fs.existsSync(target.file);
  const client = new pg.Client({ connectionString: target.url });
  try {
    await client.connect();
    const { rows } = await client.query<{ n: string }>("SELECT COUNT(*) AS n FROM users WHERE email LIKE 'bench-%@vigia.test'");
    return Number(rows[0].n) > 0;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * The large data set under bench/.data/, one folder per shape, built with seeds/large.ts. With
 * `reuse`, an existing one built with the same options by the same generator and migrations is
 * kept (the API's sign-ins of earlier runs stay in it, which changes no figure).
 */
export async function prepareDataset(rootDir: string, opts: DatasetOptions, reuse: boolean, log: (line: string) => void): Promise<Dataset> {
  const dir = path.join(rootDir, 'bench', '.data', folderName(opts));
  const manifestFile = path.join(dir, 'manifest.json');
  const target: DriverTarget =
    opts.dialect === 'sqlite'
      ? { dialect: 'sqlite', file: path.join(dir, 'vigia.sqlite') }
      : { dialect: 'postgres', url: opts.databaseUrl! };

  const source = sourceFingerprint(rootDir);
  if (reuse && fs.existsSync(manifestFile)) {
    const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as Manifest;
    if (sameOptions(manifest.options, opts) && manifest.source === source && (await stillThere(target))) {
      log(`Reutilizando el conjunto de datos de ${path.relative(rootDir, dir)}`);
      return { dir, target, manifest, reused: true };
    }
    log('El conjunto de datos guardado no corresponde a estas opciones o a este código: se construye de nuevo.');
  }

  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  if (opts.dialect === 'postgres') await recreatePostgres(opts.databaseUrl!);
  const sequelize = await openDatabase({ dataDir: dir, databaseUrl: opts.databaseUrl });
  let counts: Manifest['counts'];
  let buildSeconds: number;
  let sizeBytes: number;
  try {
    const seeded = await seedLarge(
      seedDeps,
      sequelize,
      {
        patients: opts.patients,
        clients: opts.clients,
        seed: opts.seed,
        measurementsPerPatient: opts.measurementsPerPatient,
        heavyReadings: opts.heavyReadings,
        now: new Date(opts.now),
      },
      (line) => log(`  ${line}`),
    );
    buildSeconds = seeded.seconds;
    await settleOrders(sequelize, new Date(opts.now), log);
    if (opts.dialect === 'postgres') {
      // A live database has been through autovacuum: visibility maps set (index-only scans) and
      // no autovacuum pass kicking in halfway through the measurements.
      const started = performance.now();
      await sequelize.query('VACUUM ANALYZE');
      log(`  VACUUM ANALYZE en ${((performance.now() - started) / 1000).toFixed(1)} s`);
    }
    counts = await countRows(sequelize);
    if (opts.dialect === 'postgres') {
      const [[row]] = (await sequelize.query('SELECT pg_database_size(current_database()) AS size')) as [Array<{ size: string }>, unknown];
      sizeBytes = Number(row.size);
    } else {
      sizeBytes = fs.statSync(path.join(dir, 'vigia.sqlite')).size;
    }
  } finally {
    await sequelize.close();
  }
  const manifest: Manifest = { options: opts, source, counts, sizeBytes, buildSeconds, builtAt: new Date().toISOString() };
  fs.writeFileSync(manifestFile, `${JSON.stringify(manifest, null, 2)}\n`);
  return { dir, target, manifest, reused: false };
}

/**
 * The product's order sweep (orders.lifecycle.ts) at the data set's instant, again until it finds
 * nothing more to do, as a live database's first minutes did long ago. The seed leaves every order's
 * stale check due (migration 0042's epoch) and the activities past their hour pending, so the first
 * run on a new data set did that backlog while it measured: on PostgreSQL 19,086 order UPDATEs after
 * the build's VACUUM, none of them HOT (they move the key of `orders_stale_check`), so the orders
 * list's count read the heap for each of its 22,016 rows (issue 52: 18.6 ms p95 against 15).
 * Alerts it raises for patients with no recent readings are the product's own; the jobs their hooks
 * queued are dropped (each run drops them anyway: forgetEarlierRuns).
 */
async function settleOrders(sequelize: Sequelize, now: Date, log: (line: string) => void) {
  const started = performance.now();
  const jobs = createJobRunner({ sequelize, now: () => now, log: () => undefined });
  const backlog = async () => {
    const [row] = await sequelize.query<{ orders: number | string; activities: number | string }>(
      `SELECT (SELECT count(*) FROM orders WHERE order_type = ${ORDER_TYPE.measurement} AND status = ${ORDER_STATUS.running}
                 AND stale_check_at <= :now AND stale_alerted_at IS NULL) AS orders,
              (SELECT count(*) FROM activities WHERE status IN (${PENDING_ACTIVITY_STATUSES.join(', ')}) AND programmed_at <= :now) AS activities`,
      { replacements: { now }, type: QueryTypes.SELECT },
    );
    return `${row.orders}/${row.activities}`;
  };
  let before = await backlog();
  let sweeps = 0;
  // A sweep takes up to 500 of each; one that leaves the backlog as it was has nothing left it can do
  // (orders of patients not under monitoring stay due, and are never read).
  while (sweeps < 2_000) {
    sweeps++;
    const errors = await runLifecycle({ sequelize, now, jobs, log: () => undefined });
    if (errors.length) throw errors[0] instanceof Error ? errors[0] : new Error(String(errors[0]));
    const after = await backlog();
    if (after === before) break;
    before = after;
  }
  const [{ alerts }] = await sequelize.query<{ alerts: number | string }>('SELECT count(*) AS alerts FROM alerts', {
    type: QueryTypes.SELECT,
  });
  await sequelize.query('DELETE FROM jobs');
  log(
    `  órdenes al día en ${sweeps} pasadas del ciclo (${((performance.now() - started) / 1000).toFixed(1)} s; pendientes órdenes/actividades ${before}; alertas ${alerts})`,
  );
}

/**
 * Removes the scheduled work earlier runs left in a reused data set. The seed writes no jobs, so
 * every row of `jobs` is a run's; and every run starts at the data set's instant (server.ts,
 * runClockAt), so a recurring slot an earlier run already did (the order sweep each minute, the
 * planner statistics) would be skipped and this run would do less work than the first one.
 */
export async function forgetEarlierRuns(driver: Driver): Promise<number> {
  const removed = await driver.all<{ id: number }>('DELETE FROM jobs RETURNING id');
  return removed.length;
}
