import { Op, QueryTypes, literal, type Sequelize, type Transaction, type WhereOptions } from 'sequelize';
import type { applyPatientStatusChange } from '../orders/patient-status.js';
import type { endPatientSessions } from '../sessions/sessions.service.js';
import type { patientAdherence } from '../orders/adherence.js';
import type { patientPrescription } from '../orders/orders.queries.js';
import { INT_RANGE } from '@vigia/contract/rules/schema';
import { badRequest, conflict, forbidden, notFound } from '../../http/errors.js';
import type { ListParams } from '../../http/list-params.js';
import type { Principal, StaffPrincipal } from '../../http/auth.js';
import { can, patientPermissions, PATIENT_STATUS, PATIENT_STATUS_NAMES, type PatientPermissions } from '@vigia/contract/rules/access';
import { GENDERS, type Catalogues } from '../catalogues/catalogues.service.js';
import { toSearchKey } from '@vigia/contract/rules/names';
import { canSetMultipatientCard } from '@vigia/contract/rules/record';
import { Client } from '../../db/models/clients.model.js';
import type { assertTagsOwned, touchTags } from '../tags/tags.service.js';
import type { touchDevicesOfCards } from '../measurements/devices.service.js';
import type { attachDefaultAlarms, countOpenAlerts, setPatientAlarms } from '../alarms/alarms.service.js';
import { normaliseName, normaliseNid, validateNid, validateDate } from '@vigia/contract/rules/validation';
import { Patient } from '../../db/models/patients.model.js';
import { select } from '../../db/sql.js';
import * as rules from './patients.rules.js';
import { tagsOf } from './patient-tags.sql.js';
import type { PortalLocks } from '../otp/otp.service.js';
import type { components } from '@vigia/contract/openapi';
import { localDate, isValidTimeZone } from '@vigia/contract/rules/dates';

type PatientDto = components['schemas']['Patient'];
type PatientSummary = components['schemas']['PatientSummary'];
type PatientInput = components['schemas']['PatientInput'];
type PatientUpdate = components['schemas']['PatientUpdate'];
type WritablePatientUpdate = Omit<PatientUpdate, rules.PatientReadOnlyField>;
type TagRef = components['schemas']['TagRef'];

export interface PatientDeps {
  sequelize: Sequelize;
  catalogues: Catalogues;
  now: () => Date;
  portalLocks: PortalLocks;
  // What the tags, alarms and orders modules keep about a patient: given by the composition root
  // (app.ts) because those modules read patients themselves, so patients cannot import them.
  assertTagsOwned: typeof assertTagsOwned;
  /** A FHIR Group is a tag and a Device a gateway (issue 37): a changed link updates them, in their owners. */
  touchTags: typeof touchTags;
  touchDevicesOfCards: typeof touchDevicesOfCards;
  attachDefaultAlarms: typeof attachDefaultAlarms;
  setPatientAlarms: typeof setPatientAlarms;
  countOpenAlerts: typeof countOpenAlerts;
  patientAdherence: typeof patientAdherence;
  patientPrescription: typeof patientPrescription;
  applyPatientStatusChange: typeof applyPatientStatusChange;
  /** The sessions module ends a patient's portal sessions (it writes sessions). */
  endPatientSessions: typeof endPatientSessions;
  /** Enrolment writes the patient's RDA de paciente (issue 51; module rdas), with the enrolment's transaction. */
  onPatientEnrolled?: (ids: { clientId: number; patientId: number; userId: number }, transaction: Transaction) => Promise<void>;
}

const SORTABLE = new Set(['id', 'first_name', 'last_name', 'nid', 'birth_date', 'status', 'created_at']);
const NO_PERMISSIONS: PatientPermissions = {
  edit: false,
  add_tags: false,
  add_tag: false,
  change_status: false,
  set_deceased: false,
  manage_activities: false,
  get_reports: false,
  config_alerts: false,
  create_order: false,
};

