/**
 * Benchmark data: `npm run seed:large -- --patients 100000 --seed 42 [--measurements-per-patient 100]
 * [--clients 2] [--alerts-per-patient 5] [--orders-per-patient 1] [--activities-per-order 7]
 * [--now 2026-11-21T12:00:00Z]`.
 * Creates clients 'Benchmark A', 'Benchmark B', ... each with an admin (bench-a@vigia.test, ...,
 * password Vigia@2026), the demo tags, one alarm rule per clinical element and N patients with
 * their latest M measurements, their alarm assignments, alerts, orders and activities
 * (seeds/large.derived.ts). Issue 7's size: --patients 100000 --measurements-per-patient 50. Uses the
 * API's database settings (DATA_DIR / DATABASE_URL), migrates and syncs catalogues first. The command
 * line is scripts/seed-large.ts, which hands this loader the API's deps (seeds import no API code).
 * The same seed and --now give the same rows.
 *
 * Speed comes from talking to the driver directly: multi-row INSERTs of literal values, one
 * transaction (one driver call) per batch of patients, and building batch k + 1 while the driver
 * writes batch k. About 70,000 rows/s on SQLite on two cores (100,000 patients and 9.8 million
 * measurements in 2.5 minutes), 34,000 rows/s on a stock local PostgreSQL.
 */
import { parseArgs } from 'node:util';
import { QueryTypes, type Sequelize } from 'sequelize';
import type { Database as SqliteDatabase } from 'sqlite3';
import { DEMO_PASSWORD, DEMO_PORTAL_PATIENT, syncIdSequences } from './demo.js';
import {
  buildDemoPatients,
  buildDemoReferences,
  buildRecentReadings,
  DEMO_TAGS,
  type DemoPatient,
  type DemoReferences,
} from './demo.rules.js';
import { createRng, type Rng } from './random.js';
import type { SeedDeps } from '../api/src/seed-deps.js';
import { alarmInserts, buildAlarms, buildDerivedRows, derivedStatements, type BenchAlarm, type DerivedOptions } from './large.derived.js';

/**
 * Rows per INSERT. Values are written as SQL literals rather than bound: node-sqlite3 copies
 * bound parameters one by one, which halves throughput, and literals have no variable limit.
 * Every value is generated here (numbers, fixed texts, names from our own lists) and still escaped.
 */
const ROWS_PER_STATEMENT = 1_000;
/** Patients per transaction: big enough to amortise the commit, small enough to keep the WAL modest. */
const PATIENTS_PER_BATCH = 2_000;

type Value = string | number | boolean | null;

/** The one driver call the loader needs, over SQLite or PostgreSQL, on a single connection. */
interface BulkWriter {
  exec(sql: string): Promise<void>;
  close(): Promise<void>;
}

function quote(identifier: string): string {
  return `"${identifier}"`;
}

/** SQLite (3.23+) and PostgreSQL both read TRUE/FALSE and standard '' escaping. */
function toSqlLiteral(value: Value): string {
  if (value === null) return 'NULL';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`valor numérico inválido: ${value}`);
    return String(value);
  }
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  return `'${value.replace(/'/g, "''")}'`;
}

async function createSqliteWriter(sequelize: Sequelize): Promise<BulkWriter> {
  // The default connection is the one openDatabase tuned (WAL, synchronous=NORMAL).
  const manager = (sequelize as unknown as { connectionManager: { getConnection(o: object): Promise<SqliteDatabase> } }).connectionManager;
  const db = await manager.getConnection({ uuid: 'default' });
  const exec = (sql: string) => new Promise<void>((resolve, reject) => db.exec(sql, (err) => (err ? reject(err) : resolve())));
  // A 1 GB page cache keeps the measurements indexes in memory while they grow: with the default
  // the (client_id, when) index, which takes random inserts, falls out of cache and halves speed.
  await exec('PRAGMA cache_size = -1048576; PRAGMA temp_store = MEMORY;');
  return { exec, close: async () => {} };
}

