import type { Sequelize, Transaction } from 'sequelize';
import { execute, insertReturningId, select } from '../../db/sql.js';
import { badRequest, notFound } from '../../http/errors.js';
import { likeSafe } from '../catalogues/catalogues.service.js';
import { filterSql, sortSql, type ListFields, type ListParams } from '../../http/list-params.js';
import {
  PRIORITY_NAMES,
  canonicalElement,
  elementName,
  elementUnit,
  validateRange,
  ALARM_STATUS,
  ALERT_STATUS,
} from '@vigia/contract/rules/alarms';
import type { components } from '@vigia/contract/openapi';
import { alarmName } from './alarms.rules.js';

type AlarmDto = components['schemas']['Alarm'];
type AlarmInput = components['schemas']['AlarmInput'];
type AlarmUpdate = components['schemas']['AlarmUpdate'];
type PatientAlarm = components['schemas']['PatientAlarm'];

/** Name of the AI message template when a rule notifies the patient without choosing one (02 §3). */
const DEFAULT_IA_SCRIPT = 'alarma_predeterminada';

export interface AlarmRow {
  id: number;
  client_id: number;
  name: string;
  type: number;
  clinical_element: number;
  priority: number;
  minimum_condition: number;
  maximum_condition: number;
  ia_alarm: boolean | number;
  ia_script: string | null;
  prompt_ia: string | null;
  request_repeat_measurement: boolean | number;
  alarm_default_new_patients: boolean | number;
  status: number;
  created_at: string | Date;
  patients_count?: number | string;
}

/**
 * What GET /alarms sorts and filters by (openapi.yaml listAlarms declares the same).
 * `clinical_element=` keeps its own meaning (the legacy code 0 is 1, D6), so it has no generic filter.
 */
export const ALARM_FIELDS: ListFields = {
  id: { column: 'a.id', kind: 'integer', sort: true },
  name: { column: 'a.name', kind: 'text', sort: true },
  clinical_element: { column: 'a.clinical_element', kind: 'enum', sort: true, operators: [] },
  priority: { column: 'a.priority', kind: 'enum', sort: true },
  minimum_condition: { column: 'a.minimum_condition', kind: 'number' },
  maximum_condition: { column: 'a.maximum_condition', kind: 'number' },
  ia_alarm: { column: 'a.ia_alarm', kind: 'boolean' },
  request_repeat_measurement: { column: 'a.request_repeat_measurement', kind: 'boolean' },
  alarm_default_new_patients: { column: 'a.alarm_default_new_patients', kind: 'boolean' },
  created_at: { column: 'a.created_at', kind: 'datetime', sort: true },
};
const COLUMNS = `a.id, a.client_id, a.name, a.type, a.clinical_element, a.priority, a.minimum_condition, a.maximum_condition, a.ia_alarm, a.ia_script,
  a.prompt_ia, a.request_repeat_measurement, a.alarm_default_new_patients, a.status, a.created_at,
  (SELECT COUNT(*) FROM patient_alarms pa WHERE pa.alarm_id = a.id) AS patients_count`;

/** The one place an alarms row becomes the contract's Alarm. */
function toAlarmDto(a: AlarmRow): AlarmDto {
  const element = canonicalElement(Number(a.clinical_element));
  return {
    id: Number(a.id),
    name: a.name,
    type: 1,
    clinical_element: Number(a.clinical_element) as AlarmDto['clinical_element'],
    clinical_element_id: element,
    clinical_element_name: elementName(element),
    clinical_element_unit: elementUnit(element),
    priority: Number(a.priority) as AlarmDto['priority'],
    priority_name: PRIORITY_NAMES[Number(a.priority)] ?? '',
    minimum_condition: Number(a.minimum_condition),
    maximum_condition: Number(a.maximum_condition),
    ia_alarm: !!a.ia_alarm,
    ia_script: a.ia_script,
    prompt_ia: a.prompt_ia,
    request_repeat_measurement: !!a.request_repeat_measurement,
    alarm_default_new_patients: !!a.alarm_default_new_patients,
    patients_count: Number(a.patients_count ?? 0),
    status: ALARM_STATUS.active,
    created_at: new Date(a.created_at).toISOString(),
  };
}

export interface AlarmListQuery extends ListParams {
  clinical_element?: number;
}