/** The one place a patients row becomes the contract's PatientSummary. */
function toPatientSummary(deps: PatientDeps, p: Patient, tags: TagRef[]): PatientSummary {
  return {
    id: p.id,
    id_type: p.id_type,
    id_type_name: deps.catalogues.idType(p.id_type)?.name ?? '',
    nid: p.nid,
    first_name: p.first_name,
    last_name: p.last_name,
    full_name: `${p.first_name} ${p.last_name}`,
    country_id: p.country_id,
    birth_date: p.birth_date,
    age: rules.ageOn(p.birth_date, localDate(deps.now(), p.time_zone)),
    gender: p.gender as PatientSummary['gender'],
    gender_name: GENDERS[p.gender] ?? 'Otro',
    status: p.status as PatientSummary['status'],
    status_name: PATIENT_STATUS_NAMES[p.status] ?? '',
    cellphone: p.cellphone,
    prefix: p.prefix,
    email: p.email,
    address: p.address,
    gateway: !!(p.card_id || p.multipatient_card_id),
    eapb_name: deps.catalogues.eapb(p.eapb_id)?.name ?? null,
    regime_name: deps.catalogues.named('regimes', p.regime),
    tags,
  };
}

/** The one place a patients row becomes the contract's Patient. */
function toPatientDto(
  deps: PatientDeps,
  p: Patient,
  tags: TagRef[],
  permissions: PatientPermissions,
  portalLockedUntil: Date | null,
): PatientDto {
  const c = deps.catalogues;
  return {
    ...toPatientSummary(deps, p, tags),
    country_name: c.country(p.country_id)?.name ?? '',
    city_id: p.city_id,
    city_name: c.city(p.city_id)?.name ?? null,
    blood_type: p.blood_type,
    blood_type_name: c.named('blood_types', p.blood_type),
    rh_factor: p.rh_factor,
    rh_factor_name: c.named('rh_factors', p.rh_factor),
    eapb_id: p.eapb_id,
    regime: p.regime,
    time_zone: p.time_zone,
    clinic_history: p.clinic_history,
    neighborhood: p.neighborhood,
    tag_ids: tags.map((t) => t.id),
    // Alerts, prescriptions and adherence are filled by the clinical work-flow issues.
    active_alerts_count: 0,
    card_id: p.card_id,
    multipatient_card_id: p.multipatient_card_id,
    resiplus_data: p.resiplus_data,
    resiplus_code: p.resiplus_code,
    resiplus_id: p.resiplus_id,
    occupation: p.occupation,
    occupation_name: c.named('occupations', p.occupation),
    scholarship: p.scholarship,
    scholarship_name: c.named('scholarships', p.scholarship),
    civil_status: p.civil_status,
    civil_status_name: c.named('civil_statuses', p.civil_status),
    medications_prescription: [],
    vitals_prescription: [],
    measurements_adherence: null,
    permissions,
    portal_locked_until: portalLockedUntil?.toISOString() ?? null,
    biological_sex: p.biological_sex ?? null,
    biological_sex_name: c.code('biological_sexes', p.biological_sex)?.name ?? null,
    gender_identity: p.gender_identity ?? null,
    gender_identity_name: c.code('gender_identities', p.gender_identity)?.name ?? null,
    residence_zone: p.residence_zone ?? null,
    residence_zone_name: c.code('residence_zones', p.residence_zone)?.name ?? null,
    nationality: p.nationality ?? null,
    nationality_name: c.code('nationalities', p.nationality)?.name ?? null,
    ethnicity: p.ethnicity ?? null,
    ethnicity_name: c.code('ethnicities', p.ethnicity)?.name ?? null,
    ethnic_community: p.ethnic_community ?? null,
    disabilities: rules.readCodes(p.disabilities ?? null),
  };
}

/** Keeps the word index of a patient's name in step with the record, in the same transaction. */
async function writeSearchTerms(sequelize: Sequelize, p: Patient, transaction: Transaction): Promise<void> {
  await sequelize.query('DELETE FROM patient_search_terms WHERE patient_id = :id', { replacements: { id: p.id }, transaction });
  const rows = rules.searchTerms(p.search_name).map((term) => ({ client_id: p.client_id, term, patient_id: p.id }));
  if (rows.length) await sequelize.getQueryInterface().bulkInsert('patient_search_terms', rows, { transaction });
}

