import { displayName, toSearchKey } from '@vigia/contract/rules/names';
import { BLOOD_PRESSURE_PANEL_LOINC, CLINICAL_ELEMENTS, MEASUREMENT_STATUS } from '@vigia/contract/rules/vitals';
import { PATIENT_STATUS } from '@vigia/contract/rules/access';
import { prepared } from '../../db/sql.js';
import {
  conditionFor,
  detectedIssueFor,
  observationFor,
  patientFor,
  type FhirConditionRow,
  type FhirMeasurement,
  type FhirPatientRef,
  type FhirPatientRow,
} from './fhir.mappers.js';
import {
  DEFAULT_COUNT,
  SearchError,
  dayConditions,
  decodeCursor,
  encodeCursor,
  observationKeyOf,
  parseBoolean,
  parseCount,
  parseTokens,
  rowIdOf,
  type CursorPart,
  type SearchType,
} from './fhir.search.rules.js';
import {
  readRows,
  bind,
  countOf,
  dateParamConditions,
  dayOf,
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
  type Where,
} from './fhir.search.sql.js';
import { readDevice, readGroup, readRelatedPerson, searchDevices, searchGroups, searchRelatedPersons } from './fhir.search.care.js';
import { readMedicationRequest, readServiceRequest, searchMedicationRequests, searchServiceRequests } from './fhir.search.orders.js';
import { readComposition, searchCompositions } from './fhir.search.documents.js';

export type { Page, SearchDeps, SearchInput } from './fhir.search.sql.js';
export { patientBound } from './fhir.search.rules.js';

/**
 * Reads and searches of the FHIR API (issue 37): SQL with bound parameters only, always within the
 * token's organisation, paged by keyset (the cursor carries the last row's sort key and id, so any
 * page costs what the first does: measurements_patient_when (patient_id, when, id) for a patient's
 * readings, (client_id, when) for the organisation's, patients (client_id, id) for patients).
 */

const LOINC = 'http://loinc.org';
const OBSERVATION_CATEGORY = 'http://terminology.hl7.org/CodeSystem/observation-category';
const ID_TYPE_SYSTEM = /^urn:vigia:id-type:([^:]+):([^:]+)$/;

/**
 * Rows by their ids, still checked against the organisation. The unary plus keeps the organisation
 * out of index choice: given `client_id = ? AND id IN (…)`, SQLite picked the (client_id, when)
 * index and scanned every reading of the organisation for each page (120–190 ms a page at 20,000
 * patients, helper E's bench); the primary key finds the ids at once. PostgreSQL already did.
 */
const BY_ID_IN_CLIENT = (alias: string) => `+${alias}.client_id = :clientId AND ${alias}.id IN (:ids)`;

const PATIENT_SELECT = `SELECT p.id, p.nid, p.first_name, p.last_name, p.birth_date, p.gender, p.status, p.updated_at,
  it.code AS id_type_code, it.name AS id_type_name, c.code AS country_code
  FROM patients p JOIN id_types it ON it.id = p.id_type JOIN countries c ON c.id = it.country_id`;

type PatientDbRow = Omit<FhirPatientRow, 'display' | 'birth_date' | 'updated_at'> & { birth_date: unknown; updated_at: string | Date };

function patientRowOf(r: PatientDbRow): FhirPatientRow {
  return {
    ...r,
    id: Number(r.id),
    gender: Number(r.gender),
    status: Number(r.status),
    birth_date: dayOf(r.birth_date),
    updated_at: new Date(r.updated_at),
    display: displayName(`${r.first_name} ${r.last_name}`),
  };
}

export async function readPatient(deps: SearchDeps, clientId: number, id: string): Promise<Json | null> {
  const rowId = rowIdOf('p', id);
  if (rowId === null) return null;
  const [row] = await readRows<PatientDbRow>(deps, `${PATIENT_SELECT} WHERE p.id = :id AND p.client_id = :clientId`, {
    id: rowId,
    clientId,
  });
  return row ? patientFor(patientRowOf(row)) : null;
}

