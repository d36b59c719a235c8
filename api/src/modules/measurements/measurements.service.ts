import type { Sequelize } from 'sequelize';
import { execute, prepared, select } from '../../db/sql.js';
import { BatchLoader } from '../../db/batch-load.js';
import { perDatabase } from '../../db/per-database.js';
import { badRequest, conflict, forbidden, notFound } from '../../http/errors.js';
import type { Principal, StaffPrincipal } from '../../http/auth.js';
import { can, PATIENT_STATUS } from '@vigia/contract/rules/access';
import { CHART_MAX_POINTS } from '@vigia/contract/rules/charts';
import { clinicalElement, validateDeletionReason, DELETION_REASON_MESSAGE, MEASUREMENT_STATUS } from '@vigia/contract/rules/vitals';
import { ingestReadings, type IngestDeps } from './measurements.ingest.js';
import { rangeBound } from './measurements.rules.js';
import type { StoredMeasurement } from './hooks.js';
import type { components } from '@vigia/contract/openapi';

type MeasurementDto = components['schemas']['Measurement'];

export interface MeasurementRow {
  id: number | string;
  patient_id: number;
  clinical_element: number;
  value: number;
  when: Date | string;
  status: number;
  comment: string | null;
  eraseble: boolean | number;
  source: string;
}

export interface PatientRef {
  id: number;
  client_id: number;
  status: number;
  time_zone: string;
}

const toDate = (v: Date | string) => (v instanceof Date ? v : new Date(v));

/** The one place a measurements row becomes the contract's Measurement. */
function toMeasurementDto(r: MeasurementRow): MeasurementDto {
  const e = clinicalElement(r.clinical_element);
  return {
    id: Number(r.id),
    patient_id: Number(r.patient_id),
    when: toDate(r.when).toISOString(),
    value: Number(r.value),
    clinical_element: Number(r.clinical_element) as MeasurementDto['clinical_element'],
    clinical_element_name: e?.name ?? '',
    clinical_element_unit: e?.unit ?? '',
    eraseble: !!r.eraseble,
    status: Number(r.status) as MeasurementDto['status'],
    comment: r.comment,
    source: r.source as MeasurementDto['source'],
  };
}

const PATIENTS_BY_ID = prepared('SELECT id, client_id, status, time_zone FROM patients WHERE id IN (:ids)');
/** Readings arrive many at a time: their patients are read together (BatchLoader). */
const patientLoader = perDatabase(
  (sequelize: Sequelize) => sequelize,
  (sequelize: Sequelize) =>
    new BatchLoader<number, PatientRef>(
      async (ids) => new Map((await select<PatientRef>(sequelize, PATIENTS_BY_ID, { ids })).map((p) => [Number(p.id), p])),
    ),
);

/** Tenancy (D14) and the patient token's reach: anything else is answered like a missing patient. */
export async function findPatientFor(sequelize: Sequelize, principal: Principal, id: number): Promise<PatientRef> {
  if (principal.kind === 'patient' && principal.patientId !== id) throw notFound('El paciente no existe.');
  const p = Number.isSafeInteger(id) ? await patientLoader(sequelize).load(id) : undefined;
  if (!p || Number(p.client_id) !== principal.clientId) throw notFound('El paciente no existe.');
  return p;
}

/** Staff entry (P1/P2): roles that write clinical data; consulta gets 403 whatever the patient. */
function assertMayRecord(principal: StaffPrincipal): void {
  if (!can(principal.role, 'clinical.write')) throw forbidden();
}

export async function recordMeasurements(
  deps: IngestDeps,
  principal: StaffPrincipal,
  patientId: number,
  body: components['schemas']['MeasurementInput'],
) {
  assertMayRecord(principal);
  const patient = await findPatientFor(deps.sequelize, principal, patientId);
  const list = Array.isArray(body.measurements) ? body.measurements : null;
  if (list && (body.clinical_element != null || body.value != null || body.systolic != null || body.diastolic != null)) {
    throw badRequest('measurements', 'Envíe una lectura o una lista de lecturas, no ambas.');
  }
  if (list && !list.length) throw badRequest('measurements', 'Debe tener al menos 1 elementos.');
  const inputs = list ?? [body];
  const { stored } = await ingestReadings(deps, {
    clientId: patient.client_id,
    source: 'staff',
    batch: Boolean(list),
    createdBy: principal.userId,
    items: inputs.map((input, i) => ({ patient, input, fieldPrefix: list ? `measurements.${i}.` : '' })),
  });
  return stored.map(storedToDto);
}

/** A reading just stored: not deleted, no comment, erasable (the row's defaults). */
function storedToDto(s: StoredMeasurement): MeasurementDto {
  return toMeasurementDto({
    id: s.id,
    patient_id: s.patient_id,
    clinical_element: s.clinical_element,
    value: s.value,
    when: s.when,
    source: s.source,
    status: 0,
    comment: null,
    eraseble: true,
  });
}