interface PgClient {
  query(text: string): Promise<unknown>;
}

async function createPostgresWriter(sequelize: Sequelize): Promise<BulkWriter> {
  const manager = (
    sequelize as unknown as {
      connectionManager: { getConnection(o?: object): Promise<PgClient>; releaseConnection(c: PgClient): Promise<void> };
    }
  ).connectionManager;
  const client = await manager.getConnection();
  return {
    async exec(sql) {
      await client.query(sql);
    },
    async close() {
      await manager.releaseConnection(client);
    },
  };
}

const dayPrefixes = new Map<number, string>();

function pad(n: number, width: number): string {
  return String(n).padStart(width, '0');
}

/**
 * The text Sequelize itself writes for a DATE ('2026-11-21 15:04:05.000 +00:00'), so rows read
 * back the same as API-written ones. Hand-rolled: toISOString was the loader's top cost.
 */
export function formatTimestamp(date: Date): string {
  const ms = date.getTime();
  const day = Math.floor(ms / 86_400_000);
  let prefix = dayPrefixes.get(day);
  if (prefix === undefined) {
    prefix = `${date.toISOString().slice(0, 10)} `;
    dayPrefixes.set(day, prefix);
  }
  let rest = ms - day * 86_400_000;
  const hours = Math.floor(rest / 3_600_000);
  rest -= hours * 3_600_000;
  const minutes = Math.floor(rest / 60_000);
  rest -= minutes * 60_000;
  const seconds = Math.floor(rest / 1000);
  return `${prefix}${pad(hours, 2)}:${pad(minutes, 2)}:${pad(seconds, 2)}.${pad(rest - seconds * 1000, 3)} +00:00`;
}

export interface LargeOptions extends Partial<DerivedOptions> {
  patients: number;
  seed: number;
  measurementsPerPatient: number;
  clients: number;
  now: Date;
  /** Readings over the last year for each client's first active patient (the CSV export's year). */
  heavyReadings?: number;
}

/** Default size of the year-long series of each client's first active patient: one heart rate every ~5 minutes. */
export const HEAVY_READINGS_DEFAULT = 100_000;

/** Defaults of the derived rows: 100,000 × 2 patients give about 1 million alerts, 200,000 orders, 1.4 million activities. */
export const DERIVED_DEFAULTS: DerivedOptions = { alertsPerPatient: 5, ordersPerPatient: 1, activitiesPerOrder: 7 };

/** The command line of `npm run seed:large` (scripts/seed-large.ts runs it). */
export function readOptions(argv: string[]): LargeOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      patients: { type: 'string', default: '1000' },
      seed: { type: 'string', default: '42' },
      'measurements-per-patient': { type: 'string', default: '100' },
      clients: { type: 'string', default: '2' },
      'heavy-readings': { type: 'string', default: String(HEAVY_READINGS_DEFAULT) },
      'alerts-per-patient': { type: 'string', default: String(DERIVED_DEFAULTS.alertsPerPatient) },
      'orders-per-patient': { type: 'string', default: String(DERIVED_DEFAULTS.ordersPerPatient) },
      'activities-per-order': { type: 'string', default: String(DERIVED_DEFAULTS.activitiesPerOrder) },
      now: { type: 'string' },
    },
    strict: true,
  });
  const toInt = (name: string, raw: string | undefined, min: number) => {
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min) throw new Error(`--${name} debe ser un entero >= ${min}`);
    return n;
  };
  const now = values.now ? new Date(values.now) : new Date();
  if (Number.isNaN(now.getTime())) throw new Error('--now debe ser una fecha ISO 8601');
  return {
    patients: toInt('patients', values.patients, 1),
    seed: toInt('seed', values.seed, 0),
    measurementsPerPatient: toInt('measurements-per-patient', values['measurements-per-patient'], 0),
    clients: Math.min(26, toInt('clients', values.clients, 1)),
    heavyReadings: toInt('heavy-readings', values['heavy-readings'], 0),
    alertsPerPatient: toInt('alerts-per-patient', values['alerts-per-patient'], 0),
    ordersPerPatient: toInt('orders-per-patient', values['orders-per-patient'], 0),
    activitiesPerOrder: toInt('activities-per-order', values['activities-per-order'], 1),
    now,
  };
}