/** `_count`, `_summary` and `_total`, common to every type. */
export function commonInput(params: Map<string, string[]>): SearchInput {
  const last = (name: string) => params.get(name)?.at(-1);
  const countRaw = last('_count');
  const count = countRaw === undefined ? DEFAULT_COUNT : parseCount(countRaw);
  const summary = last('_summary');
  if (summary !== undefined && summary !== 'count' && summary !== 'false')
    throw new SearchError('_summary', '_summary admite solo count o false');
  const format = last('_format');
  if (format !== undefined && !['json', 'application/json', 'application/fhir+json'].includes(format))
    throw new SearchError('_format', '_format admite solo json (application/fhir+json)');
  const total = last('_total');
  if (total !== undefined && !['none', 'estimate', 'accurate'].includes(total))
    throw new SearchError('_total', '_total admite none, estimate o accurate');
  return { params, count, summaryCount: summary === 'count', wantTotal: summary === 'count' || total === 'accurate' };
}

function patientWhere(clientId: number, params: Map<string, string[]>, groupId: number | null | undefined): Where {
  const w = where(clientId);
  w.sql.push('p.client_id = :clientId');
  groupCondition(w, 'p.id', groupId);
  idConditions(w, 'p.id', 'p', params);
  for (const raw of params.get('identifier') ?? []) {
    const alternatives = parseTokens('identifier', raw).map((t) => {
      if (t.code === null) return '1 = 0';
      if (t.system === null) return `p.nid = ${bind(w, t.code)}`;
      const m = ID_TYPE_SYSTEM.exec(t.system);
      if (!m) return '1 = 0';
      return `(c.code = ${bind(w, m[1])} AND it.code = ${bind(w, m[2])} AND p.nid = ${bind(w, t.code)})`;
    });
    w.sql.push(`(${alternatives.join(' OR ')})`);
  }
  for (const raw of params.get('name') ?? []) {
    const alternatives = raw.split(',').map((v) => {
      const key = likeEscape(toSearchKey(v));
      if (!key) throw new SearchError('name', 'name no puede estar vacío');
      return `(p.search_name LIKE ${bind(w, `${key}%`)} ESCAPE '\\' OR p.search_name LIKE ${bind(w, `% ${key}%`)} ESCAPE '\\')`;
    });
    w.sql.push(`(${alternatives.join(' OR ')})`);
  }
  for (const raw of params.get('family') ?? []) {
    const alternatives = raw.split(',').map((v) => {
      const text = v.trim().toLocaleUpperCase('es');
      if (!text) throw new SearchError('family', 'family no puede estar vacío');
      return `p.last_name LIKE ${bind(w, `${likeEscape(text)}%`)} ESCAPE '\\'`;
    });
    w.sql.push(`(${alternatives.join(' OR ')})`);
  }
  for (const raw of params.get('birthdate') ?? [])
    for (const c of dayConditions('birthdate', raw)) w.sql.push(`p.birth_date ${c.op} ${bind(w, c.day)}`);
  for (const raw of params.get('active') ?? [])
    w.sql.push(parseBoolean('active', raw) ? `p.status <> ${PATIENT_STATUS.inactive}` : `p.status = ${PATIENT_STATUS.inactive}`);
  dateParamConditions(w, 'p.updated_at', '_lastUpdated', params);
  return w;
}

