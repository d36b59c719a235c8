/**
 * Benchmark data: `npm run seed:large -- --patients 100000 --seed 42 [--measurements-per-patient 100]
 * [--clients 2] [--now 2026-11-21T12:00:00Z]`.
 * Creates clients 'Benchmark A', 'Benchmark B', ... each with an admin (bench-a@vigia.test, ...,
 * password Vigia@2026), the demo tags and N patients with their latest M measurements. Uses the
 * API's database settings (DATA_DIR / DATABASE_URL), migrates and syncs catalogues first.
 * The same seed and --now give the same rows.
 *
 * Speed comes from talking to the driver directly: multi-row INSERTs of 500 rows, prepared once
 * per shape and reused, one transaction per batch of patients.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import bcrypt from 'bcryptjs';
import { QueryTypes, type Sequelize } from 'sequelize';
import type { Database as SqliteDatabase, Statement as SqliteStatement } from 'sqlite3';
import { openDatabase } from '../api/src/db/database.js';
import { migrate } from '../api/src/db/migrate.js';
import { loadCatalogues, syncCatalogues } from './catalogues.js';
import { DEMO_CLINICAL_ELEMENTS, DEMO_PASSWORD, DEMO_PORTAL_PATIENT, syncIdSequences } from './demo.js';
import { buildDemoPatients, buildDemoReferences, buildRecentReadings, DEMO_TAGS, type DemoPatient, type DemoReferences } from './demo.rules.js';
import { createRng, type Rng } from './random.js';

const ROWS_PER_STATEMENT = 500;
/** Patients per transaction: big enough to amortise the commit, small enough to keep the WAL modest. */
const PATIENTS_PER_BATCH = 2_000;

type Value = string | number | null;

/** The few driver calls the loader needs, over SQLite or PostgreSQL. */
interface BulkWriter {
  exec(sql: string): Promise<void>;
  insert(table: string, columns: readonly string[], rows: Value[][]): Promise<void>;
  close(): Promise<void>;
}

function quote(identifier: string): string {
  return `"${identifier}"`;
}

function buildInsertSql(table: string, columns: readonly string[], rowCount: number, placeholder: (index: number) => string): string {
  const tuples: string[] = [];
  let index = 0;
  for (let row = 0; row < rowCount; row++) {
    const values = columns.map(() => placeholder(++index));
    tuples.push(`(${values.join(',')})`);
  }
  return `INSERT INTO ${quote(table)} (${columns.map(quote).join(',')}) VALUES ${tuples.join(',')}`;
}

async function createSqliteWriter(sequelize: Sequelize): Promise<BulkWriter> {
  // The default connection is the one openDatabase tuned (WAL, synchronous=NORMAL).
  const manager = (sequelize as unknown as { connectionManager: { getConnection(o: object): Promise<SqliteDatabase> } }).connectionManager;
  const db = await manager.getConnection({ uuid: 'default' });
  const statements = new Map<string, SqliteStatement>();
  const exec = (sql: string) => new Promise<void>((resolve, reject) => db.exec(sql, (err) => (err ? reject(err) : resolve())));
  await exec('PRAGMA cache_size = -131072; PRAGMA temp_store = MEMORY;');
  return {
    exec,
    async insert(table, columns, rows) {
      for (let start = 0; start < rows.length; start += ROWS_PER_STATEMENT) {
        const chunk = rows.slice(start, start + ROWS_PER_STATEMENT);
        const key = `${table}|${columns.join(',')}|${chunk.length}`;
        let statement = statements.get(key);
        if (!statement) {
          statement = db.prepare(buildInsertSql(table, columns, chunk.length, () => '?'));
          statements.set(key, statement);
        }
        const params = chunk.flat();
        await new Promise<void>((resolve, reject) => statement!.run(params, (err) => (err ? reject(err) : resolve())));
      }
    },
    async close() {
      for (const statement of statements.values()) await new Promise<void>((resolve) => statement.finalize(() => resolve()));
    },
  };
}

