import type { Sequelize } from 'sequelize';
import { execute, insertReturningId, select } from '../../db/sql.js';
import { badRequest, notFound } from '../../http/errors.js';
import type { StaffPrincipal } from '../../http/auth.js';
import type { Catalogues } from '../catalogues/catalogues.service.js';
import { patientForRead, patientForWrite } from '../observations/record-access.js';
import { toIso } from '../../db/raw-dates.js';
import { cleanStatement } from '@vigia/contract/rules/history';
import type { components } from '@vigia/contract/openapi';

type AllergyDto = components['schemas']['PatientAllergy'];
type AllergyInput = components['schemas']['AllergyInput'];
type AllergyUpdate = components['schemas']['AllergyUpdate'];

export interface AllergyDeps {
  sequelize: Sequelize;
  catalogues: Catalogues;
  now: () => Date;
  /** Told after every write, so the patient's RDA can be written again (issue 51); optional. */
  onPatientHistoryChanged?: (clientId: number, patientId: number, userId: number) => void | Promise<void>;
}

interface AllergyRow {
  id: number;
  allergy_type: string;
  description: string;
  active: boolean | number;
  created_at: string | Date;
  updated_at: string | Date;
}

/** The one place a patient_allergies row becomes the contract's PatientAllergy. */
function toAllergyDto(deps: Pick<AllergyDeps, 'catalogues'>, r: AllergyRow): AllergyDto {
  return {
    id: Number(r.id),
    allergy_type: r.allergy_type,
    allergy_type_name: deps.catalogues.code('allergy_types', r.allergy_type)?.name ?? r.allergy_type,
    description: r.description,
    active: !!r.active,
    created_at: toIso(r.created_at)!,
    updated_at: toIso(r.updated_at)!,
  };
}

const SELECT_ALLERGY = 'SELECT id, allergy_type, description, active, created_at, updated_at FROM patient_allergies';

/**
 * A patient's allergies, active first, newest first: what the record shows and what the patient's
 * RDA reads (its builder keeps the active ones). No principal: the caller has settled the tenancy.
 */
export async function listAllergies(deps: Pick<AllergyDeps, 'sequelize' | 'catalogues'>, clientId: number, patientId: number) {
  const rows = await select<AllergyRow>(
    deps.sequelize,
    `${SELECT_ALLERGY} WHERE client_id = :clientId AND patient_id = :patientId ORDER BY active DESC, id DESC`,
    { clientId, patientId },
  );
  return rows.map((r) => toAllergyDto(deps, r));
}

export async function listPatientAllergies(deps: AllergyDeps, principal: StaffPrincipal, patientId: number) {
  await patientForRead(principal, patientId);
  return listAllergies(deps, principal.clientId, patientId);
}

async function findAllergy(deps: AllergyDeps, clientId: number, patientId: number, id: number): Promise<AllergyRow> {
  const [row] = await select<AllergyRow>(
    deps.sequelize,
    `${SELECT_ALLERGY} WHERE id = :id AND client_id = :clientId AND patient_id = :patientId`,
    {
      id,
      clientId,
      patientId,
    },
  );
  if (!row) throw notFound('La alergia no existe.');
  return row;
}

function checkType(deps: AllergyDeps, code: string): string {
  if (!deps.catalogues.code('allergy_types', code)) throw badRequest('allergy_type', 'Seleccione un tipo de alergia de la lista.');
  return code;
}

function checkDescription(text: string): string {
  const clean = cleanStatement(text);
  if (!clean) throw badRequest('description', 'Escriba la descripción, de máximo 200 caracteres');
  return clean;
}

export async function createPatientAllergy(deps: AllergyDeps, principal: StaffPrincipal, patientId: number, input: AllergyInput) {
  await patientForWrite(principal, patientId, 'clinical.write');
  const now = deps.now();
  const id = await insertReturningId(
    deps.sequelize,
    `INSERT INTO patient_allergies (client_id, patient_id, allergy_type, description, active, created_by, created_at, updated_at)
     VALUES (:clientId, :patientId, :type, :description, :active, :userId, :now, :now) RETURNING id`,
    {
      clientId: principal.clientId,
      patientId,
      type: checkType(deps, input.allergy_type),
      description: checkDescription(input.description),
      active: input.active ?? true,
      userId: principal.userId,
      now,
    },
  );
  await deps.onPatientHistoryChanged?.(principal.clientId, patientId, principal.userId);
  return toAllergyDto(deps, await findAllergy(deps, principal.clientId, patientId, id));
}

export async function updatePatientAllergy(
  deps: AllergyDeps,
  principal: StaffPrincipal,
  patientId: number,
  id: number,
  input: AllergyUpdate,
) {
  await patientForWrite(principal, patientId, 'clinical.write');
  const row = await findAllergy(deps, principal.clientId, patientId, id);
  await execute(
    deps.sequelize,
    'UPDATE patient_allergies SET allergy_type = :type, description = :description, active = :active, updated_at = :now WHERE id = :id',
    {
      id: row.id,
      type: input.allergy_type === undefined ? row.allergy_type : checkType(deps, input.allergy_type),
      description: input.description === undefined ? row.description : checkDescription(input.description),
      active: input.active ?? !!row.active,
      now: deps.now(),
    },
  );
  await deps.onPatientHistoryChanged?.(principal.clientId, patientId, principal.userId);
  return toAllergyDto(deps, await findAllergy(deps, principal.clientId, patientId, id));
}

export async function deletePatientAllergy(deps: AllergyDeps, principal: StaffPrincipal, patientId: number, id: number) {
  await patientForWrite(principal, patientId, 'clinical.write');
  const row = await findAllergy(deps, principal.clientId, patientId, id);
  await execute(deps.sequelize, 'DELETE FROM patient_allergies WHERE id = :id', { id: row.id });
  await deps.onPatientHistoryChanged?.(principal.clientId, patientId, principal.userId);
}