const PATIENT_COLUMNS = [
  'id',
  'client_id',
  'id_type',
  'nid',
  'first_name',
  'last_name',
  'search_name',
  'country_id',
  'city_id',
  'birth_date',
  'gender',
  'blood_type',
  'rh_factor',
  'eapb_id',
  'regime',
  'status',
  'time_zone',
  'clinic_history',
  'address',
  'neighborhood',
  'prefix',
  'cellphone',
  'email',
  'occupation',
  'scholarship',
  'civil_status',
  'deceased_at',
  'created_at',
  'updated_at',
] as const;
const MEASUREMENT_COLUMNS = [
  'client_id',
  'patient_id',
  'clinical_element',
  'value',
  'when',
  'status',
  'eraseble',
  'source',
  'created_at',
] as const;

function toPatientValues(id: number, clientId: number, patient: DemoPatient): Value[] {
  const row = patient.row;
  return [
    id,
    clientId,
    row.id_type,
    row.nid,
    row.first_name,
    row.last_name,
    row.search_name,
    row.country_id,
    row.city_id,
    row.birth_date,
    row.gender,
    row.blood_type,
    row.rh_factor,
    row.eapb_id,
    row.regime,
    row.status,
    row.time_zone,
    row.clinic_history,
    row.address,
    row.neighborhood,
    row.prefix,
    row.cellphone,
    row.email,
    row.occupation,
    row.scholarship,
    row.civil_status,
    row.deceased_at ? formatTimestamp(row.deceased_at) : null,
    formatTimestamp(row.created_at),
    formatTimestamp(row.updated_at),
  ];
}

interface Batch {
  statements: string[];
  patients: number;
  measurements: number;
  patientTags: number;
  derived: Record<string, number>;
}

interface DerivedBatchContext {
  adminUserId: number;
  alarms: Map<number, BenchAlarm>;
  nextOrderId: () => number;
}

/**
 * A year of heart rates, evenly spaced, for the batch's first active patient (the benchmark finds
 * it again as the client's first active patient by id): what one patient's device sends in a year,
 * for the CSV export and the longest chart series.
 */
function buildHeavySeries(rng: Rng, clientId: number, batch: Array<{ id: number; patient: DemoPatient }>, opts: LargeOptions): string[] {
  const n = opts.heavyReadings ?? HEAVY_READINGS_DEFAULT;
  const target = batch.find((b) => b.patient.row.status === 1);
  if (!target || n <= 0) return [];
  const end = opts.now.getTime();
  const step = Math.floor((365 * 86_400_000) / n);
  const out: string[] = [];
  for (let k = 0; k < n; k++) {
    const when = new Date(end - 365 * 86_400_000 + k * step + 60_000);
    const value = Math.round(rng.normal(74, 9));
    out.push(
      `(${clientId},${target.id},1,${Math.min(180, Math.max(40, value))},'${formatTimestamp(when)}',0,TRUE,'device','${formatTimestamp(when)}')`,
    );
  }
  return out;
}

function definedOnly(o: LargeOptions): Partial<DerivedOptions> {
  const out: Partial<DerivedOptions> = {};
  if (o.alertsPerPatient != null) out.alertsPerPatient = o.alertsPerPatient;
  if (o.ordersPerPatient != null) out.ordersPerPatient = o.ordersPerPatient;
  if (o.activitiesPerOrder != null) out.activitiesPerOrder = o.activitiesPerOrder;
  return out;
}