export async function listAlarms(sequelize: Sequelize, clientId: number, p: AlarmListQuery) {
  const where = ['a.client_id = :clientId'];
  const params: Record<string, unknown> = { clientId, limit: p.limit, offset: p.offset };
  if (p.clinical_element != null) {
    where.push('a.clinical_element IN (:elements)');
    params.elements = canonicalElement(p.clinical_element) === 1 ? [0, 1] : [p.clinical_element];
  }
  where.push(...filterSql(p.filters, params));
  if (p.q) {
    where.push('LOWER(a.name) LIKE :q');
    params.q = `%${likeSafe(p.q.toLowerCase())}%`;
  }
  const rows = await select<AlarmRow>(
    sequelize,
    `SELECT ${COLUMNS} FROM alarms a WHERE ${where.join(' AND ')} ORDER BY ${sortSql(p, `a.name ${p.order}`, 'a.id ASC')} LIMIT :limit OFFSET :offset`,
    params,
  );
  const [{ n }] = await select<{ n: number }>(sequelize, `SELECT COUNT(*) AS n FROM alarms a WHERE ${where.join(' AND ')}`, params);
  return { rows: rows.map(toAlarmDto), total: Number(n) };
}

export async function getAlarm(sequelize: Sequelize, clientId: number, id: number): Promise<AlarmDto> {
  const [row] = await select<AlarmRow>(sequelize, `SELECT ${COLUMNS} FROM alarms a WHERE a.id = :id AND a.client_id = :clientId`, {
    id,
    clientId,
  });
  if (!row) throw notFound('La alerta no existe.');
  return toAlarmDto(row);
}

function checkRange(min: number | undefined, max: number | undefined) {
  const message = validateRange(min, max);
  if (message) throw badRequest('minimum_condition', message);
}

/** The AI fields mean something only with the AI option (02 §5): without it they are cleared. */
function aiFields(iaAlarm: boolean, script: string | null | undefined, prompt: string | null | undefined) {
  if (!iaAlarm) return { ia_script: null, prompt_ia: null };
  return { ia_script: script?.trim() || DEFAULT_IA_SCRIPT, prompt_ia: prompt?.trim() || null };
}

export async function createAlarm(sequelize: Sequelize, clientId: number, input: AlarmInput, now: Date): Promise<AlarmDto> {
  const named = alarmName(input, true);
  if (!named.ok) throw badRequest(named.field, named.message);
  checkRange(input.minimum_condition, input.maximum_condition);
  const ia = aiFields(!!input.ia_alarm, input.ia_script, input.prompt_ia);
  const id = await insertReturningId(
    sequelize,
    `INSERT INTO alarms (client_id, name, type, clinical_element, priority, minimum_condition, maximum_condition, ia_alarm, ia_script, prompt_ia,
       request_repeat_measurement, alarm_default_new_patients, status, created_at, updated_at)
     VALUES (:clientId, :name, 1, :element, :priority, :min, :max, :ia, :script, :prompt, :repeat, :defaultNew, 1, :now, :now) RETURNING id`,
    {
      clientId,
      name: named.name,
      element: input.clinical_element,
      priority: input.priority,
      min: input.minimum_condition,
      max: input.maximum_condition,
      ia: !!input.ia_alarm,
      script: ia.ia_script,
      prompt: ia.prompt_ia,
      repeat: !!input.request_repeat_measurement,
      defaultNew: !!input.alarm_default_new_patients,
      now,
    },
  );
  return getAlarm(sequelize, clientId, id);
}

export async function updateAlarm(sequelize: Sequelize, clientId: number, id: number, input: AlarmUpdate, now: Date): Promise<AlarmDto> {
  const current = await getAlarm(sequelize, clientId, id);
  const named = alarmName(input, false);
  if (!named.ok) throw badRequest(named.field, named.message);
  const { name_only: _nameOnly, ...fields } = input;
  const given = Object.fromEntries(Object.entries({ ...fields, name: named.name }).filter(([, v]) => v !== undefined));
  const merged = { ...current, ...given } as AlarmDto;
  checkRange(merged.minimum_condition, merged.maximum_condition);
  const ia = aiFields(merged.ia_alarm, merged.ia_script, merged.prompt_ia);
  await execute(
    sequelize,
    `UPDATE alarms SET name = :name, clinical_element = :element, priority = :priority, minimum_condition = :min, maximum_condition = :max,
       ia_alarm = :ia, ia_script = :script, prompt_ia = :prompt, request_repeat_measurement = :repeat, alarm_default_new_patients = :defaultNew,
       updated_at = :now WHERE id = :id AND client_id = :clientId`,
    {
      id,
      clientId,
      name: merged.name.trim(),
      element: merged.clinical_element,
      priority: merged.priority,
      min: merged.minimum_condition,
      max: merged.maximum_condition,
      ia: merged.ia_alarm,
      script: ia.ia_script,
      prompt: ia.prompt_ia,
      repeat: merged.request_repeat_measurement,
      defaultNew: merged.alarm_default_new_patients,
      now,
    },
  );
  return getAlarm(sequelize, clientId, id);
}

