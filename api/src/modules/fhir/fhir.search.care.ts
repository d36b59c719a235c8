import { displayName } from '@vigia/contract/rules/names';
import { deviceFor, groupFor, relatedPersonFor, type FhirCaregiverRow, type FhirDeviceRow } from './fhir.mappers.js';
import { SearchError, relatedPersonKeyOf, rowIdOf } from './fhir.search.rules.js';
import {
  readRows,
  bind,
  dateParamConditions,
  groupCondition,
  idConditions,
  likeEscape,
  patientConditions,
  searchById,
  where,
  type Json,
  type Page,
  type SearchDeps,
  type SearchInput,
} from './fhir.search.sql.js';

/**
 * Read and search of the care around a patient (issue 37): Device (the gateways), RelatedPerson
 * (a caregiver of one patient) and Group (a tag and its patients). Same rules as fhir.search.ts:
 * bound parameters only, within the organisation, keyset pages.
 */

// ---------------------------------------------------------------- Device

/**
 * A single-patient gateway's patient: the patient whose card it is (patients.card_id, index
 * patients_client_card). A multipatient gateway serves several and names none.
 */
const DEVICE_PATIENT = `(SELECT MIN(dp.id) FROM patients dp WHERE dp.client_id = dv.client_id AND dp.card_id = dv.card_id)`;
const DEVICE_SELECT = `SELECT dv.id, dv.card_id, dv.name, dv.multipatient, dv.updated_at, ${DEVICE_PATIENT} AS patient_id`;
const DEVICE_FROM = 'FROM devices dv';

type DeviceDbRow = Omit<FhirDeviceRow, 'updated_at' | 'patient_id'> & { updated_at: string | Date; patient_id: number | string | null };
const deviceOf = (r: DeviceDbRow): Json =>
  deviceFor({
    ...r,
    id: Number(r.id),
    patient_id: r.patient_id == null ? null : Number(r.patient_id),
    updated_at: new Date(r.updated_at),
  });

export async function readDevice(deps: SearchDeps, clientId: number, id: string): Promise<Json | null> {
  const rowId = rowIdOf('d', id);
  if (rowId === null) return null;
  const [row] = await readRows<DeviceDbRow>(deps, `${DEVICE_SELECT} ${DEVICE_FROM} WHERE dv.id = :id AND dv.client_id = :clientId`, {
    id: rowId,
    clientId,
  });
  return row ? deviceOf(row) : null;
}

export async function searchDevices(deps: SearchDeps, clientId: number, input: SearchInput): Promise<Page> {
  const w = where(clientId);
  w.sql.push('dv.client_id = :clientId');
  const patientBound = input.params.has('patient') || input.groupId != null || input.compartment === true;
  if (patientBound) w.sql.push(`dv.multipatient = ${bind(w, false)}`);
  if (input.compartment) w.sql.push(`${DEVICE_PATIENT} IS NOT NULL`);
  patientConditions(w, DEVICE_PATIENT, input.params, ['patient']);
  groupCondition(w, DEVICE_PATIENT, input.groupId);
  idConditions(w, 'dv.id', 'd', input.params);
  dateParamConditions(w, 'dv.updated_at', '_lastUpdated', input.params);
  return searchById<DeviceDbRow>(deps, input, {
    cursorName: 'Device:_id',
    select: DEVICE_SELECT,
    from: DEVICE_FROM,
    idColumn: 'dv.id',
    where: w,
    map: async (rows) => rows.map(deviceOf),
  });
}

// ---------------------------------------------------------------- RelatedPerson

/**
 * patient_caregivers has no updated_at: a link's last update is the later of the caregiver's
 * last change and the link's creation (an edit of the relationship alone does not move it).
 */
const RELATED_UPDATED = 'CASE WHEN pc.created_at > cg.updated_at THEN pc.created_at ELSE cg.updated_at END';
const RELATED_SELECT = `SELECT pc.patient_id, pc.caregiver_id, pc.relationship, cg.first_name, cg.last_name, cg.email, cg.prefix,
  cg.cellphone, cg.nid, it.code AS id_type_code, it.name AS id_type_name, c.code AS country_code, ${RELATED_UPDATED} AS updated_at`;
const RELATED_FROM = `FROM patient_caregivers pc JOIN caregivers cg ON cg.id = pc.caregiver_id
  JOIN id_types it ON it.id = cg.id_type JOIN countries c ON c.id = it.country_id`;

type CaregiverDbRow = Omit<FhirCaregiverRow, 'display' | 'updated_at' | 'patient_id' | 'caregiver_id'> & {
  patient_id: number | string;
  caregiver_id: number | string;
  updated_at: string | Date;
};
const relatedPersonOf = (r: CaregiverDbRow): Json =>
  relatedPersonFor({
    ...r,
    patient_id: Number(r.patient_id),
    caregiver_id: Number(r.caregiver_id),
    updated_at: new Date(r.updated_at),
    display: displayName(`${r.first_name} ${r.last_name}`),
  });