/** Patients by id (keyset on patients (client_id, id)). */
export async function searchPatients(deps: SearchDeps, clientId: number, input: SearchInput): Promise<Page> {
  const w = patientWhere(clientId, input.params, input.groupId);
  const from = 'FROM patients p JOIN id_types it ON it.id = p.id_type JOIN countries c ON c.id = it.country_id';
  const total = input.wantTotal ? await countOf(deps, from, w) : null;
  if (input.summaryCount || input.count === 0) return { resources: [], next: null, total };
  const cursor = input.params.get('_cursor')?.at(-1);
  if (cursor !== undefined) {
    const [after] = decodeCursor(cursor, 'Patient:_id', ['number']);
    w.sql.push(`p.id > ${bind(w, after)}`);
  }
  const rows = await readRows<PatientDbRow>(
    deps,
    `${PATIENT_SELECT} WHERE ${w.sql.join(' AND ')} ORDER BY p.id LIMIT ${bind(w, input.count + 1)}`,
    w.values,
  );
  const more = rows.length > input.count;
  const page = rows.slice(0, input.count).map(patientRowOf);
  return {
    resources: page.map(patientFor),
    next: more ? encodeCursor('Patient:_id', [page.at(-1)!.id]) : null,
    total: total ?? (cursor === undefined && !more ? page.length : null),
  };
}

// ---------------------------------------------------------------- Observation

const SYSTOLIC = 3;
const DIASTOLIC = 4;
const partnerOf = (alias: string, element: number) =>
  `(SELECT MIN(x.id) FROM measurements x WHERE x.patient_id = ${alias}.patient_id AND x.clinical_element = ${element}
    AND x."when" = ${alias}."when" AND x.status = ${MEASUREMENT_STATUS.valid})`;

/**
 * A reading is one Observation; a systolic and a diastolic of the same patient and moment are one
 * blood-pressure panel, listed at the systolic's row (its diastolic is not listed on its own), as
 * groupReadings pairs a stored batch.
 */
const OBSERVATION_FROM = `FROM measurements m`;
const OBSERVATION_BASE = [
  'm.client_id = :clientId',
  `m.status = ${MEASUREMENT_STATUS.valid}`,
  `NOT (m.clinical_element = ${DIASTOLIC} AND ${partnerOf('m', SYSTOLIC)} IS NOT NULL)`,
];

/** One LOINC code → the rows whose Observation.code it is. */
function codeCondition(code: string): string {
  if (code === BLOOD_PRESSURE_PANEL_LOINC) return `(m.clinical_element = ${SYSTOLIC} AND ${partnerOf('m', DIASTOLIC)} IS NOT NULL)`;
  const e = CLINICAL_ELEMENTS.find((c) => c.loinc === code) ?? (code === '2708-6' ? CLINICAL_ELEMENTS.find((c) => c.id === 2) : undefined);
  if (!e) return '1 = 0';
  if (e.id === SYSTOLIC) return `(m.clinical_element = ${SYSTOLIC} AND ${partnerOf('m', DIASTOLIC)} IS NULL)`;
  return `m.clinical_element = ${e.id}`;
}

export type ObservationSort = 'date' | '-date' | '_lastUpdated';
const SORTS: Record<ObservationSort, { order: string; shape: CursorPart[] }> = {
  date: { order: 'm."when" ASC, m.id ASC', shape: ['string', 'bignumber'] },
  '-date': { order: 'm."when" DESC, m.id DESC', shape: ['string', 'bignumber'] },
  // Rows are numbered as they are stored and never changed after (a deletion hides them), so id order is stored order.
  _lastUpdated: { order: 'm.id ASC', shape: ['bignumber'] },
};

/**
 * `_id` as the search lists ids: `m12-13` is a panel listed at its systolic 12; `m12` a reading
 * listed on its own (not the systolic of a panel, whose id is the pair).
 */
function observationIdConditions(w: Where, params: Map<string, string[]>): void {
  for (const raw of params.get('_id') ?? []) {
    const alternatives = raw.split(',').map((id) => {
      const key = observationKeyOf(id);
      if (!key) return '1 = 0';
      if (key.length === 2)
        return `(m.id = ${bind(w, key[0])} AND m.clinical_element = ${SYSTOLIC} AND ${partnerOf('m', DIASTOLIC)} = ${bind(w, key[1])})`;
      return `(m.id = ${bind(w, key[0])} AND NOT (m.clinical_element = ${SYSTOLIC} AND ${partnerOf('m', DIASTOLIC)} IS NOT NULL))`;
    });
    w.sql.push(`(${alternatives.join(' OR ')})`);
  }
}

