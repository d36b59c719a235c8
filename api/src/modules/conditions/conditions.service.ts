import type { Sequelize } from 'sequelize';
import { execute, insertReturningId, select } from '../../db/sql.js';
import { badRequest, notFound } from '../../http/errors.js';
import type { ListParams } from '../../http/list-params.js';
import type { StaffPrincipal } from '../../http/auth.js';
import { toSearchKey } from '@vigia/contract/rules/names';
import { removalEffect } from '@vigia/contract/rules/conditions';
import { likeSafe } from '../catalogues/catalogues.service.js';
import { patientForRead, patientForWrite } from '../observations/record-access.js';
import { toIso } from '../../db/raw-dates.js';
import { recordCataloguesReady } from './record-catalogues.js';
import type { components } from '@vigia/contract/openapi';

type ConditionTypeDto = components['schemas']['ConditionType'];
type PatientConditionDto = components['schemas']['PatientCondition'];
type ConditionInput = components['schemas']['ConditionInput'];
type ConditionUpdate = components['schemas']['ConditionUpdate'];

interface TypeRow {
  id: number;
  name: string;
  icd10: string | null;
  priority: number;
}
interface ConditionRow extends TypeRow {
  condition_id: number;
  notes: string | null;
  active: boolean | number;
  start_date: string | Date | null;
  end_date: string | Date | null;
}

const toTypeDto = (r: TypeRow): ConditionTypeDto => ({
  id: Number(r.id),
  name: r.name,
  icd10: r.icd10,
  priority: Number(r.priority) === 1 ? 1 : 0,
});

/** The one place a patient_conditions row becomes the contract's PatientCondition. */
function toConditionDto(r: ConditionRow): PatientConditionDto {
  return {
    id: Number(r.condition_id),
    condition_type: toTypeDto(r),
    notes: r.notes,
    start_date: toIso(r.start_date),
    end_date: toIso(r.end_date),
    active: !!r.active,
  };
}

/** Text search (prefix of any word, accents ignored) or the high-priority list (priority=1). */
export async function listConditionTypes(sequelize: Sequelize, p: ListParams, priority: number | undefined) {
  await recordCataloguesReady(sequelize);
  const where: string[] = [];
  const params: Record<string, unknown> = { limit: p.limit, offset: p.offset };
  if (priority !== undefined) {
    where.push('priority = :priority');
    params.priority = priority;
  }
  if (p.q) {
    const key = likeSafe(toSearchKey(p.q));
    where.push('(search_name LIKE :starts OR search_name LIKE :word OR LOWER(icd10) LIKE :code)');
    Object.assign(params, { starts: `${key}%`, word: `% ${key}%`, code: `${key}%` });
  }
  const sql = where.length ? `WHERE ${where.join(' AND ')}` : '';
  const rows = await select<TypeRow>(
    sequelize,
    `SELECT id, name, icd10, priority FROM condition_types ${sql} ORDER BY priority DESC, position, id LIMIT :limit OFFSET :offset`,
    params,
  );
  const [{ n }] = await select<{ n: number }>(sequelize, `SELECT COUNT(*) AS n FROM condition_types ${sql}`, params);
  return { rows: rows.map(toTypeDto), total: Number(n) };
}

const SELECT_CONDITION = `SELECT pc.id AS condition_id, pc.notes, pc.active, pc.start_date, pc.end_date, ct.id, ct.name, ct.icd10, ct.priority
  FROM patient_conditions pc JOIN condition_types ct ON ct.id = pc.condition_type_id`;

export async function listPatientConditions(sequelize: Sequelize, principal: StaffPrincipal, patientId: number) {
  await patientForRead(principal, patientId);
  const rows = await select<ConditionRow>(
    sequelize,
    `${SELECT_CONDITION} WHERE pc.client_id = :clientId AND pc.patient_id = :patientId ORDER BY ct.priority DESC, ct.position, ct.id`,
    { clientId: principal.clientId, patientId },
  );
  return rows.map(toConditionDto);
}

async function findCondition(sequelize: Sequelize, clientId: number, patientId: number, id: number): Promise<ConditionRow> {
  const [row] = await select<ConditionRow>(
    sequelize,
    `${SELECT_CONDITION} WHERE pc.id = :id AND pc.client_id = :clientId AND pc.patient_id = :patientId`,
    {
      id,
      clientId,
      patientId,
    },
  );
  if (!row) throw notFound('El antecedente no existe.');
  return row;
}