/** Tenancy (D14): a patient of another client is answered exactly like a missing one. */
export async function findPatient(clientId: number, id: number): Promise<Patient> {
  const p = await Patient.findOne({ where: { id, client_id: clientId } });
  if (!p) throw notFound('El paciente no existe.');
  return p;
}

/**
 * PostgreSQL (P193): the page's ids first, from an index alone, then those rows; the count beside
 * them. Asked for whole rows in id order, its planner walked the primary key from the newest
 * patient, reading every row of the clients created after this one (100,000 in the benchmark).
 */
async function pageByIds(where: WhereOptions<Patient>, order: Array<[string, string]>, offset: number, limit: number) {
  const [ids, count] = await Promise.all([
    Patient.findAll({ attributes: ['id'], where, order, offset, limit, raw: true }),
    Patient.count({ where }),
  ]);
  return { rows: await rowsOf(ids, order), count };
}

/** The page's whole rows, for the ids an index gave, in the page's order. */
async function rowsOf(ids: Array<{ id: number }>, order: Array<[string, string]>) {
  return ids.length ? Patient.findAll({ where: { id: ids.map((r) => r.id) }, order }) : [];
}

/**
 * PostgreSQL (P193): a name search with no other filter, in id order, counted and paged from the
 * word index alone (`matches` selects the patient ids, each possibly more than once); then the
 * page's rows.
 */
async function pageByTerms(sequelize: Sequelize, matches: string, direction: string, offset: number, limit: number) {
  const dir = direction.toUpperCase() === 'ASC' ? 'ASC' : 'DESC';
  const [ids, [{ n }]] = await Promise.all([
    // OFFSET 0 keeps the matches a set of their own: flattened, the planner walked the patient_id
    // index of the word table backwards through every other client's words (98 ms for 'cast').
    sequelize.query<{ id: number }>(
      `SELECT DISTINCT patient_id AS id FROM (${matches} OFFSET 0) m ORDER BY patient_id ${dir} LIMIT :limit OFFSET :offset`,
      { replacements: { limit, offset }, type: QueryTypes.SELECT },
    ),
    sequelize.query<{ n: string }>(`SELECT COUNT(DISTINCT patient_id) AS n FROM (${matches}) m`, { type: QueryTypes.SELECT }),
  ]);
  return { rows: await rowsOf(ids, [['id', dir]]), count: Number(n) };
}

export async function listPatients(deps: PatientDeps, clientId: number, p: ListParams, filters: { status?: number; tags?: string }) {
  const postgres = deps.sequelize.getDialect() === 'postgres';
  const where: WhereOptions<Patient> & Record<string | symbol, unknown> = { client_id: clientId };
  if (filters.status != null) where.status = filters.status;
  const and: unknown[] = [];
  let matches: string | null = null;
  if (filters.tags) {
    const ids = filters.tags.split(',').map(Number);
    // The contract's pattern lets any digits through; an id is a 32-bit integer (issue 18).
    if (ids.some((id) => !Number.isInteger(id) || id > INT_RANGE.maximum))
      throw badRequest('tags', 'Hay un id de etiqueta fuera de rango.');
    and.push(literal(`EXISTS (SELECT 1 FROM patient_tags pt WHERE pt.patient_id = "Patient"."id" AND pt.tag_id IN (${ids.join(',')}))`));
  }
  if (p.q) {
    const query = rules.parsePatientQuery(normaliseNid(p.q), toSearchKey(p.q));
    if (query.kind === 'document') {
      and.push({ nid: { [Op.gte]: query.prefix, [Op.lt]: `${query.prefix}\uffff` } });
    } else if (query.kind === 'name') {
      // Each word must start some word of the name: one index range per word.
      const ranges = query.words.map(
        (word) =>
          `SELECT patient_id FROM patient_search_terms WHERE client_id = ${clientId} AND term >= ${deps.sequelize.escape(word)} AND term < ${deps.sequelize.escape(`${word}\uffff`)}`,
      );
      // PostgreSQL (P193): the matches as one array, so the plan starts from them. As IN, it walked
      // an index of patients in id order waiting to meet them (this client's ids all below the other's).
      if (postgres) {
        matches = ranges.join(' INTERSECT ');
        and.push(literal(`"Patient"."id" = ANY(ARRAY(${matches}))`));
      } else for (const range of ranges) and.push(literal(`"Patient"."id" IN (${range})`));
    }
  }
  if (and.length) where[Op.and] = and;
  const sort = p.sort && SORTABLE.has(p.sort) ? p.sort : 'id';
  const order: Array<[string, string]> = [
    [sort, p.sort ? p.order : 'DESC'],
    ['id', 'DESC'],
  ];
  // A name search alone in id order is answered by the word index: a client's terms are its patients'.
  const termsOnly = matches && and.length === 1 && filters.status == null && sort === 'id';
  const { rows, count } = !postgres
    ? await Patient.findAndCountAll({ where, order, offset: p.offset, limit: p.limit })
    : termsOnly
      ? await pageByTerms(deps.sequelize, matches!, order[0][1], p.offset, p.limit)
      : await pageByIds(where, order, p.offset, p.limit);
  const tags = await tagsOf(
    deps.sequelize,
    rows.map((r) => r.id),
  );
  return { rows: rows.map((r) => toPatientSummary(deps, r, tags.get(r.id) ?? [])), total: count };
}