interface PgClient { query(config: { name?: string; text: string; values?: unknown[] }): Promise<unknown> }

async function createPostgresWriter(sequelize: Sequelize): Promise<BulkWriter> {
  const manager = (sequelize as unknown as {
    connectionManager: { getConnection(o?: object): Promise<PgClient>; releaseConnection(c: PgClient): Promise<void> };
  }).connectionManager;
  const client = await manager.getConnection();
  const names = new Map<string, string>();
  return {
    async exec(sql) { await client.query({ text: sql }); },
    async insert(table, columns, rows) {
      for (let start = 0; start < rows.length; start += ROWS_PER_STATEMENT) {
        const chunk = rows.slice(start, start + ROWS_PER_STATEMENT);
        const key = `${table}|${columns.join(',')}|${chunk.length}`;
        let name = names.get(key);
        if (!name) {
          name = `bench_${names.size + 1}`;
          names.set(key, name);
        }
        // A named query is parsed and planned once per connection, then only executed.
        await client.query({ name, text: buildInsertSql(table, columns, chunk.length, (i) => `$${i}`), values: chunk.flat() });
      }
    },
    async close() { await manager.releaseConnection(client); },
  };
}

/** The text Sequelize itself writes for a DATE, so rows read back the same as API-written ones. */
export function formatTimestamp(date: Date): string {
  const iso = date.toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 23)} +00:00`;
}

interface LargeOptions { patients: number; seed: number; measurementsPerPatient: number; clients: number; now: Date }

function readOptions(argv: string[]): LargeOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      patients: { type: 'string', default: '1000' },
      seed: { type: 'string', default: '42' },
      'measurements-per-patient': { type: 'string', default: '100' },
      clients: { type: 'string', default: '2' },
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
    now,
  };
}

const PATIENT_COLUMNS = ['id', 'client_id', 'id_type', 'nid', 'first_name', 'last_name', 'search_name', 'country_id', 'city_id',
  'birth_date', 'gender', 'blood_type', 'rh_factor', 'eapb_id', 'regime', 'status', 'time_zone', 'clinic_history', 'address',
  'neighborhood', 'prefix', 'cellphone', 'email', 'occupation', 'scholarship', 'civil_status', 'deceased_at', 'created_at',
  'updated_at'] as const;
const MEASUREMENT_COLUMNS = ['client_id', 'patient_id', 'clinical_element', 'value', 'when', 'status', 'eraseble', 'source', 'created_at'] as const;

function toPatientValues(id: number, clientId: number, patient: DemoPatient): Value[] {
  const row = patient.row;
  return [id, clientId, row.id_type, row.nid, row.first_name, row.last_name, row.search_name, row.country_id, row.city_id,
    row.birth_date, row.gender, row.blood_type, row.rh_factor, row.eapb_id, row.regime, row.status, row.time_zone,
    row.clinic_history, row.address, row.neighborhood, row.prefix, row.cellphone, row.email, row.occupation, row.scholarship,
    row.civil_status, row.deceased_at ? formatTimestamp(row.deceased_at) : null, formatTimestamp(row.created_at),
    formatTimestamp(row.updated_at)];
}

interface BatchResult { patients: number; measurements: number; patientTags: number }

/**
 * TODO(alerts, orders): once the alarms, alerts, orders and activities tables exist, generate
 * their rows here from the same batch: alarm rules per client (once), orders per patient from
 * their profile's elements, activities from the shared generator (DECISIONS D12) and alerts
 * from the readings outside the assigned ranges (D10), with the batch's rng for determinism.
 */
async function insertDerivedRows(_writer: BulkWriter, _rng: Rng, _batch: Array<{ id: number; patient: DemoPatient }>): Promise<number> {
  return 0;
}

async function insertPatientBatch(
  writer: BulkWriter, rng: Rng, opts: LargeOptions, refs: DemoReferences, ctx: { clientId: number; firstId: number; count: number; usedNids: Set<string>; tagIds: Map<string, number>; trueValue: Value },
): Promise<BatchResult> {
  const patients = buildDemoPatients(rng, ctx.count, { refs, now: opts.now, usedNids: ctx.usedNids });
  const patientRows: Value[][] = [];
  const tagRows: Value[][] = [];
  const measurementRows: Value[][] = [];
  const batch = patients.map((patient, index) => ({ id: ctx.firstId + index, patient }));
  for (const { id, patient } of batch) {
    patientRows.push(toPatientValues(id, ctx.clientId, patient));
    for (const name of patient.tags) tagRows.push([id, ctx.tagIds.get(name)!]);
    for (const m of buildRecentReadings(rng, patient, opts.measurementsPerPatient, opts.now, refs)) {
      measurementRows.push([ctx.clientId, id, m.clinical_element, m.value, formatTimestamp(m.when), 0, ctx.trueValue, 'device',
        formatTimestamp(new Date(m.when.getTime() + 30_000))]);
    }
  }
  await writer.exec('BEGIN');
  try {
    await writer.insert('patients', PATIENT_COLUMNS, patientRows);
    await writer.insert('patient_tags', ['patient_id', 'tag_id'], tagRows);
    await writer.insert('measurements', MEASUREMENT_COLUMNS, measurementRows);
    await insertDerivedRows(writer, rng, batch);
    await writer.exec('COMMIT');
  } catch (err) {
    await writer.exec('ROLLBACK');
    throw err;
  }
  return { patients: patientRows.length, measurements: measurementRows.length, patientTags: tagRows.length };
}

async function readMaxId(sequelize: Sequelize, table: string): Promise<number> {
  const [row] = await sequelize.query<{ max: number | null }>(`SELECT MAX(id) AS max FROM ${quote(table)}`, { type: QueryTypes.SELECT });
  return Number(row?.max ?? 0);
}

function formatCount(n: number): string {
  return Math.round(n).toLocaleString('es-CO');
}

export async function seedLarge(sequelize: Sequelize, opts: LargeOptions, log: (line: string) => void = console.log) {
  const postgres = sequelize.getDialect() === 'postgres';
  await migrate(sequelize);
  await syncCatalogues(sequelize.getQueryInterface());
  const letters = Array.from({ length: opts.clients }, (_, i) => String.fromCharCode(65 + i));
  const emails = letters.map((letter) => `bench-${letter.toLowerCase()}@vigia.test`);
  const [existing] = await sequelize.query<{ n: number }>(
    'SELECT COUNT(*) AS n FROM users WHERE email IN (:emails)', { type: QueryTypes.SELECT, replacements: { emails } },
  );
  if (Number(existing?.n) > 0) {
    throw new Error('Ya hay datos de benchmark en esta base (bench-*@vigia.test). Use otra DATA_DIR o DATABASE_URL, o borre la base.');
  }

  const refs = buildDemoReferences(loadCatalogues());
  const rng = createRng(opts.seed);
  const passwordHash = await bcrypt.hash(DEMO_PASSWORD, 10);
  const writer = postgres ? await createPostgresWriter(sequelize) : await createSqliteWriter(sequelize);
  const trueValue: Value = postgres ? 'true' : 1;
  const nowText = formatTimestamp(opts.now);
  let clientId = await readMaxId(sequelize, 'clients');
  let userId = await readMaxId(sequelize, 'users');
  let tagId = await readMaxId(sequelize, 'tags');
  let patientId = await readMaxId(sequelize, 'patients');
  const started = performance.now();
  const totals = { patients: 0, measurements: 0, patientTags: 0 };
  let lastReport = 0;

  try {
    for (const [index, letter] of letters.entries()) {
      const name = `Benchmark ${letter}`;
      const id = ++clientId;
      // Each client draws from its own stream, so client B's rows do not depend on client A's size.
      const clientRng = rng.fork();
      const city = refs.cities[0];
      await writer.exec('BEGIN');
      await writer.insert('clients', ['id', 'name', 'country_id', 'time_zone', 'clinical_elements', 'multipatient', 'otp_length', 'created_at', 'updated_at'],
        [[id, name, refs.countryId, refs.timeZone, JSON.stringify(DEMO_CLINICAL_ELEMENTS), postgres ? 'false' : 0, 4, nowText, nowText]]);
      await writer.insert('users', ['id', 'client_id', 'email', 'password_hash', 'first_name', 'last_name', 'role_name', 'status', 'prefix', 'cellphone',
        'country_id', 'city_id', 'time_zone', 'created_at', 'updated_at'],
      [[++userId, id, emails[index], passwordHash, 'ADMINISTRADOR', `BENCHMARK ${letter}`, 'admin', 0, refs.prefix, `31000000${String(index).padStart(2, '0')}`,
        refs.countryId, city.id, refs.timeZone, nowText, nowText]]);
      const tagIds = new Map<string, number>();
      await writer.insert('tags', ['id', 'client_id', 'name', 'color', 'created_at', 'updated_at'], DEMO_TAGS.map((tag) => {
        tagIds.set(tag.name, ++tagId);
        return [tagId, id, tag.name, tag.color, nowText, nowText];
      }));
      await writer.exec('COMMIT');

      const usedNids = new Set<string>([DEMO_PORTAL_PATIENT.nid]);
      for (let done = 0; done < opts.patients;) {
        const count = Math.min(PATIENTS_PER_BATCH, opts.patients - done);
        const result = await insertPatientBatch(writer, clientRng, opts, refs, { clientId: id, firstId: patientId + 1, count, usedNids, tagIds, trueValue });
        patientId += count;
        done += count;
        totals.patients += result.patients;
        totals.measurements += result.measurements;
        totals.patientTags += result.patientTags;
        const elapsed = (performance.now() - started) / 1000;
        if (elapsed - lastReport >= 2 || done === opts.patients) {
          lastReport = elapsed;
          const rows = totals.patients + totals.measurements + totals.patientTags;
          log(`${name}: ${formatCount(done)}/${formatCount(opts.patients)} pacientes · ${formatCount(totals.measurements)} mediciones en total · ${formatCount(rows / elapsed)} filas/s`);
        }
      }
    }
  } finally {
    await writer.close();
  }
  await syncIdSequences(sequelize.getQueryInterface(), ['clients', 'users', 'tags', 'patients']);
  // Fresh statistics, so the benchmarks see the plans production would.
  if (postgres) await sequelize.query('ANALYZE');
  else {
    await sequelize.query('PRAGMA analysis_limit = 1000');
    await sequelize.query('ANALYZE');
    await sequelize.query('PRAGMA wal_checkpoint(TRUNCATE)');
  }
  const seconds = (performance.now() - started) / 1000;
  const rows = totals.patients + totals.measurements + totals.patientTags;
  log(`Listo en ${seconds.toFixed(1)} s: ${formatCount(totals.patients)} pacientes, ${formatCount(totals.measurements)} mediciones, ${formatCount(rows)} filas (${formatCount(rows / seconds)} filas/s).`);
  log(`Usuarios: ${emails.join(', ')} (contraseña ${DEMO_PASSWORD}).`);
  return { ...totals, seconds };
}

async function main() {
  const opts = readOptions(process.argv.slice(2));
  const databaseUrl = process.env.DATABASE_URL || null;
  const dataDir = path.resolve(process.env.DATA_DIR ?? 'data');
  const sequelize = await openDatabase({ dataDir, databaseUrl });
  console.log(`Base de datos: ${databaseUrl ? 'PostgreSQL' : path.join(dataDir, 'vigia.sqlite')} · semilla ${opts.seed} · ${formatCount(opts.patients)} pacientes × ${opts.clients} clientes · ${opts.measurementsPerPatient} mediciones por paciente`);
  try {
    await seedLarge(sequelize, opts);
  } finally {
    await sequelize.close();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((err) => {
    console.error(`[seed:large] ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  });
}