export interface ListQuery {
  clinical_element?: number;
  order?: 'asc' | 'desc';
  start_at?: string;
  end_at?: string;
  include_deleted?: boolean;
  _start?: number;
  _end?: number;
}

/** Filters shared by the list and the exports: the patient, element (0 = 1), range, deleted or not. */
export function measurementFilter(
  patient: PatientRef,
  q: { clinical_element?: number | null; start?: Date | null; end?: Date | null; includeDeleted?: boolean },
) {
  const where = ['patient_id = :pid', 'client_id = :cid'];
  const replacements: Record<string, unknown> = { pid: patient.id, cid: patient.client_id };
  if (q.clinical_element != null) {
    where.push('clinical_element = :el');
    replacements.el = clinicalElement(q.clinical_element)?.id ?? q.clinical_element;
  }
  if (!q.includeDeleted) where.push(`status = ${MEASUREMENT_STATUS.valid}`);
  if (q.start) {
    where.push('"when" >= :start');
    replacements.start = q.start;
  }
  if (q.end) {
    where.push('"when" < :end');
    replacements.end = q.end;
  }
  return { where: where.join(' AND '), replacements };
}

export async function listMeasurements(sequelize: Sequelize, principal: Principal, patientId: number, q: ListQuery) {
  const patient = await findPatientFor(sequelize, principal, patientId);
  const start = rangeBound(q.start_at, patient.time_zone, 'start');
  const end = rangeBound(q.end_at, patient.time_zone, 'end');
  if (start && end && start >= end) throw badRequest('end_at', 'La fecha final debe ser posterior a la inicial.');
  const { where, replacements } = measurementFilter(patient, {
    clinical_element: q.clinical_element,
    start,
    end,
    includeDeleted: q.include_deleted && principal.kind === 'staff',
  });
  const offset = q._start ?? 0;
  const limit = Math.max(0, Math.min(CHART_MAX_POINTS, (q._end ?? offset + CHART_MAX_POINTS) - offset));
  const dir = q.order === 'asc' ? 'ASC' : 'DESC';
  const [rows, [{ n }]] = await Promise.all([
    select<MeasurementRow>(
      sequelize,
      `SELECT id, patient_id, clinical_element, value, "when", status, comment, eraseble, source FROM measurements WHERE ${where} ORDER BY "when" ${dir}, id ${dir} LIMIT :limit OFFSET :offset`,
      { ...replacements, limit, offset },
    ),
    select<{ n: number | string }>(sequelize, `SELECT COUNT(*) AS n FROM measurements WHERE ${where}`, replacements),
  ]);
  return { rows: rows.map(toMeasurementDto), total: Number(n) };
}

/** Soft delete (01 §4): status 1 with a 15–140 character reason (D15), only where eraseble. */
export async function deleteMeasurement(
  sequelize: Sequelize,
  principal: StaffPrincipal,
  patientId: number,
  measurementId: number,
  body: { status?: number; comment?: string },
) {
  assertMayRecord(principal);
  const patient = await findPatientFor(sequelize, principal, patientId);
  const [row] = await select<MeasurementRow>(
    sequelize,
    'SELECT id, patient_id, clinical_element, value, "when", status, comment, eraseble, source FROM measurements WHERE id = :id AND patient_id = :pid AND client_id = :cid',
    {
      id: measurementId,
      pid: patient.id,
      cid: patient.client_id,
    },
  );
  if (!row) throw notFound('La medición no existe.');
  if (body.status !== 1) throw badRequest('status', 'Solo se permite eliminar la medición (status 1).');
  if (validateDeletionReason(body.comment)) throw badRequest('comment', DELETION_REASON_MESSAGE);
  if (patient.status === PATIENT_STATUS.deceased)
    throw conflict('El paciente está registrado como fallecido; su información no se puede modificar.');
  if (!row.eraseble) throw conflict('Esta medición no se puede eliminar.');
  if (Number(row.status) === 1) throw conflict('La medición ya fue eliminada.');
  const comment = body.comment!.trim();
  // Blood pressure is one reading in two rows: deleting either removes both (same patient and instant).
  const pair = row.clinical_element === 3 || row.clinical_element === 4;
  await execute(
    sequelize,
    `UPDATE measurements SET status = ${MEASUREMENT_STATUS.deleted}, comment = :comment WHERE patient_id = :pid AND client_id = :cid AND status = ${MEASUREMENT_STATUS.valid} AND ${pair ? 'clinical_element IN (3, 4) AND "when" = :when' : 'id = :id'}`,
    { comment, pid: patient.id, cid: patient.client_id, when: row.when, id: row.id },
  );
  return toMeasurementDto({ ...row, status: 1, comment });
}
