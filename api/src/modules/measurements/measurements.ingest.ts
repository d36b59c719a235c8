import type { Sequelize } from 'sequelize';
import type { JobRunner } from '../../jobs/queue.js';
import { GroupCommit, groupCommitPer } from '../../db/group-commit.js';
import { insertReturning, sqlDate } from '../../db/sql.js';
import { AppError, conflict } from '../../http/errors.js';
import { PATIENT_STATUS } from '../access/access.rules.js';
import { parseReading, type ReadingInput } from '../../../../contract/rules/vitals.js';
import { runMeasurementHooks, type MeasurementSource, type StoredMeasurement } from './hooks.js';

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
  items: IngestItem[];
  createdBy?: number | null;
  deviceId?: number | null;
}

export interface IngestResult {
  stored: StoredMeasurement[];
  /** Readings (not rows) skipped because their reading id was stored before. */
  duplicates: number;
}

export const PATIENT_STATUS_REFUSALS: Record<number, string> = {
  [PATIENT_STATUS.inactive]: 'El paciente está inactivo y no puede enviar mediciones. Actívelo para registrarlas.',
  [PATIENT_STATUS.deceased]: 'El paciente está registrado como fallecido y no puede recibir mediciones.',
};

/** 409 for a patient that may not send readings (01 §4: inactive, deceased). */
export function assertPatientCanSend(patient: IngestPatient): void {
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
      rows.push({ patient_id: item.patient.id, clinical_element: v.clinical_element, value: v.value, when: parsed.ok.when, reading_id: item.readingId ?? null });
    }
  }
  if (errors.length) throw new AppError(400, 'validation_error', errors[0].message, errors);
  return rows;
}

interface Prepared {
  req: IngestRequest;
  rows: Row[];
  now: Date;
}

function insertSql(sequelize: Sequelize, p: Prepared): string {
  const { req, now } = p;
  const int = (v: number | null | undefined) => (v == null ? 'NULL' : String(Math.trunc(Number(v))));
  const common = `,0,NULL,${sequelize.escape(true as unknown as string)},${sequelize.escape(req.source)},${int(req.createdBy)},${int(req.deviceId)},`;
  const created = sqlDate(now);
  // Numbers were validated by parseReading (finite, in range); only the reading id is free text.
  const values = p.rows
    .map((r) => `(${int(req.clientId)},${int(r.patient_id)},${int(r.clinical_element)},${Number(r.value)},${sqlDate(r.when)}${common}${r.reading_id == null ? 'NULL' : sequelize.escape(r.reading_id)},${created})`)
    .join(',');
  return `INSERT INTO measurements (client_id, patient_id, clinical_element, value, "when", status, comment, eraseble, source, created_by, device_id, reading_id, created_at)
    VALUES ${values} ON CONFLICT DO NOTHING RETURNING id, patient_id, clinical_element, value, "when", reading_id`;
}

type InsertedRow = { id: number | string; patient_id: number; clinical_element: number; value: number; when: Date | string; reading_id: string | null };

/**
 * One transaction for a group of requests (GroupCommit): an INSERT per request, so each gets its
 * own rows back, then one pass of the hooks over everything the group stored.
 */
async function storeGroup(deps: IngestDeps, group: Prepared[]): Promise<IngestResult[]> {
  const { sequelize } = deps;
  return sequelize.transaction(async (transaction) => {
    const results: IngestResult[] = [];
    const all: StoredMeasurement[] = [];
    for (const p of group) {
      const inserted = await insertReturning<InsertedRow>(sequelize, insertSql(sequelize, p), undefined, transaction);
      const stored: StoredMeasurement[] = inserted.map((r) => ({
        id: Number(r.id),
        client_id: p.req.clientId,
        patient_id: Number(r.patient_id),
        clinical_element: Number(r.clinical_element),
        value: Number(r.value),
        when: r.when instanceof Date ? r.when : new Date(r.when),
        source: p.req.source,
      }));
      // Reading ids are unique per device; blood pressure stores two rows under one id.
      const withId = new Set(p.req.items.filter((i) => i.readingId).map((i) => i.readingId));
      const storedIds = new Set(inserted.filter((r) => r.reading_id).map((r) => r.reading_id));
      results.push({ stored, duplicates: withId.size - storedIds.size });
      all.push(...stored);
    }
    await runMeasurementHooks({ sequelize, transaction, now: deps.now(), jobs: deps.jobs }, all);
    return results;
  });
}

/** Rows per group: a few hundred requests' worth, one statement each, well inside any limit. */
const MAX_GROUP_ROWS = 2000;
/** One per database, whatever deps object the caller built (the assistant builds its own). */
const batcherFor = groupCommitPer(
  (deps: IngestDeps) => deps.sequelize,
  (deps: IngestDeps) =>
    new GroupCommit<Prepared, IngestResult>((group) => storeGroup(deps, group), { sizeOf: (p) => p.rows.length, maxSize: MAX_GROUP_ROWS }),
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
  return batcherFor(deps).submit({ req, rows, now });
}