export async function getPatient(deps: PatientDeps, principal: Principal, id: number): Promise<PatientDto> {
  // A patient's token reaches only that patient's own record, and of it only what the portal shows
  // (P146): no staff tags, no alert count, no permissions, no portal lock.
  if (principal.kind === 'patient' && principal.patientId !== id) throw notFound('El paciente no existe.');
  const staff = principal.kind === 'staff';
  const p = await findPatient(principal.clientId, id);
  const permissions = staff ? patientPermissions(principal.role, p.status) : NO_PERMISSIONS;
  const lockedUntil = staff ? await deps.portalLocks.lockedUntil(p.nid) : null;
  const tags = staff ? ((await tagsOf(deps.sequelize, [p.id])).get(p.id) ?? []) : [];
  const dto = toPatientDto(deps, p, tags, permissions, lockedUntil);
  const [alerts, adherence, prescription] = await Promise.all([
    staff ? deps.countOpenAlerts(deps.sequelize, p.id) : null,
    deps.patientAdherence(deps.sequelize, p.id, deps.now()),
    deps.patientPrescription(deps, principal.clientId, p.id),
  ]);
  return {
    ...dto,
    active_alerts_count: alerts,
    measurements_adherence: adherence,
    medications_prescription: prescription.medications,
    vitals_prescription: prescription.vitals,
  };
}

/** Staff lift the portal lock of a patient's document (D17) before the 24 hours pass. */
export async function unlockPortal(deps: PatientDeps, principal: StaffPrincipal, id: number) {
  const p = await findPatient(principal.clientId, id);
  if (p.status === PATIENT_STATUS.deceased) throw forbidden('El paciente está registrado como fallecido; su ficha no admite cambios.');
  if (!patientPermissions(principal.role, p.status).edit) throw forbidden();
  await deps.portalLocks.unlock(p.nid);
  return { type: 'success' as const, message: 'Acceso al portal desbloqueado. El paciente puede solicitar un nuevo código.' };
}

export async function validatePatient(clientId: number, idType: number, nid: string) {
  const p = await Patient.findOne({ where: { client_id: clientId, id_type: idType, nid: normaliseNid(nid) }, attributes: ['id'] });
  if (!p) throw notFound('No existe un paciente con ese documento. Puede registrarlo.');
  return { id: p.id, message: 'El paciente ya está registrado.' };
}

function checkIdentity(deps: PatientDeps, countryId: number, idType: number, nid: string) {
  if (!deps.catalogues.country(countryId)) throw badRequest('country_id', 'El país no existe.');
  const type = deps.catalogues.idType(idType);
  if (!type || type.country_id !== countryId) throw badRequest('id_type', 'El tipo de documento no corresponde al país.');
  const message = validateNid(nid, type.validation_regex);
  if (message) throw badRequest('nid', message);
}

