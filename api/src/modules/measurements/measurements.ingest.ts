import type { Sequelize } from 'sequelize';
import type { JobRunner } from '../../jobs/queue.js';
import { GroupCommit, type GroupCommitOptions } from '../../db/group-commit.js';
import { perDatabase } from '../../db/per-database.js';
import { insertReturning, Positional, sqliteDate, writeTransaction } from '../../db/sql.js';
import { AppError, conflict } from '../../http/errors.js';
import { PATIENT_STATUS } from '@vigia/contract/rules/access';
import { parseReading, type ReadingInput } from '@vigia/contract/rules/vitals';
import { applyMeasurementHooks, loadMeasurementHooks, type MeasurementSource, type StoredMeasurement } from './hooks.js';

/**
 * The one way a reading is stored, whatever sent it (staff, device, assistant, portal): the
 * vitals rules, the patient's status, one multi-row INSERT and the measurement hooks (alarms,
 * activities, webhooks), all in one transaction. Raw SQL, no ORM per row: this is the hot path.
 */

export interface IngestDeps {
  sequelize: Sequelize;
  jobs: JobRunner;
  now: () => Date;
}

export interface IngestPatient {
  id: number;
  status: number;
}

export interface IngestItem {
  patient: IngestPatient;
  input: ReadingInput;
  /** The device's own id of the reading: a retried batch is stored once. */
  readingId?: string | null;
  /** Where this reading sits in the request body, for error fields ('measurements.3.'). */
  fieldPrefix?: string;
}

export interface IngestRequest {
  clientId: number;
  source: MeasurementSource;
  /** The request sent a list (a batch endpoint, an array body), even of one reading; default one reading. */
  batch?: boolean;
  items: IngestItem[];
  createdBy?: number | null;
  deviceId?: number | null;
}

export interface IngestResult {
  stored: StoredMeasurement[];
  /** Readings (not rows) skipped because their reading id was stored before. */
  duplicates: number;
}

const PATIENT_STATUS_REFUSALS: Record<number, string> = {
  [PATIENT_STATUS.inactive]: 'El paciente está inactivo y no puede enviar mediciones. Actívelo para registrarlas.',
  [PATIENT_STATUS.deceased]: 'El paciente está registrado como fallecido y no puede recibir mediciones.',
};

/** 409 for a patient that may not send readings (01 §4: inactive, deceased). */
function assertPatientCanSend(patient: IngestPatient): void {
  const refusal = PATIENT_STATUS_REFUSALS[patient.status];
  if (refusal) throw conflict(refusal, 'patient_id');
}

interface Row {
  patient_id: number;
  clinical_element: number;
  value: number;
  when: Date;
  reading_id: string | null;
}

function validate(req: IngestRequest, now: Date): Row[] {
  const rows: Row[] = [];
  const errors: Array<{ field: string; message: string }> = [];
  for (const item of req.items) {
    const parsed = parseReading(item.input, now);
    if ('error' in parsed) {
      errors.push({ field: `${item.fieldPrefix ?? ''}${parsed.error.field}`, message: parsed.error.message });
      continue;
    }
    for (const v of parsed.ok.values) {
      rows.push({
        patient_id: item.patient.id,
        clinical_element: v.clinical_element,
        value: v.value,
        when: parsed.ok.when,
        reading_id: item.readingId ?? null,
      });
    }
  }
  if (errors.length) throw new AppError(400, 'validation_error', errors[0].message, errors);
  return rows;
}

interface Prepared {
  req: IngestRequest;
  rows: Row[];
  now: Date;
  /**
   * The request's share of the group's INSERT, made when it arrives so the group's INSERT only
   * joins the shares: its rows' varying values, as JSON arrays comma-joined (SQLite) or as arrays
   * (PostgreSQL), in the order of SHARE_COLUMNS.
   */
  share: string | unknown[][];
  /** The patients it writes for: groups in flight at once never share one (PostgreSQL). */
  patients: number[];
}

const INSERT_HEAD = `INSERT INTO measurements (client_id, patient_id, clinical_element, value, "when", status, comment, eraseble, source, created_by, device_id, reading_id, created_at) `;
const INSERT_TAIL = ` ON CONFLICT DO NOTHING RETURNING id, patient_id, clinical_element, value, "when", reading_id`;
/** What varies from row to row, in this order; status 0, no comment and erasable are the same for all. */
const SHARE_COLUMNS = 10;