function observationWhere(clientId: number, params: Map<string, string[]>, groupId: number | null | undefined): Where {
  const w = where(clientId);
  w.sql.push(...OBSERVATION_BASE);
  patientConditions(w, 'm.patient_id', params, ['patient', 'subject']);
  groupCondition(w, 'm.patient_id', groupId);
  observationIdConditions(w, params);
  for (const raw of params.get('code') ?? []) {
    const alternatives = parseTokens('code', raw).map((t) => {
      if (t.system !== null && t.system !== LOINC) return '1 = 0';
      return t.code === null ? '1 = 1' : codeCondition(t.code);
    });
    w.sql.push(`(${alternatives.join(' OR ')})`);
  }
  for (const raw of params.get('category') ?? []) {
    const alternatives = parseTokens('category', raw).map((t) => {
      if (t.system !== null && t.system !== OBSERVATION_CATEGORY) return '1 = 0';
      if (t.code === null) return '1 = 1';
      if (t.code === 'vital-signs') return 'm.clinical_element <> 6';
      if (t.code === 'laboratory') return 'm.clinical_element = 6';
      return '1 = 0';
    });
    w.sql.push(`(${alternatives.join(' OR ')})`);
  }
  dateParamConditions(w, 'm."when"', 'date', params);
  // A reading is never changed once stored (a deletion hides it): its last update is when it was stored.
  dateParamConditions(w, 'm.created_at', '_lastUpdated', params);
  return w;
}

export function parseSort(params: Map<string, string[]>): ObservationSort {
  const raw = params.get('_sort')?.at(-1) ?? 'date';
  if (raw !== 'date' && raw !== '-date' && raw !== '_lastUpdated')
    throw new SearchError('_sort', '_sort admite date, -date o _lastUpdated');
  return raw;
}

interface MeasurementDbRow {
  id: number | string;
  patient_id: number | string;
  clinical_element: number | string;
  value: number | string;
  when: string | Date;
  created_at: string | Date;
}
const measurementOf = (r: MeasurementDbRow): FhirMeasurement & { patient_id: number; created_at: Date } => ({
  id: Number(r.id),
  patient_id: Number(r.patient_id),
  clinical_element: Number(r.clinical_element),
  value: Number(r.value),
  when: new Date(r.when),
  created_at: new Date(r.created_at),
});

async function patientRefs(deps: SearchDeps, clientId: number, ids: number[]): Promise<Map<number, FhirPatientRef>> {
  if (!ids.length) return new Map();
  const rows = await readRows<PatientDbRow>(deps, PATIENTS_BY_ID, {
    clientId,
    ids: [...new Set(ids)],
  });
  return new Map(rows.map((r) => [Number(r.id), patientRowOf(r)]));
}

/** The mapper's Observation, with what a pulled one adds: meta.lastUpdated (a reading never changes once stored). */
function observationOf(group: ReturnType<typeof measurementOf>[], patient: FhirPatientRef): Json {
  return observationFor(group, patient, group[0].created_at, { lastUpdated: group[0].created_at });
}

const MEASUREMENT_COLUMNS = 'm.id, m.patient_id, m.clinical_element, m.value, m."when", m.created_at';

/**
 * The lookups by key behind every search page (the page's patients, a panel's diastolic readings, an
 * alert's reading) run prepared on PostgreSQL (db/sql.ts prepared): parsed and planned once per
 * connection instead of on each of the hundreds of searches a second an integrator sends.
 */
