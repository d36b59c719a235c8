import type { Sequelize } from 'sequelize';
import { execute, insertReturningId, select } from '../../db/sql.js';
import { badRequest, notFound } from '../../http/errors.js';
import type { StaffPrincipal } from '../../http/auth.js';
import type { Catalogues } from '../catalogues/catalogues.service.js';
import { patientForRead, patientForWrite } from '../observations/record-access.js';
import { toIso } from '../../db/raw-dates.js';
import { cleanStatement, normaliseIcd10 } from '@vigia/contract/rules/history';
import type { components } from '@vigia/contract/openapi';

type FamilyHistoryDto = components['schemas']['PatientFamilyHistory'];
type FamilyHistoryInput = components['schemas']['FamilyHistoryInput'];
type FamilyHistoryUpdate = components['schemas']['FamilyHistoryUpdate'];

export interface FamilyHistoryDeps {
  sequelize: Sequelize;
  catalogues: Catalogues;
  now: () => Date;
  /** Told after every write, so the patient's RDA can be written again (issue 51); optional. */
  onPatientHistoryChanged?: (clientId: number, patientId: number, userId: number) => void | Promise<void>;
}

interface FamilyHistoryRow {
  id: number;
  relationship: string;
  description: string;
  icd10: string | null;
  created_at: string | Date;
  updated_at: string | Date;
}

/** The one place a patient_family_history row becomes the contract's PatientFamilyHistory. */
function toFamilyHistoryDto(deps: Pick<FamilyHistoryDeps, 'catalogues'>, r: FamilyHistoryRow): FamilyHistoryDto {
  return {
    id: Number(r.id),
    relationship: r.relationship,
    relationship_name: deps.catalogues.code('family_relationships', r.relationship)?.name ?? r.relationship,
    description: r.description,
    icd10: r.icd10,
    created_at: toIso(r.created_at)!,
    updated_at: toIso(r.updated_at)!,
  };
}

const SELECT_ENTRY = 'SELECT id, relationship, description, icd10, created_at, updated_at FROM patient_family_history';

/**
 * A patient's family history in the guide's relationship order (parents, siblings, uncles and
 * aunts, grandparents), newest first within each: what the record shows and what the patient's RDA
 * reads. No principal: the caller has settled the tenancy.
 */
export async function listFamilyHistory(deps: Pick<FamilyHistoryDeps, 'sequelize' | 'catalogues'>, clientId: number, patientId: number) {
  const rows = await select<FamilyHistoryRow>(
    deps.sequelize,
    `${SELECT_ENTRY} WHERE client_id = :clientId AND patient_id = :patientId ORDER BY relationship, id DESC`,
    { clientId, patientId },
  );
  return rows.map((r) => toFamilyHistoryDto(deps, r));
}

export async function listPatientFamilyHistory(deps: FamilyHistoryDeps, principal: StaffPrincipal, patientId: number) {
  await patientForRead(principal, patientId);
  return listFamilyHistory(deps, principal.clientId, patientId);
}

async function findEntry(deps: FamilyHistoryDeps, clientId: number, patientId: number, id: number): Promise<FamilyHistoryRow> {
  const [row] = await select<FamilyHistoryRow>(
    deps.sequelize,
    `${SELECT_ENTRY} WHERE id = :id AND client_id = :clientId AND patient_id = :patientId`,
    {
      id,
      clientId,
      patientId,
    },
  );
  if (!row) throw notFound('El antecedente familiar no existe.');
  return row;
}

function checkRelationship(deps: FamilyHistoryDeps, code: string): string {
  if (!deps.catalogues.code('family_relationships', code)) throw badRequest('relationship', 'Seleccione un parentesco de la lista.');
  return code;
}

function checkDescription(text: string): string {
  const clean = cleanStatement(text);
  if (!clean) throw badRequest('description', 'Escriba la enfermedad del familiar, de máximo 200 caracteres');
  return clean;
}

export async function createPatientFamilyHistory(
  deps: FamilyHistoryDeps,
  principal: StaffPrincipal,
  patientId: number,
  input: FamilyHistoryInput,
) {
  await patientForWrite(principal, patientId, 'clinical.write');
  const now = deps.now();
  const id = await insertReturningId(
    deps.sequelize,
    `INSERT INTO patient_family_history (client_id, patient_id, relationship, description, icd10, created_by, created_at, updated_at)
     VALUES (:clientId, :patientId, :relationship, :description, :icd10, :userId, :now, :now) RETURNING id`,
    {
      clientId: principal.clientId,
      patientId,
      relationship: checkRelationship(deps, input.relationship),
      description: checkDescription(input.description),
      icd10: normaliseIcd10(input.icd10),
      userId: principal.userId,
      now,
    },
  );
  await deps.onPatientHistoryChanged?.(principal.clientId, patientId, principal.userId);
  return toFamilyHistoryDto(deps, await findEntry(deps, principal.clientId, patientId, id));
}

export async function updatePatientFamilyHistory(
  deps: FamilyHistoryDeps,
  principal: StaffPrincipal,
  patientId: number,
  id: number,
  input: FamilyHistoryUpdate,
) {
  await patientForWrite(principal, patientId, 'clinical.write');
  const row = await findEntry(deps, principal.clientId, patientId, id);
  await execute(
    deps.sequelize,
    'UPDATE patient_family_history SET relationship = :relationship, description = :description, icd10 = :icd10, updated_at = :now WHERE id = :id',
    {
      id: row.id,
      relationship: input.relationship === undefined ? row.relationship : checkRelationship(deps, input.relationship),
      description: input.description === undefined ? row.description : checkDescription(input.description),
      icd10: input.icd10 === undefined ? row.icd10 : normaliseIcd10(input.icd10),
      now: deps.now(),
    },
  );
  await deps.onPatientHistoryChanged?.(principal.clientId, patientId, principal.userId);
  return toFamilyHistoryDto(deps, await findEntry(deps, principal.clientId, patientId, id));
}

export async function deletePatientFamilyHistory(deps: FamilyHistoryDeps, principal: StaffPrincipal, patientId: number, id: number) {
  await patientForWrite(principal, patientId, 'clinical.write');
  const row = await findEntry(deps, principal.clientId, patientId, id);
  await execute(deps.sequelize, 'DELETE FROM patient_family_history WHERE id = :id', { id: row.id });
  await deps.onPatientHistoryChanged?.(principal.clientId, patientId, principal.userId);
}