/**
 * SQLite: the group's rows as one bound JSON text, read back by json_each. node-sqlite3 hands each
 * bound value to SQLite through its own native call on the main thread: 13 values per row cost
 * 12-18 ms of main-thread time for a 2,000-row group, inside the write transaction, against 1 ms
 * for the JSON, and the whole INSERT takes less CPU than with bound values or with literals
 * (P164). The WHERE keeps SQLite from reading ON CONFLICT as a join's ON.
 */
const SQLITE_ROWS = `SELECT value->>0, value->>1, value->>2, value->>3, value->>4, 0, NULL, 1, value->>5, value->>6, value->>7, value->>8, value->>9 FROM json_each(?) WHERE true`;
/**
 * PostgreSQL: one array per column, so the text is the same for any number of rows: prepared once,
 * with one plan (sql.ts, genericPlans), where 13 placeholders per row made a new text to parse and
 * plan for every size of group (issue 22).
 */
const PG_ROWS = `SELECT c, p, e, v, w, 0, NULL, true, s, b, d, r, n
  FROM unnest($1::int[], $2::int[], $3::int[], $4::real[], $5::timestamptz[], $6::text[], $7::int[], $8::int[], $9::text[], $10::timestamptz[])
    AS u(c, p, e, v, w, s, b, d, r, n)`;

function shareOf(sequelize: Sequelize, req: IngestRequest, rows: Row[], now: Date): string | unknown[][] {
  const sqlite = sequelize.getDialect() === 'sqlite';
  const sent = sqlite ? sqliteDate(now) : now;
  const by = req.createdBy ?? null;
  const device = req.deviceId ?? null;
  const tuples = rows.map((r) => [
    req.clientId,
    r.patient_id,
    r.clinical_element,
    r.value,
    sqlite ? sqliteDate(r.when) : r.when,
    req.source,
    by,
    device,
    r.reading_id ?? null,
    sent,
  ]);
  return sqlite ? tuples.map((t) => JSON.stringify(t)).join(',') : tuples;
}

function insertOf(sequelize: Sequelize, group: Prepared[]): { sql: string; values: Positional } {
  if (sequelize.getDialect() === 'sqlite')
    return { sql: INSERT_HEAD + SQLITE_ROWS + INSERT_TAIL, values: new Positional([`[${group.map((p) => p.share).join(',')}]`]) };
  const columns: unknown[][] = Array.from({ length: SHARE_COLUMNS }, () => []);
  for (const p of group) for (const tuple of p.share as unknown[][]) for (let c = 0; c < SHARE_COLUMNS; c++) columns[c].push(tuple[c]);
  return { sql: INSERT_HEAD + PG_ROWS + INSERT_TAIL, values: new Positional(columns) };
}

type InsertedRow = {
  id: number | string;
  patient_id: number;
  clinical_element: number;
  value: number;
  when: Date | string;
  reading_id: string | null;
};

const toTime = (v: Date | string) => (v instanceof Date ? v : new Date(v)).getTime();
/**
 * What identifies a row among those of one INSERT, the same for the row sent and the row returned.
 * The value as a 32-bit float: PostgreSQL keeps REAL in 4 bytes and answers 60.123455 for 60.123456789.
 */
const rowKey = (patientId: number, element: number, value: number, when: number, readingId: string | null) =>
  `${patientId}|${element}|${Math.fround(value)}|${when}|${readingId ?? ''}`;

/**
 * One transaction and one INSERT for a group of requests (GroupCommit), sent together with the
 * hooks' reads (they depend only on what is about to be stored), then one pass of the hooks over
 * everything the group stored. RETURNING promises no order, so each returned row goes back to
 * the first request that sent a row with its values (rows alike in every value are alike in their
 * answer too); a row the INSERT skipped (a retried reading id) is that request's duplicate.
 */