const cleanNotes = (notes: string | null | undefined) => (notes == null ? null : notes.trim() || null);

/**
 * Adds a condition, or activates the record the patient already has for that type (a priority
 * condition switched off earlier): the answer carries the record's id either way.
 */
export async function createPatientCondition(
  sequelize: Sequelize,
  principal: StaffPrincipal,
  patientId: number,
  input: ConditionInput,
  now: Date,
) {
  await patientForWrite(principal, patientId, 'clinical.write');
  await recordCataloguesReady(sequelize);
  const [type] = await select<TypeRow>(sequelize, 'SELECT id, name, icd10, priority FROM condition_types WHERE id = :id', {
    id: input.condition_type_id,
  });
  if (!type) throw badRequest('condition_type_id', 'El antecedente seleccionado no existe.');
  const active = input.active ?? true;
  const notes = cleanNotes(input.notes);
  const [existing] = await select<{ id: number }>(
    sequelize,
    'SELECT id FROM patient_conditions WHERE client_id = :clientId AND patient_id = :patientId AND condition_type_id = :typeId',
    { clientId: principal.clientId, patientId, typeId: type.id },
  );
  let id: number;
  if (existing) {
    id = Number(existing.id);
    await execute(
      sequelize,
      'UPDATE patient_conditions SET notes = :notes, active = :active, start_date = :start, end_date = :end, updated_at = :now WHERE id = :id',
      { id, notes, active, start: active ? now : null, end: active ? null : now, now },
    );
  } else {
    id = await insertReturningId(
      sequelize,
      `INSERT INTO patient_conditions (client_id, patient_id, condition_type_id, notes, active, start_date, end_date, created_at, updated_at)
       VALUES (:clientId, :patientId, :typeId, :notes, :active, :start, :end, :now, :now) RETURNING id`,
      {
        clientId: principal.clientId,
        patientId,
        typeId: type.id,
        notes,
        active,
        start: active ? now : null,
        end: active ? null : now,
        now,
      },
    );
  }
  return toConditionDto(await findCondition(sequelize, principal.clientId, patientId, id));
}

/** Notes and state; `active: false` is the removal of 01 §4. */
export async function updatePatientCondition(
  sequelize: Sequelize,
  principal: StaffPrincipal,
  patientId: number,
  id: number,
  input: ConditionUpdate,
  now: Date,
) {
  await patientForWrite(principal, patientId, 'clinical.write');
  const row = await findCondition(sequelize, principal.clientId, patientId, id);
  if (input.active === false) return removeCondition(sequelize, row, now, input.notes);
  const activating = input.active === true && !row.active;
  await execute(
    sequelize,
    `UPDATE patient_conditions SET notes = :notes, active = :active, updated_at = :now${activating ? ', start_date = :now, end_date = NULL' : ''} WHERE id = :id`,
    { id, notes: input.notes !== undefined ? cleanNotes(input.notes) : row.notes, active: input.active ?? !!row.active, now },
  );
  return toConditionDto(await findCondition(sequelize, principal.clientId, patientId, id));
}

async function removeCondition(sequelize: Sequelize, row: ConditionRow, now: Date, notes?: string | null): Promise<PatientConditionDto> {
  const id = Number(row.condition_id);
  if (removalEffect(Number(row.priority)) === 'delete') {
    await execute(sequelize, 'DELETE FROM patient_conditions WHERE id = :id', { id });
    return { ...toConditionDto(row), active: false, end_date: now.toISOString(), removed: true };
  }
  await execute(
    sequelize,
    'UPDATE patient_conditions SET active = :active, notes = :notes, end_date = :now, updated_at = :now WHERE id = :id',
    {
      id,
      active: false,
      notes: notes !== undefined ? cleanNotes(notes) : row.notes,
      now,
    },
  );
  return {
    ...toConditionDto({ ...row, active: false, end_date: now, notes: notes !== undefined ? cleanNotes(notes) : row.notes }),
    removed: false,
  };
}

export async function deletePatientCondition(sequelize: Sequelize, principal: StaffPrincipal, patientId: number, id: number, now: Date) {
  await patientForWrite(principal, patientId, 'clinical.write');
  await removeCondition(sequelize, await findCondition(sequelize, principal.clientId, patientId, id), now);
}