function buildInsertStatements(table: string, columns: readonly string[], rows: Value[][]): string[] {
  const head = `INSERT INTO ${quote(table)} (${columns.map(quote).join(',')}) VALUES `;
  const statements: string[] = [];
  for (let start = 0; start < rows.length; start += ROWS_PER_STATEMENT) {
    const tuples: string[] = [];
    for (const row of rows.slice(start, start + ROWS_PER_STATEMENT)) tuples.push(`(${row.map(toSqlLiteral).join(',')})`);
    statements.push(head + tuples.join(','));
  }
  return statements;
}

/** Generates one batch of patients with their tags and readings, as ready-to-run SQL. */
function buildPatientBatch(
  rng: Rng,
  opts: LargeOptions,
  refs: DemoReferences,
  ctx: {
    clientId: number;
    firstId: number;
    count: number;
    usedNids: Set<string>;
    tagIds: Map<string, number>;
    derived: DerivedBatchContext;
    heavy: boolean;
    searchTerms: SeedDeps['searchTerms'];
  },
): Batch {
  const patients = buildDemoPatients(rng, ctx.count, { refs, now: opts.now, usedNids: ctx.usedNids });
  const patientRows: Value[][] = [];
  const tagRows: Value[][] = [];
  const termRows: Value[][] = [];
  // Measurements are most of the volume: their tuples are written straight to text, all values
  // being numbers or timestamps made here.
  const measurementTuples: string[] = [];
  const batch = patients.map((patient, index) => ({ id: ctx.firstId + index, patient }));
  for (const { id, patient } of batch) {
    patientRows.push(toPatientValues(id, ctx.clientId, patient));
    for (const name of patient.tags) tagRows.push([id, ctx.tagIds.get(name)!]);
    for (const term of ctx.searchTerms(patient.row.search_name)) termRows.push([ctx.clientId, term, id]);
    const lead = `(${ctx.clientId},${id},`;
    for (const m of buildRecentReadings(rng, patient, opts.measurementsPerPatient, opts.now, refs)) {
      const received = new Date(Math.min(opts.now.getTime(), m.when.getTime() + 30_000));
      measurementTuples.push(
        `${lead}${m.clinical_element},${toSqlLiteral(m.value)},'${formatTimestamp(m.when)}',0,TRUE,'device','${formatTimestamp(received)}')`,
      );
    }
  }
  if (ctx.heavy) measurementTuples.push(...buildHeavySeries(rng.fork(), ctx.clientId, batch, opts));
  const measurementHead = `INSERT INTO ${quote('measurements')} (${MEASUREMENT_COLUMNS.map(quote).join(',')}) VALUES `;
  const measurementStatements: string[] = [];
  for (let start = 0; start < measurementTuples.length; start += ROWS_PER_STATEMENT) {
    measurementStatements.push(measurementHead + measurementTuples.slice(start, start + ROWS_PER_STATEMENT).join(','));
  }
  // Alarm assignments, alerts, orders and activities draw from a stream of their own: their
  // flags change them, not the patients and readings of the next batches.
  const derived = buildDerivedRows(
    rng.fork(),
    batch,
    {
      clientId: ctx.clientId,
      adminUserId: ctx.derived.adminUserId,
      now: opts.now,
      alarms: ctx.derived.alarms,
      nextOrderId: ctx.derived.nextOrderId,
      fmt: formatTimestamp,
    },
    { ...DERIVED_DEFAULTS, ...definedOnly(opts) },
  );
  return {
    statements: [
      ...buildInsertStatements('patients', PATIENT_COLUMNS, patientRows),
      ...buildInsertStatements('patient_tags', ['patient_id', 'tag_id'], tagRows),
      ...buildInsertStatements('patient_search_terms', ['client_id', 'term', 'patient_id'], termRows),
      ...measurementStatements,
      ...derivedStatements(derived, ROWS_PER_STATEMENT),
    ],
    patients: patientRows.length,
    measurements: measurementTuples.length,
    patientTags: tagRows.length,
    derived: Object.fromEntries(Object.entries(derived).map(([k, v]) => [k, v.length])),
  };
}

