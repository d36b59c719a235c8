import type { Sequelize } from 'sequelize';
import { execute, insertReturningId, select } from '../../db/sql.js';
import { badRequest, conflict, notFound } from '../../http/errors.js';
import type { StaffPrincipal } from '../../http/auth.js';
import type { Catalogues } from '../catalogues/catalogues.service.js';
import { normaliseName, normaliseNid, validateNid } from '@vigia/contract/rules/validation';
import { patientForRead, patientForWrite } from '../observations/record-access.js';
import type { components } from '@vigia/contract/openapi';

type CaregiverDto = components['schemas']['Caregiver'];
type CaregiverInput = components['schemas']['CaregiverInput'];
type CaregiverUpdate = components['schemas']['CaregiverUpdate'];

export interface CaregiverDeps {
  sequelize: Sequelize;
  catalogues: Catalogues;
  now: () => Date;
}

interface CaregiverRow {
  id: number;
  id_type: number;
  nid: string;
  first_name: string;
  last_name: string;
  country_id: number;
  email: string | null;
  prefix: string | null;
  cellphone: string | null;
  notification: boolean | number;
  relationship: string | null;
}

const SAVED = { type: 'success' as const, message: 'Cuidador guardado correctamente' };

/** The one place a caregivers row becomes the contract's Caregiver. */
function toCaregiverDto(deps: CaregiverDeps, r: CaregiverRow): CaregiverDto {
  return {
    id: Number(r.id),
    id_type: Number(r.id_type),
    id_type_name: deps.catalogues.idType(Number(r.id_type))?.name ?? '',
    nid: r.nid,
    first_name: r.first_name,
    last_name: r.last_name,
    country_id: Number(r.country_id),
    country_name: deps.catalogues.country(Number(r.country_id))?.name ?? '',
    email: r.email,
    prefix: r.prefix,
    cellphone: r.cellphone,
    notification: !!r.notification,
    relationship: r.relationship,
  };
}

const SELECT_LINKED = `SELECT c.id, c.id_type, c.nid, c.first_name, c.last_name, c.country_id, c.email, c.prefix, c.cellphone, c.notification, pc.relationship
  FROM patient_caregivers pc JOIN caregivers c ON c.id = pc.caregiver_id`;

export async function listCaregivers(deps: CaregiverDeps, principal: StaffPrincipal, patientId: number) {
  await patientForRead(principal, patientId);
  const rows = await select<CaregiverRow>(
    deps.sequelize,
    `${SELECT_LINKED} WHERE pc.client_id = :clientId AND pc.patient_id = :patientId ORDER BY c.last_name, c.first_name, c.id`,
    {
      clientId: principal.clientId,
      patientId,
    },
  );
  return rows.map((r) => toCaregiverDto(deps, r));
}

/** Text upper-cased (01 §5), e-mail lower-cased and kept apart, document as the patients'. */
function normalise(v: CaregiverUpdate): CaregiverUpdate {
  const out: CaregiverUpdate = { ...v };
  if (out.first_name != null) out.first_name = normaliseName(out.first_name);
  if (out.last_name != null) out.last_name = normaliseName(out.last_name);
  if (out.nid != null) out.nid = normaliseNid(out.nid);
  if (typeof out.email === 'string') out.email = out.email.trim().toLowerCase() || null;
  if (out.relationship != null) out.relationship = out.relationship.trim() ? normaliseName(out.relationship) : null;
  return out;
}

function checkIdentity(deps: CaregiverDeps, countryId: number, idType: number, nid: string) {
  if (!deps.catalogues.country(countryId)) throw badRequest('country_id', 'El país no existe.');
  const type = deps.catalogues.idType(idType);
  if (!type || type.country_id !== countryId) throw badRequest('id_type', 'El tipo de documento no corresponde al país.');
  const message = validateNid(nid, type.validation_regex);
  if (message) throw badRequest('nid', message);
}

