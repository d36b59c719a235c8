import type { Sequelize } from 'sequelize';
import { insertReturningId, select } from '../../db/sql.js';
import { badRequest } from '../../http/errors.js';
import type { StaffPrincipal } from '../../http/auth.js';
import { patientForRead, patientForWrite } from '../observations/record-access.js';
import { toIso } from '../../db/raw-dates.js';
import { recordCataloguesReady } from '../conditions/record-catalogues.js';
import { formatedDate, parseVariableValue, type VariableType } from './variables.rules.js';
import type { components } from '@vigia/contract/openapi';

type ClinicalVariableDto = components['schemas']['ClinicalVariable'];
type PatientVariableDto = components['schemas']['PatientClinicalVariable'];
type ObservationDto = components['schemas']['ClinicalObservation'];
type ObservationInput = components['schemas']['ClinicalObservationInput'];

interface VariableRow {
  id: number;
  name: string;
  loinc_code: string | null;
  type: VariableType;
  unit: string | null;
}
interface ObservationRow {
  id: number;
  clinical_variable_id: number;
  observed_at: string | Date;
  value_number: number | null;
  value_text: string | null;
}

const toVariableDto = (r: VariableRow): ClinicalVariableDto => ({
  id: Number(r.id),
  name: r.name,
  loinc_code: r.loinc_code,
  type: r.type,
  unit: r.unit,
});

/** The one place a clinical_observations row becomes the contract's ClinicalObservation. */
function toObservationDto(r: ObservationRow, timeZone: string): ObservationDto {
  const at = new Date(toIso(r.observed_at)!);
  return {
    id: Number(r.id),
    date: at.toISOString(),
    formated_date: formatedDate(at, timeZone),
    value: r.value_number != null ? Number(r.value_number) : (r.value_text ?? ''),
  };
}

export async function listClinicalVariables(sequelize: Sequelize) {
  await recordCataloguesReady(sequelize);
  return (
    await select<VariableRow>(sequelize, 'SELECT id, name, loinc_code, type, unit FROM clinical_variables ORDER BY position, id')
  ).map(toVariableDto);
}

/** The variables this patient has values for, each with its values oldest first (for the chart). */
export async function listPatientVariables(
  sequelize: Sequelize,
  principal: StaffPrincipal,
  patientId: number,
): Promise<PatientVariableDto[]> {
  const patient = await patientForRead(principal, patientId);
  await recordCataloguesReady(sequelize);
  const observations = await select<ObservationRow>(
    sequelize,
    `SELECT id, clinical_variable_id, observed_at, value_number, value_text FROM clinical_observations
     WHERE client_id = :clientId AND patient_id = :patientId ORDER BY observed_at, id`,
    { clientId: principal.clientId, patientId },
  );
  if (!observations.length) return [];
  const ids = [...new Set(observations.map((o) => Number(o.clinical_variable_id)))];
  const variables = await select<VariableRow>(
    sequelize,
    'SELECT id, name, loinc_code, type, unit FROM clinical_variables WHERE id IN (:ids) ORDER BY position, id',
    { ids },
  );
  return variables.map((v) => ({
    ...toVariableDto(v),
    observations: observations
      .filter((o) => Number(o.clinical_variable_id) === Number(v.id))
      .map((o) => toObservationDto(o, patient.time_zone)),
  }));
}

export async function createClinicalObservation(
  sequelize: Sequelize,
  principal: StaffPrincipal,
  patientId: number,
  input: ObservationInput,
  now: Date,
) {
  const patient = await patientForWrite(principal, patientId, 'clinical.write');
  await recordCataloguesReady(sequelize);
  const [variable] = await select<VariableRow>(
    sequelize,
    'SELECT id, name, loinc_code, type, unit FROM clinical_variables WHERE id = :id',
    { id: input.clinical_variable_id },
  );
  if (!variable) throw badRequest('clinical_variable_id', 'La variable clínica no existe.');
  const parsed = parseVariableValue(variable.type, input.value);
  if (!parsed.ok) throw badRequest('value', parsed.message);
  const at = input.date ? new Date(input.date) : now;
  if (at.getTime() > now.getTime() + 5 * 60_000) throw badRequest('date', 'La fecha no puede ser futura');
  const id = await insertReturningId(
    sequelize,
    `INSERT INTO clinical_observations (client_id, patient_id, clinical_variable_id, observed_at, value_number, value_text, created_by, created_at)
     VALUES (:clientId, :patientId, :variableId, :at, :number, :text, :userId, :now) RETURNING id`,
    {
      clientId: principal.clientId,
      patientId,
      variableId: variable.id,
      at,
      number: parsed.number,
      text: parsed.text,
      userId: principal.userId,
      now,
    },
  );
  return toObservationDto(
    { id, clinical_variable_id: variable.id, observed_at: at, value_number: parsed.number, value_text: parsed.text },
    patient.time_zone,
  );
}
