import type { Sequelize, Transaction } from 'sequelize';
import { execute, select } from '../../db/sql.js';
import { badRequest } from '../../http/errors.js';
import { canonicalElement, ALERT_STATUS } from '@vigia/contract/rules/alarms';
import type { components } from '@vigia/contract/openapi';

type PatientAlarm = components['schemas']['PatientAlarm'];

interface AlarmRow {
  id: number;
  name: string;
  clinical_element: number;
  priority: number;
  minimum_condition: number;
  maximum_condition: number;
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