async function storeGroup(deps: IngestDeps, group: Prepared[]): Promise<IngestResult[]> {
  const { sequelize } = deps;
  return writeTransaction(
    sequelize,
    async (transaction) => {
      const ctx = { sequelize, transaction, now: deps.now(), jobs: deps.jobs };
      const planned = group.flatMap(({ req, rows }) =>
        rows.map((r) => ({ client_id: req.clientId, patient_id: r.patient_id, clinical_element: r.clinical_element, when: r.when })),
      );
      const insert = insertOf(sequelize, group);
      const [inserted, loaded] = await Promise.all([
        insertReturning<InsertedRow>(sequelize, insert.sql, insert.values, transaction),
        loadMeasurementHooks(ctx, planned),
      ]);
      const returned = new Map<string, InsertedRow[]>();
      for (const r of inserted) {
        const key = rowKey(Number(r.patient_id), Number(r.clinical_element), Number(r.value), toTime(r.when), r.reading_id);
        const list = returned.get(key);
        if (list) list.push(r);
        else returned.set(key, [r]);
      }
      const all: StoredMeasurement[] = [];
      const results = group.map(({ req, rows, now }) => {
        const stored: StoredMeasurement[] = [];
        const storedIds = new Set<string>();
        for (const row of rows) {
          const r = returned.get(rowKey(row.patient_id, row.clinical_element, row.value, row.when.getTime(), row.reading_id))?.shift();
          if (!r) continue;
          if (r.reading_id) storedIds.add(r.reading_id);
          stored.push({
            id: Number(r.id),
            client_id: req.clientId,
            patient_id: Number(r.patient_id),
            clinical_element: Number(r.clinical_element),
            value: Number(r.value),
            when: row.when,
            source: req.source,
            // The request's own arrival, which its share of the INSERT stored as created_at.
            created_at: now,
            sentAs: req.batch ? 'batch' : 'single',
          });
        }
        // Reading ids are unique per device; blood pressure stores two rows under one id.
        const withId = new Set(req.items.filter((i) => i.readingId).map((i) => i.readingId));
        all.push(...stored);
        return { stored, duplicates: withId.size - storedIds.size };
      });
      await applyMeasurementHooks(ctx, all, loaded);
      return results;
    },
    { genericPlans: true },
  );
}

/** Rows per group (one INSERT): twenty 100-reading batches, well inside any statement limit. */
const MAX_GROUP_ROWS = 2000;
/**
 * PostgreSQL runs writers side by side, each on its own connection: up to GROUPS_IN_FLIGHT groups
 * are written at once, for different patients, one beside another only once it holds
 * MIN_ROWS_BESIDE rows (a device's batch). Bench, 20,000 x 2, 100-reading batches at 10
 * connections: 20,439 readings/s against 16,178 one group at a time. Single readings still wait
 * for the group in flight and go together: as transactions of their own beside it they ran 1,522/s
 * at 50 connections against 1,963. SQLite has one writer: one group at a time.
 */
const GROUPS_IN_FLIGHT = 4;
const MIN_ROWS_BESIDE = 100;
/** One per database, whatever deps object the caller built (the assistant builds its own). */
const batcherFor = perDatabase(
  (deps: IngestDeps) => deps.sequelize,
  (deps: IngestDeps) => {
    const groups: GroupCommitOptions<Prepared> = { sizeOf: (p) => p.rows.length, maxSize: MAX_GROUP_ROWS };
    return new GroupCommit<Prepared, IngestResult>(
      (group) => storeGroup(deps, group),
      deps.sequelize.getDialect() === 'sqlite'
        ? groups
        : { ...groups, concurrency: GROUPS_IN_FLIGHT, keysOf: (p) => p.patients, minSizeBeside: MIN_ROWS_BESIDE },
    );
  },
);

/**
 * Validates the readings (400 for this request alone), then stores them with whatever other
 * requests are waiting (group commit): the answer comes once the group's transaction committed.
 */
export async function ingestReadings(deps: IngestDeps, req: IngestRequest): Promise<IngestResult> {
  const now = deps.now();
  for (const item of req.items) assertPatientCanSend(item.patient);
  const rows = validate(req, now);
  if (!rows.length) return { stored: [], duplicates: 0 };
  const patients = req.items.length === 1 ? [req.items[0].patient.id] : [...new Set(req.items.map((i) => i.patient.id))];
  return batcherFor(deps).submit({ req, rows, now, share: shareOf(deps.sequelize, req, rows, now), patients });
}