function checkReferences(deps: PatientDeps, v: Partial<PatientInput & PatientUpdate>, countryId: number) {
  const c = deps.catalogues;
  if (v.city_id != null && c.city(v.city_id)?.country_id !== countryId) throw badRequest('city_id', 'La ciudad no corresponde al país.');
  if (v.eapb_id != null && !c.eapb(v.eapb_id)) throw badRequest('eapb_id', 'La aseguradora no existe.');
  for (const [field, table] of [
    ['blood_type', 'blood_types'],
    ['rh_factor', 'rh_factors'],
    ['regime', 'regimes'],
    ['occupation', 'occupations'],
    ['scholarship', 'scholarships'],
    ['civil_status', 'civil_statuses'],
  ] as const) {
    const value = v[field as keyof typeof v] as number | null | undefined;
    if (value != null && !c.named(table, value)) throw badRequest(field, 'El valor seleccionado no existe.');
  }
  // RDA lists (issue 51): a code the guide does not list is refused, named by its field.
  for (const [field, list] of rules.PATIENT_CODE_FIELDS) {
    const value = v[field];
    if (value != null && !c.code(list, value)) throw badRequest(field, 'El valor seleccionado no existe.');
  }
  if (v.disabilities) {
    const unknown = v.disabilities.find((code) => !c.code('disabilities', code));
    if (unknown) throw badRequest('disabilities', `La discapacidad '${unknown}' no existe.`);
    const problem = rules.checkDisabilities(v.disabilities);
    if (problem) throw badRequest('disabilities', problem);
  }
  if (v.time_zone != null && !isValidTimeZone(v.time_zone)) throw badRequest('time_zone', 'Zona horaria no válida');
  if (v.birth_date != null) {
    const msg = validateDate(v.birth_date, 'birth', localDate(deps.now(), v.time_zone ?? 'UTC'));
    if (msg) throw badRequest('birth_date', msg);
  }
  // Insurer and regime belong to Colombia's health system only (01 §5).
  if (countryId !== 26 && (v.eapb_id != null || v.regime != null))
    throw badRequest(v.eapb_id != null ? 'eapb_id' : 'regime', 'La aseguradora y el régimen aplican solo para Colombia.');
}

const upperOrNull = (v: string | null | undefined) => (v == null ? v : v.trim() === '' ? null : normaliseName(v));

/** Text is stored upper-cased (01 §5); e-mail is kept as typed but lower-cased. */
function normaliseInput<T extends Partial<PatientInput & PatientUpdate>>(v: T): T {
  const out: Record<string, unknown> = { ...v };
  for (const f of ['first_name', 'last_name', 'address', 'neighborhood', 'ethnic_community'] as const)
    if (f in out) out[f] = upperOrNull(out[f] as string | null | undefined);
  if (out.nid != null) out.nid = normaliseNid(out.nid as string);
  if (typeof out.email === 'string') out.email = out.email.trim().toLowerCase() || null;
  if (typeof out.cellphone === 'string') out.cellphone = out.cellphone.trim() || null;
  return out as T;
}