const PATIENTS_BY_ID = prepared(`${PATIENT_SELECT} WHERE ${BY_ID_IN_CLIENT('p')}`);
const MEASUREMENTS_BY_ID = prepared(`SELECT ${MEASUREMENT_COLUMNS} FROM measurements m WHERE ${BY_ID_IN_CLIENT('m')}`);

/**
 * `m12` (one reading) or `m12-13` (a systolic and its diastolic: the panel), the ids the mappers
 * and the webhooks give. A single reading reads on its own even when it is half of a panel, so a
 * webhook's id for a reading stored alone still resolves.
 */
export async function readObservation(deps: SearchDeps, clientId: number, id: string): Promise<Json | null> {
  const ids = observationKeyOf(id);
  if (!ids) return null;
  const rows = (
    await readRows<MeasurementDbRow>(
      deps,
      `SELECT ${MEASUREMENT_COLUMNS} FROM measurements m WHERE ${BY_ID_IN_CLIENT('m')} AND m.status = :valid`,
      { clientId, valid: MEASUREMENT_STATUS.valid, ids },
    )
  ).map(measurementOf);
  const group = ids.map((i) => rows.find((r) => r.id === i));
  if (group.some((r) => !r)) return null;
  const found = group as ReturnType<typeof measurementOf>[];
  if (
    found.length === 2 &&
    (found[0].clinical_element !== SYSTOLIC ||
      found[1].clinical_element !== DIASTOLIC ||
      found[0].patient_id !== found[1].patient_id ||
      found[0].when.getTime() !== found[1].when.getTime())
  )
    return null;
  const patient = (await patientRefs(deps, clientId, [found[0].patient_id])).get(found[0].patient_id);
  return patient ? observationOf(found, patient) : null;
}

export async function searchObservations(deps: SearchDeps, clientId: number, input: SearchInput): Promise<Page> {
  const sort = parseSort(input.params);
  const w = observationWhere(clientId, input.params, input.groupId);
  const total = input.wantTotal ? await countOf(deps, OBSERVATION_FROM, w) : null;
  if (input.summaryCount || input.count === 0) return { resources: [], next: null, total };
  const cursor = input.params.get('_cursor')?.at(-1);
  const cursorName = `Observation:${sort}`;
  if (cursor !== undefined) {
    const key = decodeCursor(cursor, cursorName, SORTS[sort].shape);
    if (sort === '_lastUpdated') w.sql.push(`m.id > ${bind(w, key[0])}`);
    else {
      // The plain bound on "when" lets both databases start the index range (client_id, when) or
      // (patient_id, when, id) at the cursor; the row comparison alone is a filter on PostgreSQL,
      // which would read every earlier row again on each page.
      const at = bind(w, new Date(key[0]));
      w.sql.push(
        `m."when" ${sort === 'date' ? '>=' : '<='} ${at}`,
        `(m."when", m.id) ${sort === 'date' ? '>' : '<'} (${at}, ${bind(w, key[1])})`,
      );
    }
  }
  const rows = (
    await readRows<MeasurementDbRow & { partner: number | string | null }>(
      deps,
      `SELECT ${MEASUREMENT_COLUMNS}, CASE WHEN m.clinical_element = ${SYSTOLIC} THEN ${partnerOf('m', DIASTOLIC)} END AS partner
       ${OBSERVATION_FROM} WHERE ${w.sql.join(' AND ')} ORDER BY ${SORTS[sort].order} LIMIT ${bind(w, input.count + 1)}`,
      w.values,
    )
  ).map((r) => ({ ...measurementOf(r), partner: r.partner == null ? null : Number(r.partner) }));
  const more = rows.length > input.count;
  const page = rows.slice(0, input.count);
  const partnerIds = page.map((r) => r.partner).filter((x): x is number => x !== null);
  const partners = new Map(
    partnerIds.length
      ? (
          await readRows<MeasurementDbRow>(deps, MEASUREMENTS_BY_ID, {
            clientId,
            ids: partnerIds,
          })
        ).map((r) => [Number(r.id), measurementOf(r)])
      : [],
  );
  const refs = await patientRefs(
    deps,
    clientId,
    page.map((r) => r.patient_id),
  );
  const resources = page.map((r) => {
    const partner = r.partner === null ? undefined : partners.get(r.partner);
    return observationOf(partner ? [r, partner] : [r], refs.get(r.patient_id)!);
  });
  const last = page.at(-1);
  return {
    resources,
    next: more && last ? encodeCursor(cursorName, sort === '_lastUpdated' ? [last.id] : [last.when.toISOString(), last.id]) : null,
    total: total ?? (cursor === undefined && !more ? page.length : null),
  };
}