export async function readRelatedPerson(deps: SearchDeps, clientId: number, id: string): Promise<Json | null> {
  const key = relatedPersonKeyOf(id);
  if (!key) return null;
  const [row] = await readRows<CaregiverDbRow>(
    deps,
    `${RELATED_SELECT} ${RELATED_FROM} WHERE pc.patient_id = :patientId AND pc.caregiver_id = :caregiverId AND pc.client_id = :clientId`,
    { patientId: key[0], caregiverId: key[1], clientId },
  );
  return row ? relatedPersonOf(row) : null;
}

export async function searchRelatedPersons(deps: SearchDeps, clientId: number, input: SearchInput): Promise<Page> {
  const w = where(clientId);
  w.sql.push('pc.client_id = :clientId');
  patientConditions(w, 'pc.patient_id', input.params, ['patient']);
  groupCondition(w, 'pc.patient_id', input.groupId);
  for (const raw of input.params.get('_id') ?? []) {
    const keys = raw.split(',').map(relatedPersonKeyOf);
    const alternatives = keys.map((k) => (k ? `(pc.patient_id = ${bind(w, k[0])} AND pc.caregiver_id = ${bind(w, k[1])})` : '1 = 0'));
    w.sql.push(`(${alternatives.join(' OR ')})`);
  }
  dateParamConditions(w, RELATED_UPDATED, '_lastUpdated', input.params);
  return searchById<CaregiverDbRow>(deps, input, {
    cursorName: 'RelatedPerson:_id',
    select: RELATED_SELECT,
    from: RELATED_FROM,
    // The link's primary key (patient_id, caregiver_id) orders and pages.
    idColumn: ['pc.patient_id', 'pc.caregiver_id'],
    keyOf: (r) => [Number(r.patient_id), Number(r.caregiver_id)],
    where: w,
    map: async (rows) => rows.map(relatedPersonOf),
  });
}

// ---------------------------------------------------------------- Group

interface TagDbRow {
  id: number | string;
  name: string;
  updated_at: string | Date;
}
const GROUP_SELECT = 'SELECT t.id, t.name, t.updated_at';
const GROUP_FROM = 'FROM tags t';

/** Each tag as a Group whose members are its patients of this organisation, in id order. */
async function groupsOf(deps: SearchDeps, clientId: number, rows: TagDbRow[]): Promise<Json[]> {
  if (!rows.length) return [];
  const links = await readRows<{ tag_id: number | string; patient_id: number | string }>(
    deps,
    `SELECT pt.tag_id, pt.patient_id FROM patient_tags pt JOIN patients p ON p.id = pt.patient_id
     WHERE pt.tag_id IN (:ids) AND p.client_id = :clientId ORDER BY pt.tag_id, pt.patient_id`,
    { ids: rows.map((r) => Number(r.id)), clientId },
  );
  const members = new Map<number, number[]>();
  for (const l of links) members.set(Number(l.tag_id), [...(members.get(Number(l.tag_id)) ?? []), Number(l.patient_id)]);
  return rows.map((r) => groupFor({ id: Number(r.id), name: r.name, updated_at: new Date(r.updated_at) }, members.get(Number(r.id)) ?? []));
}

export async function readGroup(deps: SearchDeps, clientId: number, id: string): Promise<Json | null> {
  const rowId = rowIdOf('g', id);
  if (rowId === null) return null;
  const rows = await readRows<TagDbRow>(deps, `${GROUP_SELECT} ${GROUP_FROM} WHERE t.id = :id AND t.client_id = :clientId`, {
    id: rowId,
    clientId,
  });
  return rows.length ? (await groupsOf(deps, clientId, rows))[0] : null;
}

export async function searchGroups(deps: SearchDeps, clientId: number, input: SearchInput): Promise<Page> {
  const w = where(clientId);
  w.sql.push('t.client_id = :clientId');
  if (input.groupId != null) w.sql.push(`t.id = ${bind(w, input.groupId)}`);
  idConditions(w, 't.id', 'g', input.params);
  for (const raw of input.params.get('name') ?? []) {
    // SQLite's LOWER and UPPER fold ASCII only: comparing both foldings finds 'DIABÉTICOS' and 'Diabéticos' by 'diabé'.
    const alternatives = raw.split(',').map((v) => {
      const text = likeEscape(v.trim());
      if (!text) throw new SearchError('name', 'name no puede estar vacío');
      const lower = bind(w, `${text.toLocaleLowerCase('es')}%`);
      const upper = bind(w, `${text.toLocaleUpperCase('es')}%`);
      return `(LOWER(t.name) LIKE ${lower} ESCAPE '\\' OR UPPER(t.name) LIKE ${upper} ESCAPE '\\')`;
    });
    w.sql.push(`(${alternatives.join(' OR ')})`);
  }
  dateParamConditions(w, 't.updated_at', '_lastUpdated', input.params);
  return searchById<TagDbRow>(deps, input, {
    cursorName: 'Group:_id',
    select: GROUP_SELECT,
    from: GROUP_FROM,
    idColumn: 't.id',
    where: w,
    map: (rows) => groupsOf(deps, clientId, rows),
  });
}