export async function createPatient(deps: PatientDeps, principal: StaffPrincipal, raw: PatientInput): Promise<PatientDto> {
  if (!can(principal.role, 'patients.create')) throw forbidden();
  const input = normaliseInput(raw);
  checkIdentity(deps, input.country_id, input.id_type, input.nid);
  checkReferences(deps, input, input.country_id);
  const client = await Client.findByPk(principal.clientId);
  const tagIds = input.tag_ids ?? [];
  await deps.assertTagsOwned(principal.clientId, tagIds);
  const exists = await Patient.findOne({
    where: { client_id: principal.clientId, id_type: input.id_type, nid: input.nid },
    attributes: ['id'],
  });
  if (exists) throw conflict('Ya existe un paciente con ese tipo y número de documento.', 'nid');
  const created = await deps.sequelize.transaction(async (transaction) => {
    const { tag_ids: _tags, disabilities, ...fields } = input;
    const p = await Patient.create(
      {
        ...fields,
        disabilities: rules.storeCodes(disabilities),
        client_id: principal.clientId,
        search_name: toSearchKey(`${input.first_name} ${input.last_name}`),
        time_zone: input.time_zone ?? client?.time_zone ?? deps.catalogues.country(input.country_id)?.time_zone ?? 'UTC',
        status: rules.initialStatus(input),
        city_id: input.city_id ?? null,
        blood_type: input.blood_type ?? null,
        rh_factor: input.rh_factor ?? null,
        eapb_id: input.eapb_id ?? null,
        regime: input.regime ?? null,
        clinic_history: input.clinic_history ?? null,
        address: input.address ?? null,
        neighborhood: input.neighborhood ?? null,
        prefix: input.prefix ?? null,
        cellphone: input.cellphone ?? null,
        email: input.email ?? null,
        card_id: null,
        multipatient_card_id: null,
        resiplus_data: null,
        resiplus_code: null,
        resiplus_id: null,
        occupation: null,
        scholarship: null,
        civil_status: null,
        deceased_at: null,
      },
      { transaction },
    );
    if (tagIds.length) {
      await deps.touchTags(deps.sequelize, principal.clientId, [...new Set(tagIds)], deps.now(), transaction);
      await deps.sequelize.getQueryInterface().bulkInsert(
        'patient_tags',
        [...new Set(tagIds)].map((tag_id) => ({ patient_id: p.id, tag_id })),
        { transaction },
      );
    }
    await writeSearchTerms(deps.sequelize, p, transaction);
    await deps.attachDefaultAlarms(deps.sequelize, principal.clientId, p.id, transaction);
    await deps.onPatientEnrolled?.({ clientId: principal.clientId, patientId: p.id, userId: principal.userId }, transaction);
    return p;
  });
  return getPatient(deps, principal, created.id);
}

/** Which permission a partial update needs, from the fields it carries (01 §6). */
function requiredPermissions(body: WritablePatientUpdate, current: number): Array<keyof PatientPermissions> {
  const needs = new Set<keyof PatientPermissions>();
  for (const key of Object.keys(body)) {
    if (key === 'status')
      needs.add(body.status === PATIENT_STATUS.deceased ? 'set_deceased' : body.status === current ? 'edit' : 'change_status');
    else if (key === 'clinic_history' || key === 'tag_ids') needs.add('add_tags');
    else if (key === 'alarm_ids') needs.add('config_alerts');
    else needs.add('edit');
  }
  return [...needs];
}

/**
 * Every status change, asked for or implied by contact data (D9), is logged for the status-changes
 * report and carried to the patient's orders and activities in the same transaction.
 */
async function recordStatusChange(deps: PatientDeps, p: Patient, from: number, userId: number, transaction: Transaction) {
  const now = deps.now();
  await deps.sequelize.query(
    'INSERT INTO patient_status_changes (patient_id, client_id, from_status, to_status, user_id, created_at) VALUES (:patient, :client, :from, :to, :user, :now)',
    { replacements: { patient: p.id, client: p.client_id, from, to: p.status, user: userId, now }, transaction },
  );
  await deps.applyPatientStatusChange(
    { sequelize: deps.sequelize, transaction, now },
    { patient_id: p.id, client_id: p.client_id, from, to: p.status },
  );
  // A deceased patient cannot use the portal (P9): its open portal sessions end with the record.
  if (p.status === PATIENT_STATUS.deceased) {
    await deps.endPatientSessions(deps.sequelize, p.id, now, transaction);
  }
}