/**
 * One driver call per transaction: the driver then runs the whole script on its own thread (or
 * the server does), so this thread is free to build the next batch meanwhile.
 */
async function runInTransaction(writer: BulkWriter, statements: string[]) {
  try {
    await writer.exec(`BEGIN;\n${statements.join(';\n')};\nCOMMIT;`);
  } catch (err) {
    await writer.exec('ROLLBACK').catch(() => {});
    throw err;
  }
}

async function readMaxId(sequelize: Sequelize, table: string): Promise<number> {
  const [row] = await sequelize.query<{ max: number | null }>(`SELECT MAX(id) AS max FROM ${quote(table)}`, { type: QueryTypes.SELECT });
  return Number(row?.max ?? 0);
}

export function formatCount(n: number): string {
  return Math.round(n).toLocaleString('es-CO');
}

/** `deps` is what the API hands the seeders (api/src/seed-deps.ts). */
export async function seedLarge(deps: SeedDeps, sequelize: Sequelize, opts: LargeOptions, log: (line: string) => void = console.log) {
  const postgres = sequelize.getDialect() === 'postgres';
  await deps.migrate(sequelize);
  await deps.syncCatalogues(sequelize.getQueryInterface());
  const letters = Array.from({ length: opts.clients }, (_, i) => String.fromCharCode(65 + i));
  const emails = letters.map((letter) => `bench-${letter.toLowerCase()}@vigia.test`);
  const [existing] = await sequelize.query<{ n: number }>('SELECT COUNT(*) AS n FROM users WHERE email IN (:emails)', {
    type: QueryTypes.SELECT,
    replacements: { emails },
  });
  if (Number(existing?.n) > 0) {
    throw new Error('Ya hay datos de benchmark en esta base (bench-*@vigia.test). Use otra DATA_DIR o DATABASE_URL, o borre la base.');
  }

  const refs = buildDemoReferences(deps.loadCatalogues());
  const rng = createRng(opts.seed);
  const passwordHash = await deps.hashPassword(DEMO_PASSWORD);
  const writer = postgres ? await createPostgresWriter(sequelize) : await createSqliteWriter(sequelize);
  const nowText = formatTimestamp(opts.now);
  let clientId = await readMaxId(sequelize, 'clients');
  let userId = await readMaxId(sequelize, 'users');
  let tagId = await readMaxId(sequelize, 'tags');
  let patientId = await readMaxId(sequelize, 'patients');
  let alarmId = await readMaxId(sequelize, 'alarms');
  let orderId = await readMaxId(sequelize, 'orders');
  const started = performance.now();
  const totals = { patients: 0, measurements: 0, patientTags: 0, patientAlarms: 0, alerts: 0, orders: 0, activities: 0 };
  let lastReport = 0;

  try {
    for (const [index, letter] of letters.entries()) {
      const name = `Benchmark ${letter}`;
      const id = ++clientId;
      // Each client draws from its own stream, so client B's rows do not depend on client A's size.
      const clientRng = rng.fork();
      const city = refs.cities[0];
      const tagIds = new Map<string, number>();
      const adminUserId = userId + 1;
      const alarms = buildAlarms(alarmId + 1);
      alarmId += alarms.length;
      const derivedCtx: DerivedBatchContext = {
        adminUserId,
        alarms: new Map(alarms.map((a) => [a.element, a])),
        nextOrderId: () => ++orderId,
      };
      await runInTransaction(writer, [
        ...buildInsertStatements(
          'clients',
          ['id', 'name', 'country_id', 'time_zone', 'clinical_elements', 'multipatient', 'created_at', 'updated_at'],
          [[id, name, refs.countryId, refs.timeZone, JSON.stringify(deps.defaultClinicalElements), false, nowText, nowText]],
        ),
        ...buildInsertStatements(
          'users',
          [
            'id',
            'client_id',
            'email',
            'password_hash',
            'first_name',
            'last_name',
            'role_name',
            'status',
            'prefix',
            'cellphone',
            'country_id',
            'city_id',
            'time_zone',
            'created_at',
            'updated_at',
          ],
          [
            [
              ++userId,
              id,
              emails[index],
              passwordHash,
              'ADMINISTRADOR',
              `BENCHMARK ${letter}`,
              'admin',
              0,
              refs.prefix,
              `31000000${String(index).padStart(2, '0')}`,
              refs.countryId,
              city.id,
              refs.timeZone,
              nowText,
              nowText,
            ],
          ],
        ),
        ...buildInsertStatements(
          'tags',
          ['id', 'client_id', 'name', 'color', 'created_at', 'updated_at'],
          DEMO_TAGS.map((tag) => {
            tagIds.set(tag.name, ++tagId);
            return [tagId, id, tag.name, tag.color, nowText, nowText];
          }),
        ),
        alarmInserts(id, alarms, nowText),
      ]);

      const usedNids = new Set<string>([DEMO_PORTAL_PATIENT.nid]);
      // The driver writes batch k on its own thread while this one generates batch k + 1.
      let writing: Promise<void> = Promise.resolve();
      let done = 0;
      const report = () => {
        const elapsed = (performance.now() - started) / 1000;
        if (elapsed - lastReport < 2 && done < opts.patients) return;
        lastReport = elapsed;
        const rows = Object.values(totals).reduce((a, b) => a + b, 0);
        log(
          `${name}: ${formatCount(done)}/${formatCount(opts.patients)} pacientes · ${formatCount(totals.measurements)} mediciones en total · ${formatCount(rows / elapsed)} filas/s`,
        );
      };
      for (let built = 0; built < opts.patients;) {
        const count = Math.min(PATIENTS_PER_BATCH, opts.patients - built);
        const batch = buildPatientBatch(clientRng, opts, refs, {
          clientId: id,
          firstId: patientId + 1,
          count,
          usedNids,
          tagIds,
          derived: derivedCtx,
          heavy: built === 0,
          searchTerms: deps.searchTerms,
        });
        patientId += count;
        built += count;
        await writing;
        writing = runInTransaction(writer, batch.statements).then(() => {
          done += count;
          totals.patients += batch.patients;
          totals.measurements += batch.measurements;
          totals.patientTags += batch.patientTags;
          for (const [k, n] of Object.entries(batch.derived)) totals[k as keyof typeof totals] += n;
          report();
        });
      }
      await writing;
    }
  } finally {
    await writer.close();
  }
  await syncIdSequences(sequelize.getQueryInterface(), ['clients', 'users', 'tags', 'patients', 'alarms', 'orders']);
  // Fresh statistics, so the benchmarks see the plans production would.
  if (postgres) await sequelize.query('ANALYZE');
  else {
    await sequelize.query('PRAGMA analysis_limit = 1000');
    await sequelize.query('ANALYZE');
    await sequelize.query('PRAGMA wal_checkpoint(TRUNCATE)');
  }
  const seconds = (performance.now() - started) / 1000;
  const rows = Object.values(totals).reduce((a, b) => a + b, 0);
  log(
    `Listo en ${seconds.toFixed(1)} s: ${formatCount(totals.patients)} pacientes, ${formatCount(totals.measurements)} mediciones, ${formatCount(totals.alerts)} alertas, ${formatCount(totals.orders)} órdenes, ${formatCount(totals.activities)} actividades, ${formatCount(rows)} filas (${formatCount(rows / seconds)} filas/s).`,
  );
  log(`Usuarios: ${emails.join(', ')} (contraseña ${DEMO_PASSWORD}).`);
  return { ...totals, seconds };
}