// ---------------------------------------------------------------- DetectedIssue, Condition

interface AlertDbRow {
  id: number | string;
  patient_id: number | string;
  alert_type: number | string;
  priority: number | string;
  description: string | null;
  measurement_id: number | string | null;
  created_at: string | Date;
  updated_at: string | Date;
}
const ALERT_SELECT = 'SELECT a.id, a.patient_id, a.alert_type, a.priority, a.description, a.measurement_id, a.created_at, a.updated_at';

/** DetectedIssue (id `a<id>`) for every alert, with the reading it was raised on contained, as the webhook sends it. */
async function detectedIssuesOf(deps: SearchDeps, clientId: number, rows: AlertDbRow[]): Promise<Json[]> {
  const measurementIds = rows.map((r) => r.measurement_id).filter((x): x is number | string => x != null);
  const readings = new Map(
    measurementIds.length
      ? (
          await readRows<MeasurementDbRow>(deps, MEASUREMENTS_BY_ID, {
            clientId,
            ids: measurementIds.map(Number),
          })
        ).map((r) => [Number(r.id), measurementOf(r)])
      : [],
  );
  const refs = await patientRefs(
    deps,
    clientId,
    rows.map((r) => Number(r.patient_id)),
  );
  return rows.map((r) => {
    const patient = refs.get(Number(r.patient_id))!;
    const reading = r.measurement_id == null ? undefined : readings.get(Number(r.measurement_id));
    // The webhook's DetectedIssue, with what a pulled one adds: meta.lastUpdated (the alert changes as it is followed up).
    const issue = detectedIssueFor(
      {
        id: Number(r.id),
        alert_type: Number(r.alert_type),
        priority: Number(r.priority),
        description: r.description,
        created_at: new Date(r.created_at),
      },
      patient,
      reading ? observationFor([reading], patient, reading.created_at) : null,
    );
    return { resourceType: issue.resourceType, id: issue.id, meta: { lastUpdated: new Date(r.updated_at).toISOString() }, ...issue };
  });
}

export async function readDetectedIssue(deps: SearchDeps, clientId: number, id: string): Promise<Json | null> {
  const rowId = rowIdOf('a', id);
  if (rowId === null) return null;
  const rows = await readRows<AlertDbRow>(deps, `${ALERT_SELECT} FROM alerts a WHERE a.id = :id AND a.client_id = :clientId`, {
    id: rowId,
    clientId,
  });
  return rows.length ? (await detectedIssuesOf(deps, clientId, rows))[0] : null;
}

export async function searchDetectedIssues(deps: SearchDeps, clientId: number, input: SearchInput): Promise<Page> {
  const w = where(clientId);
  w.sql.push('a.client_id = :clientId');
  patientConditions(w, 'a.patient_id', input.params, ['patient']);
  groupCondition(w, 'a.patient_id', input.groupId);
  idConditions(w, 'a.id', 'a', input.params);
  dateParamConditions(w, 'a.created_at', 'identified', input.params);
  dateParamConditions(w, 'a.updated_at', '_lastUpdated', input.params);
  return searchById<AlertDbRow>(deps, input, {
    cursorName: 'DetectedIssue:_id',
    select: ALERT_SELECT,
    from: 'FROM alerts a',
    idColumn: 'a.id',
    where: w,
    map: (rows) => detectedIssuesOf(deps, clientId, rows),
  });
}