export async function updatePatient(deps: PatientDeps, principal: StaffPrincipal, id: number, sent: PatientUpdate) {
  const p = await findPatient(principal.clientId, id);
  if (p.status === PATIENT_STATUS.deceased) throw forbidden('El paciente está registrado como fallecido; su ficha no admite cambios.');
  const permissions = patientPermissions(principal.role, p.status);
  // The whole record as read back (01 §7, declaring death): its read-only fields must be unchanged.
  const current = rules.sendsReadOnlyField(sent)
    ? toPatientDto(deps, p, (await tagsOf(deps.sequelize, [p.id])).get(p.id) ?? [], permissions, null)
    : {};
  const split = rules.dropReadOnlyFields(sent, current);
  if (!split.ok) throw badRequest(split.field, split.message);
  const raw = split.body;
  for (const perm of requiredPermissions(raw, p.status)) if (!permissions[perm]) throw forbidden();
  const input = normaliseInput(raw);
  const countryId = input.country_id ?? p.country_id;
  if (input.nid != null || input.id_type != null || input.country_id != null) {
    checkIdentity(deps, countryId, input.id_type ?? p.id_type, input.nid ?? p.nid);
  }
  checkReferences(deps, input, countryId);
  if (input.tag_ids) await deps.assertTagsOwned(principal.clientId, input.tag_ids);
  if (input.multipatient_card_id) {
    // 01 §5: only for a multi-patient client, and only while the patient has no single-patient gateway.
    const client = await Client.findByPk(principal.clientId, { attributes: ['multipatient'] });
    const cardId = input.card_id !== undefined ? input.card_id : p.card_id;
    if (!canSetMultipatientCard(!!client?.multipatient, { card_id: cardId ?? null })) {
      throw badRequest(
        'multipatient_card_id',
        client?.multipatient
          ? 'El paciente ya tiene un gateway asignado; quítelo antes de asignar una tarjeta multipaciente.'
          : 'Este cliente no admite tarjetas multipaciente.',
      );
    }
  }
  const { tag_ids, alarm_ids, status: requested, disabilities, ...fields } = input;
  const merged = { ...p.get({ plain: true }), ...fields } as Patient;
  const change = rules.nextStatus(p.status, requested, merged);
  if (!change.ok) throw forbidden(change.message);
  if (input.nid != null || input.id_type != null) {
    const dup = await Patient.findOne({
      where: { client_id: principal.clientId, id_type: merged.id_type, nid: merged.nid, id: { [Op.ne]: id } },
      attributes: ['id'],
    });
    if (dup) throw conflict('Ya existe un paciente con ese tipo y número de documento.', 'nid');
  }
  const previousSearchName = p.search_name;
  const previousStatus = p.status;
  const previousCardId = p.card_id;
  await deps.sequelize.transaction(async (transaction) => {
    p.set({
      ...fields,
      status: change.status,
      ...(disabilities !== undefined ? { disabilities: rules.storeCodes(disabilities) } : {}),
      search_name: toSearchKey(`${merged.first_name} ${merged.last_name}`),
      ...(change.status === PATIENT_STATUS.deceased ? { deceased_at: deps.now() } : {}),
    } as Partial<Patient>);
    await p.save({ transaction });
    if (p.search_name !== previousSearchName) await writeSearchTerms(deps.sequelize, p, transaction);
    // A FHIR Device's patient is the one whose card_id is the gateway's (issue 37): a gateway that
    // changed hands was updated, for `_lastUpdated` and an export's `_since`.
    if (p.card_id !== previousCardId)
      await deps.touchDevicesOfCards(
        deps.sequelize,
        principal.clientId,
        [previousCardId, p.card_id].filter((c): c is string => !!c),
        deps.now(),
        transaction,
      );
    if (alarm_ids) await deps.setPatientAlarms(deps.sequelize, principal.clientId, id, alarm_ids, transaction);
    if (change.status !== previousStatus) await recordStatusChange(deps, p, previousStatus, principal.userId, transaction);
    if (tag_ids) {
      const before = await select<{ tag_id: number | string }>(
        deps.sequelize,
        'SELECT tag_id FROM patient_tags WHERE patient_id = :id',
        { id },
        transaction,
      );
      const changed = rules.changedTags(
        before.map((r) => Number(r.tag_id)),
        tag_ids,
      );
      await deps.touchTags(deps.sequelize, principal.clientId, changed, deps.now(), transaction);
      await deps.sequelize.query('DELETE FROM patient_tags WHERE patient_id = :id', { replacements: { id }, transaction });
      if (tag_ids.length) {
        await deps.sequelize.getQueryInterface().bulkInsert(
          'patient_tags',
          [...new Set(tag_ids)].map((tag_id) => ({ patient_id: id, tag_id })),
          { transaction },
        );
      }
    }
  });
  const dto = await getPatient(deps, principal, id);
  return { ...dto, notification: { type: 'success' as const, message: rules.updateMessage(previousStatus, change.status) } };
}