async function findLinked(deps: CaregiverDeps, clientId: number, patientId: number, caregiverId: number): Promise<CaregiverRow> {
  const [row] = await select<CaregiverRow>(
    deps.sequelize,
    `${SELECT_LINKED} WHERE pc.client_id = :clientId AND pc.patient_id = :patientId AND c.id = :caregiverId`,
    {
      clientId,
      patientId,
      caregiverId,
    },
  );
  if (!row) throw notFound('El cuidador no existe.');
  return row;
}

/** The client's caregiver, linked to the patient or not yet (then with no relationship); else 404. */
async function findOwn(
  deps: CaregiverDeps,
  clientId: number,
  patientId: number,
  caregiverId: number,
): Promise<CaregiverRow & { linked: boolean }> {
  const [row] = await select<CaregiverRow>(
    deps.sequelize,
    `SELECT c.id, c.id_type, c.nid, c.first_name, c.last_name, c.country_id, c.email, c.prefix, c.cellphone, c.notification, pc.relationship,
       pc.patient_id AS linked_patient
     FROM caregivers c LEFT JOIN patient_caregivers pc ON pc.caregiver_id = c.id AND pc.patient_id = :patientId
     WHERE c.client_id = :clientId AND c.id = :caregiverId`,
    { clientId, patientId, caregiverId },
  );
  if (!row) throw notFound('El cuidador no existe.');
  const { linked_patient, ...caregiver } = row as CaregiverRow & { linked_patient: number | null };
  return { ...caregiver, linked: linked_patient != null };
}

async function link(
  deps: CaregiverDeps,
  clientId: number,
  patientId: number,
  caregiverId: number,
  relationship: string | null | undefined,
) {
  const updated = await execute(
    deps.sequelize,
    'UPDATE patient_caregivers SET relationship = :relationship WHERE patient_id = :patientId AND caregiver_id = :caregiverId',
    {
      patientId,
      caregiverId,
      relationship: relationship ?? null,
    },
  );
  if (!updated) {
    await execute(
      deps.sequelize,
      'INSERT INTO patient_caregivers (patient_id, caregiver_id, client_id, relationship, created_at) VALUES (:patientId, :caregiverId, :clientId, :relationship, :now)',
      { patientId, caregiverId, clientId, relationship: relationship ?? null, now: deps.now() },
    );
  }
}

/**
 * A caregiver belongs to the client and may look after several patients: the same document
 * reuses (and updates) the existing caregiver, then links it with its relationship.
 */
export async function createCaregiver(deps: CaregiverDeps, principal: StaffPrincipal, patientId: number, raw: CaregiverInput) {
  await patientForWrite(principal, patientId, 'patients.edit');
  const v = normalise(raw) as CaregiverInput;
  checkIdentity(deps, v.country_id, v.id_type, v.nid);
  const now = deps.now();
  const fields = {
    clientId: principal.clientId,
    id_type: v.id_type,
    nid: v.nid,
    first_name: v.first_name,
    last_name: v.last_name,
    country_id: v.country_id,
    email: v.email ?? null,
    prefix: v.prefix,
    cellphone: v.cellphone,
    notification: v.notification ?? true,
    now,
  };
  const [existing] = await select<{ id: number }>(
    deps.sequelize,
    'SELECT id FROM caregivers WHERE client_id = :clientId AND id_type = :id_type AND nid = :nid',
    fields,
  );
  let id: number;
  if (existing) {
    id = Number(existing.id);
    await execute(
      deps.sequelize,
      `UPDATE caregivers SET first_name = :first_name, last_name = :last_name, country_id = :country_id, email = :email, prefix = :prefix,
       cellphone = :cellphone, notification = :notification, updated_at = :now WHERE id = :id`,
      { ...fields, id },
    );
  } else {
    id = await insertReturningId(
      deps.sequelize,
      `INSERT INTO caregivers (client_id, id_type, nid, first_name, last_name, country_id, email, prefix, cellphone, notification, created_at, updated_at)
       VALUES (:clientId, :id_type, :nid, :first_name, :last_name, :country_id, :email, :prefix, :cellphone, :notification, :now, :now) RETURNING id`,
      fields,
    );
  }
  await link(deps, principal.clientId, patientId, id, v.relationship);
  return { ...toCaregiverDto(deps, await findLinked(deps, principal.clientId, patientId, id)), notification_message: SAVED };
}