type ConditionDbRow = Omit<FhirConditionRow, 'start_date' | 'end_date' | 'updated_at'> & {
  start_date: string | Date | null;
  end_date: string | Date | null;
  updated_at: string | Date;
};
const CONDITION_SELECT = 'SELECT pc.id, pc.patient_id, ct.name, ct.icd10, pc.notes, pc.active, pc.start_date, pc.end_date, pc.updated_at';
const CONDITION_FROM = 'FROM patient_conditions pc JOIN condition_types ct ON ct.id = pc.condition_type_id';
const conditionOf = (r: ConditionDbRow): Json =>
  conditionFor({
    ...r,
    id: Number(r.id),
    patient_id: Number(r.patient_id),
    start_date: r.start_date == null ? null : new Date(r.start_date),
    end_date: r.end_date == null ? null : new Date(r.end_date),
    updated_at: new Date(r.updated_at),
  });

export async function readCondition(deps: SearchDeps, clientId: number, id: string): Promise<Json | null> {
  const rowId = rowIdOf('c', id);
  if (rowId === null) return null;
  const [row] = await readRows<ConditionDbRow>(
    deps,
    `${CONDITION_SELECT} ${CONDITION_FROM} WHERE pc.id = :id AND pc.client_id = :clientId`,
    { id: rowId, clientId },
  );
  return row ? conditionOf(row) : null;
}

const CONDITION_CLINICAL = 'http://terminology.hl7.org/CodeSystem/condition-clinical';

export async function searchConditions(deps: SearchDeps, clientId: number, input: SearchInput): Promise<Page> {
  const w = where(clientId);
  w.sql.push('pc.client_id = :clientId');
  patientConditions(w, 'pc.patient_id', input.params, ['patient', 'subject']);
  groupCondition(w, 'pc.patient_id', input.groupId);
  idConditions(w, 'pc.id', 'c', input.params);
  dateParamConditions(w, 'pc.updated_at', '_lastUpdated', input.params);
  for (const raw of input.params.get('clinical-status') ?? []) {
    const alternatives = parseTokens('clinical-status', raw).map((t) => {
      if (t.system !== null && t.system !== CONDITION_CLINICAL) return '1 = 0';
      if (t.code === null) return '1 = 1';
      if (t.code === 'active') return `pc.active = ${bind(w, true)}`;
      if (t.code === 'resolved') return `pc.active = ${bind(w, false)}`;
      return '1 = 0';
    });
    w.sql.push(`(${alternatives.join(' OR ')})`);
  }
  return searchById<ConditionDbRow>(deps, input, {
    cursorName: 'Condition:_id',
    select: CONDITION_SELECT,
    from: CONDITION_FROM,
    idColumn: 'pc.id',
    where: w,
    map: async (rows) => rows.map(conditionOf),
  });
}

export const SEARCHES: Record<
  SearchType,
  {
    read(deps: SearchDeps, clientId: number, id: string): Promise<Json | null>;
    search(deps: SearchDeps, clientId: number, input: SearchInput): Promise<Page>;
  }
> = {
  Patient: { read: readPatient, search: searchPatients },
  Observation: { read: readObservation, search: searchObservations },
  DetectedIssue: { read: readDetectedIssue, search: searchDetectedIssues },
  Condition: { read: readCondition, search: searchConditions },
  Device: { read: readDevice, search: searchDevices },
  RelatedPerson: { read: readRelatedPerson, search: searchRelatedPersons },
  MedicationRequest: { read: readMedicationRequest, search: searchMedicationRequests },
  ServiceRequest: { read: readServiceRequest, search: searchServiceRequests },
  Group: { read: readGroup, search: searchGroups },
  Composition: { read: readComposition, search: searchCompositions },
};