/** Removes the rule and its assignments; its alerts keep the rule as it was (name and range). */
export async function deleteAlarm(sequelize: Sequelize, clientId: number, id: number): Promise<void> {
  await getAlarm(sequelize, clientId, id);
  await sequelize.transaction(async (transaction) => {
    await execute(sequelize, 'DELETE FROM patient_alarms WHERE alarm_id = :id', { id }, transaction);
    await execute(
      sequelize,
      'UPDATE alerts SET alarm_id = NULL WHERE alarm_id = :id AND client_id = :clientId',
      { id, clientId },
      transaction,
    );
    await execute(sequelize, 'DELETE FROM alarms WHERE id = :id AND client_id = :clientId', { id, clientId }, transaction);
  });
}

/** The rules assigned to a patient, optionally of one element (0 and 1 are the same element). */
export async function listPatientAlarms(sequelize: Sequelize, patientId: number, clinicalElement?: number): Promise<PatientAlarm[]> {
  const params: Record<string, unknown> = { patientId };
  let filter = '';
  if (clinicalElement != null) {
    filter = ' AND a.clinical_element IN (:elements)';
    params.elements = canonicalElement(clinicalElement) === 1 ? [0, 1] : [clinicalElement];
  }
  const rows = await select<AlarmRow>(
    sequelize,
    `SELECT a.id, a.name, a.clinical_element, a.priority, a.minimum_condition, a.maximum_condition
     FROM patient_alarms pa JOIN alarms a ON a.id = pa.alarm_id WHERE pa.patient_id = :patientId${filter} ORDER BY a.clinical_element, a.priority, a.name`,
    params,
  );
  return rows.map((a) => ({
    id: Number(a.id),
    name: a.name,
    clinical_element: Number(a.clinical_element) as PatientAlarm['clinical_element'],
    priority: Number(a.priority) as PatientAlarm['priority'],
    minimum_condition: Number(a.minimum_condition),
    maximum_condition: Number(a.maximum_condition),
  }));
}

/**
 * Replaces a patient's assignment (02 §7 `alarm_ids`): duplicates dropped, every id must be one of
 * the client's rules (another client's id is a field error, not a leak).
 */
export async function setPatientAlarms(
  sequelize: Sequelize,
  clientId: number,
  patientId: number,
  alarmIds: number[],
  transaction?: Transaction,
): Promise<void> {
  const ids = [...new Set(alarmIds)];
  if (ids.length) {
    const [{ n }] = await select<{ n: number }>(
      sequelize,
      'SELECT COUNT(*) AS n FROM alarms WHERE client_id = :clientId AND id IN (:ids)',
      { clientId, ids },
      transaction,
    );
    if (Number(n) !== ids.length) throw badRequest('alarm_ids', 'Una de las alertas no existe.');
  }
  await execute(sequelize, 'DELETE FROM patient_alarms WHERE patient_id = :patientId', { patientId }, transaction);
  if (ids.length) {
    await sequelize.getQueryInterface().bulkInsert(
      'patient_alarms',
      ids.map((alarm_id) => ({ patient_id: patientId, alarm_id })),
      { transaction },
    );
  }
}

/** Rules marked 'Asignada a pacientes nuevos' attach to every new patient of the client. */
export async function attachDefaultAlarms(
  sequelize: Sequelize,
  clientId: number,
  patientId: number,
  transaction?: Transaction,
): Promise<void> {
  await sequelize.query(
    `INSERT INTO patient_alarms (patient_id, alarm_id) SELECT :patientId, id FROM alarms WHERE client_id = :clientId AND alarm_default_new_patients = :yes`,
    { replacements: { patientId, clientId, yes: true }, transaction },
  );
}

/** The patient card's 'Alertas activas' (01 §2): open alerts of the patient, one index range. */
export async function countOpenAlerts(sequelize: Sequelize, patientId: number): Promise<number> {
  const [{ n }] = await select<{ n: number }>(
    sequelize,
    `SELECT COUNT(*) AS n FROM alerts WHERE patient_id = :patientId AND status = ${ALERT_STATUS.open}`,
    {
      patientId,
    },
  );
  return Number(n);
}