export async function updateCaregiver(
  deps: CaregiverDeps,
  principal: StaffPrincipal,
  patientId: number,
  caregiverId: number,
  raw: CaregiverUpdate,
) {
  await patientForWrite(principal, patientId, 'patients.edit');
  const current = await findOwn(deps, principal.clientId, patientId, caregiverId);
  const v = normalise(raw);
  const merged = { ...current, ...v };
  if (v.nid != null || v.id_type != null || v.country_id != null)
    checkIdentity(deps, Number(merged.country_id), Number(merged.id_type), merged.nid);
  const [dup] = await select<{ id: number }>(
    deps.sequelize,
    'SELECT id FROM caregivers WHERE client_id = :clientId AND id_type = :idType AND nid = :nid AND id <> :id',
    {
      clientId: principal.clientId,
      idType: merged.id_type,
      nid: merged.nid,
      id: caregiverId,
    },
  );
  if (dup) throw conflict('Ya existe un cuidador con ese tipo y número de documento.', 'nid');
  await execute(
    deps.sequelize,
    `UPDATE caregivers SET id_type = :id_type, nid = :nid, first_name = :first_name, last_name = :last_name, country_id = :country_id, email = :email,
     prefix = :prefix, cellphone = :cellphone, notification = :notification, updated_at = :now WHERE id = :id AND client_id = :clientId`,
    {
      id: caregiverId,
      clientId: principal.clientId,
      id_type: merged.id_type,
      nid: merged.nid,
      first_name: merged.first_name,
      last_name: merged.last_name,
      country_id: merged.country_id,
      email: merged.email ?? null,
      prefix: merged.prefix ?? null,
      cellphone: merged.cellphone ?? null,
      notification: !!merged.notification,
      now: deps.now(),
    },
  );
  // A caregiver of the client who looks after another patient is linked to this one too.
  if ('relationship' in v || !current.linked)
    await link(deps, principal.clientId, patientId, caregiverId, 'relationship' in v ? v.relationship : current.relationship);
  return { ...toCaregiverDto(deps, await findLinked(deps, principal.clientId, patientId, caregiverId)), notification_message: SAVED };
}

/**
 * 'set caregiver' (01 §7, `GET /patients/patient_id={id}/set_caregiver`): links a caregiver of the
 * client to the patient with a relationship. The same call as a PUT of the caregiver carrying only
 * the relationship: same guards, same effect, same answer.
 */
export async function setCaregiver(
  deps: CaregiverDeps,
  principal: StaffPrincipal,
  patientId: number,
  query: { caregiver_id: number; relationship?: string; patient_id?: number },
) {
  if (query.patient_id !== undefined && query.patient_id !== patientId)
    throw badRequest('patient_id', 'El paciente de la consulta no coincide con el de la ruta.');
  return updateCaregiver(
    deps,
    principal,
    patientId,
    query.caregiver_id,
    query.relationship !== undefined ? { relationship: query.relationship } : {},
  );
}

export async function unlinkCaregiver(deps: CaregiverDeps, principal: StaffPrincipal, patientId: number, caregiverId: number) {
  await patientForWrite(principal, patientId, 'patients.edit');
  await findLinked(deps, principal.clientId, patientId, caregiverId);
  await execute(deps.sequelize, 'DELETE FROM patient_caregivers WHERE patient_id = :patientId AND caregiver_id = :caregiverId', {
    patientId,
    caregiverId,
  });
}
