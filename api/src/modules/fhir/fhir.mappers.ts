import { BLOOD_PRESSURE_PANEL_LOINC, clinicalElement } from '@vigia/contract/rules/vitals';
import { ALERT_TYPE_NAMES, PRIORITY_KEYS } from '@vigia/contract/rules/alarms';
import { PATIENT_STATUS } from '@vigia/contract/rules/access';
import {
  MEDICATION_UNITS,
  ORDER_ELEMENT_NAMES,
  ORDER_STATUS,
  describeOrder,
  durationDays,
  parseAmount,
} from '@vigia/contract/rules/activities';

/**
 * FHIR R4 resources as pure functions of stored rows: the one place where a row becomes FHIR, used
 * by the webhooks (D19, one bare resource per event) and the FHIR API (read, search) alike, so a
 * reading is the same Observation whether it is pushed or pulled:
 *  - a reading → `Observation` (LOINC code, UCUM unit); systolic (3) and diastolic (4) stored
 *    together become one blood-pressure panel `Observation` (85354-9) with two components; one of
 *    them alone is a plain `Observation` with its own code;
 *  - a value alert (type 0) → `DetectedIssue` that contains the Observation it was raised on and
 *    references it (`implicated: [{reference: '#<id>'}]`);
 *  - 'Validar' → a `Parameters` resource with `event = webhook.test`;
 *  - for the API only: a gateway → `Device`, a caregiver link → `RelatedPerson`, a tag → `Group`,
 *    a medication order → `MedicationRequest`, a measurement order → `ServiceRequest`.
 * The subject is referenced as `Patient/p<id>` by every type, and identified by the patient's
 * document too (system `urn:vigia:id-type:<country>:<code>`).
 */

const IDENTIFIER_SYSTEMS = {
  measurement: 'urn:vigia:measurement',
  alert: 'urn:vigia:alert',
  order: 'urn:vigia:order',
  medicine: 'urn:vigia:medicine',
  idType: (countryCode: string, idTypeCode: string) => `urn:vigia:id-type:${countryCode}:${idTypeCode}`,
} as const;

const LOINC = 'http://loinc.org';
const UCUM = 'http://unitsofmeasure.org';
const OBSERVATION_CATEGORY = 'http://terminology.hl7.org/CodeSystem/observation-category';

/** A person's document (a patient's, a caregiver's) and name, as an identifier says them. */
export interface FhirPersonDocument {
  nid: string;
  id_type_code: string;
  id_type_name: string;
  country_code: string;
  display: string;
}

/** A patient as a reference names it: the literal `Patient/p<id>`, the document and the name. */
export interface FhirPatientRef extends FhirPersonDocument {
  id: number;
}

export interface FhirMeasurement {
  id: number;
  clinical_element: number;
  value: number;
  when: Date;
}

type Json = Record<string, unknown>;

function identifierOf(p: FhirPersonDocument): Json {
  return {
    type: { text: p.id_type_name },
    system: IDENTIFIER_SYSTEMS.idType(p.country_code, p.id_type_code),
    value: p.nid,
  };
}

/** The patient an Observation or a DetectedIssue is about: the same literal reference every other type gives, with the document and name. */
function subjectOf(p: FhirPatientRef): Json {
  return { reference: `Patient/p${p.id}`, identifier: identifierOf(p), display: p.display };
}

/**
 * What an Observation says of its clinical element never changes: its code, category and the
 * quantity's unit are made once per element (frozen: resources share them) rather than per
 * resource, which a Bulk export makes tens of thousands of times a second.
 */
interface ElementParts {
  coding: Json[];
  code: Json;
  category: Json[];
  unit: string;
  ucum: string;
}
const ELEMENT_PARTS = new Map<number, ElementParts>();
function deepFreeze<T>(v: T): T {
  if (v && typeof v === 'object') {
    for (const x of Object.values(v)) deepFreeze(x);
    Object.freeze(v);
  }
  return v;
}
function partsOf(element: number): ElementParts {
  let parts = ELEMENT_PARTS.get(element);
  if (!parts) {
    const e = clinicalElement(element)!;
    const coding: Json[] = [{ system: LOINC, code: e.loinc }];
    // Pulse oximetry: US Core's 59408-5 plus the core vital-signs profile's 2708-6.
    if (e.id === 2) coding.push({ system: LOINC, code: '2708-6' });
    parts = deepFreeze({
      coding,
      code: { coding, text: e.name },
      category: [{ coding: [{ system: OBSERVATION_CATEGORY, code: e.id === 6 ? 'laboratory' : 'vital-signs' }] }],
      unit: e.unit,
      ucum: e.ucum,
    });
    ELEMENT_PARTS.set(element, parts);
  }
  return parts;
}

const PANEL_CODE: Json = deepFreeze({
  coding: [{ system: LOINC, code: BLOOD_PRESSURE_PANEL_LOINC, display: 'Blood pressure panel with all children optional' }],
  text: 'Presión arterial',
});

function quantity(parts: ElementParts, value: number): Json {
  return { value, unit: parts.unit, system: UCUM, code: parts.ucum };
}

/** Groups one stored batch into events: a systolic and a diastolic at the same time become one panel. */
export function groupReadings<T extends FhirMeasurement & { patient_id: number }>(rows: T[]): T[][] {
  const groups: T[][] = [];
  const used = new Set<number>();
  for (const r of rows) {
    if (used.has(r.id)) continue;
    const el = clinicalElement(r.clinical_element)?.id;
    if (el === 3 || el === 4) {
      const other = rows.find(
        (o) =>
          !used.has(o.id) &&
          o.id !== r.id &&
          o.patient_id === r.patient_id &&
          clinicalElement(o.clinical_element)?.id === (el === 3 ? 4 : 3) &&
          o.when.getTime() === r.when.getTime(),
      );
      if (other) {
        used.add(r.id).add(other.id);
        groups.push(el === 3 ? [r, other] : [other, r]);
        continue;
      }
    }
    used.add(r.id);
    groups.push([r]);
  }
  return groups;
}

/** The event key and resource id of a group: 'measurement:12' or 'measurement:12,13'. */
export const observationKey = (group: FhirMeasurement[]) => `measurement:${group.map((m) => m.id).join(',')}`;

/**
 * A stored reading (or a systolic and diastolic pair: the blood-pressure panel) as an Observation,
 * the same whether a webhook pushes it or the API is asked for it: `issued` is when the reading was
 * stored (its created_at). Only a pulled one says `meta` (`lastUpdated`); the two are otherwise equal.
 */
export function observationFor(group: FhirMeasurement[], patient: FhirPatientRef, issued: Date, pulled?: { lastUpdated: Date }): Json {
  const first = group[0];
  const parts = partsOf(first.clinical_element);
  const panel = group.length === 2;
  const issuedText = issued.toISOString();
  const o: Json = {
    resourceType: 'Observation',
    id: panel ? `m${first.id}-${group[1].id}` : `m${first.id}`,
    identifier: group.map((m) => ({ system: IDENTIFIER_SYSTEMS.measurement, value: String(m.id) })),
    status: 'final',
    category: parts.category,
    code: panel ? PANEL_CODE : parts.code,
    subject: subjectOf(patient),
    effectiveDateTime: first.when.toISOString(),
    issued: issuedText,
  };
  if (panel)
    o.component = group.map((m) => {
      const p = partsOf(m.clinical_element);
      return { code: p.code, valueQuantity: quantity(p, m.value) };
    });
  else o.valueQuantity = quantity(parts, first.value);
  if (pulled) o.meta = { lastUpdated: pulled.lastUpdated === issued ? issuedText : pulled.lastUpdated.toISOString() };
  return o;
}

/** A patients row with its document type and country, as patientFor reads it (its id is the reference's). */
export interface FhirPatientRow extends FhirPatientRef {
  id: number;
  first_name: string;
  last_name: string;
  birth_date: string;
  gender: number;
  status: number;
  updated_at: Date;
}

/** Our Gender (0 Femenino, 1 Masculino, 2 Otro) as FHIR administrative-gender. */
const ADMINISTRATIVE_GENDER: Record<number, string> = { 0: 'female', 1: 'male', 2: 'other' };

/** Patient (id `p<id>`): document as identifier, active for every status but inactive. */
export function patientFor(p: FhirPatientRow): Json {
  const gender = ADMINISTRATIVE_GENDER[p.gender];
  return {
    resourceType: 'Patient',
    id: `p${p.id}`,
    meta: { lastUpdated: p.updated_at.toISOString() },
    identifier: [identifierOf(p)],
    active: p.status !== PATIENT_STATUS.inactive,
    name: [{ family: p.last_name, given: [p.first_name], text: p.display }],
    ...(gender ? { gender } : {}),
    birthDate: p.birth_date,
    ...(p.status === PATIENT_STATUS.deceased ? { deceasedBoolean: true } : {}),
  };
}

export interface FhirTag {
  id: number;
  name: string;
  updated_at: Date;
}

/** Group (id `g<id>`): a tag and the patients that carry it, as an actual group of persons. */
export function groupFor(tag: FhirTag, patientIds: number[]): Json {
  return {
    resourceType: 'Group',
    id: `g${tag.id}`,
    meta: { lastUpdated: tag.updated_at.toISOString() },
    type: 'person',
    actual: true,
    name: tag.name,
    quantity: patientIds.length,
    ...(patientIds.length ? { member: patientIds.map((id) => ({ entity: { reference: `Patient/p${id}` } })) } : {}),
  };
}

/** A patient_conditions row with its condition type's name and ICD-10 code. */
export interface FhirConditionRow {
  id: number;
  patient_id: number;
  name: string;
  icd10: string | null;
  notes: string | null;
  active: boolean | number;
  start_date: Date | null;
  end_date: Date | null;
  updated_at: Date;
}

const CONDITION_CLINICAL = 'http://terminology.hl7.org/CodeSystem/condition-clinical';
const CONDITION_CATEGORY = 'http://terminology.hl7.org/CodeSystem/condition-category';
const ICD10 = 'http://hl7.org/fhir/sid/icd-10';

/** Condition (id `c<id>`): a problem-list item, ICD-10 coded when the type has a code; an inactive one is resolved. */
export function conditionFor(c: FhirConditionRow): Json {
  const active = Boolean(c.active);
  return {
    resourceType: 'Condition',
    id: `c${c.id}`,
    meta: { lastUpdated: c.updated_at.toISOString() },
    clinicalStatus: { coding: [{ system: CONDITION_CLINICAL, code: active ? 'active' : 'resolved' }] },
    category: [{ coding: [{ system: CONDITION_CATEGORY, code: 'problem-list-item' }] }],
    code: { ...(c.icd10 ? { coding: [{ system: ICD10, code: c.icd10 }] } : {}), text: c.name },
    subject: { reference: `Patient/p${c.patient_id}` },
    ...(c.start_date ? { onsetDateTime: c.start_date.toISOString() } : {}),
    // con-4: an abatement only on a condition that is no longer active.
    ...(!active && c.end_date ? { abatementDateTime: c.end_date.toISOString() } : {}),
    ...(c.notes ? { note: [{ text: c.notes }] } : {}),
  };
}

/** A caregiver of one patient (patient_caregivers ⨝ caregivers ⨝ id_types ⨝ countries). */
export interface FhirCaregiverRow extends FhirPersonDocument {
  patient_id: number;
  caregiver_id: number;
  first_name: string;
  last_name: string;
  relationship: string | null;
  email: string | null;
  prefix: string | null;
  cellphone: string | null;
  updated_at: Date;
}

/** RelatedPerson (id `r<patient>-<caregiver>`): FHIR ties a RelatedPerson to one patient, so one per link. */
export function relatedPersonFor(c: FhirCaregiverRow): Json {
  const telecom: Json[] = [];
  if (c.cellphone)
    telecom.push({ system: 'phone', value: `${c.prefix ? `+${c.prefix.replace(/^\+/, '')} ` : ''}${c.cellphone}`, use: 'mobile' });
  if (c.email) telecom.push({ system: 'email', value: c.email });
  return {
    resourceType: 'RelatedPerson',
    id: `r${c.patient_id}-${c.caregiver_id}`,
    meta: { lastUpdated: c.updated_at.toISOString() },
    identifier: [identifierOf(c)],
    active: true,
    patient: { reference: `Patient/p${c.patient_id}` },
    ...(c.relationship ? { relationship: [{ text: c.relationship }] } : {}),
    name: [{ family: c.last_name, given: [c.first_name], text: c.display }],
    ...(telecom.length ? { telecom } : {}),
  };
}

/** A gateway (devices row); patient_id when a single-patient card is assigned (patients.card_id). */
export interface FhirDeviceRow {
  id: number;
  card_id: string;
  name: string | null;
  multipatient: boolean | number;
  patient_id: number | null;
  updated_at: Date;
}

/** Device (id `d<id>`): the gateway, identified by its card number; its patient when it has one. */
export function deviceFor(d: FhirDeviceRow): Json {
  return {
    resourceType: 'Device',
    id: `d${d.id}`,
    meta: { lastUpdated: d.updated_at.toISOString() },
    identifier: [{ system: 'urn:vigia:card', value: d.card_id }],
    status: 'active',
    ...(d.name ? { deviceName: [{ name: d.name, type: 'user-friendly-name' }] } : {}),
    type: { text: d.multipatient ? 'Pasarela multipaciente' : 'Pasarela' },
    ...(!d.multipatient && d.patient_id ? { patient: { reference: `Patient/p${d.patient_id}` } } : {}),
  };
}

/** An orders row with its medicine (LEFT JOIN medicines), days and hours parsed. */
export interface FhirOrderRow {
  id: number;
  patient_id: number;
  order_type: number;
  status: number;
  permanent: boolean | number;
  clinical_element: number | null;
  medicine_id: number | null;
  medicine_name: string | null;
  medicine_presentation: string | null;
  frecuency: number | null;
  time_unit: number | null;
  during: number;
  amount: string | null;
  medication_unit: number | null;
  frequency_type: number | null;
  days: number[];
  hours: string[];
  start_at: Date | null;
  to_human: string | null;
  created_at: Date;
  updated_at: Date;
}

/**
 * Our order status (ORDER_STATUS) as MedicationRequest.status and ServiceRequest.status: an order
 * not yet scheduled (No Gestionada) is a draft, Programada and En ejecución are active, Cancelada
 * is cancelled (revoked: ServiceRequest has no 'cancelled'), Completada completed. The search
 * reads these tables backwards.
 */
export const MEDICATION_REQUEST_STATUS: Record<number, string> = {
  [ORDER_STATUS.unmanaged]: 'draft',
  [ORDER_STATUS.scheduled]: 'active',
  [ORDER_STATUS.running]: 'active',
  [ORDER_STATUS.cancelled]: 'cancelled',
  [ORDER_STATUS.completed]: 'completed',
};
export const SERVICE_REQUEST_STATUS: Record<number, string> = {
  ...MEDICATION_REQUEST_STATUS,
  [ORDER_STATUS.cancelled]: 'revoked',
};

/** FHIR Timing.repeat.periodUnit of our time_unit (0 hours, 1 days, 2 weeks). */
const PERIOD_UNIT: Record<number, string> = { 0: 'h', 1: 'd', 2: 'wk' };
const DAY_OF_WEEK = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const;
const DAY_MS = 86_400_000;

/**
 * Timing.repeat.bounds of an order: from its start for its duration in days (weekly vital-sign
 * orders count weeks), open-ended when permanent; without a start (not scheduled yet), the duration.
 */
function boundsOf(o: FhirOrderRow): Json {
  const days =
    o.order_type === 0
      ? durationDays({ order_type: 0, frequency_type: o.frequency_type ?? 0, days: o.days, hours: o.hours, during: o.during })
      : o.during;
  if (o.start_at)
    return {
      boundsPeriod: {
        start: o.start_at.toISOString(),
        ...(o.permanent ? {} : { end: new Date(o.start_at.getTime() + days * DAY_MS).toISOString() }),
      },
    };
  return o.permanent ? {} : { boundsDuration: { value: days, unit: 'd', system: UCUM, code: 'd' } };
}

function requestBase(o: FhirOrderRow, resourceType: string, id: string, status: Record<number, string>): Json {
  return {
    resourceType,
    id,
    meta: { lastUpdated: o.updated_at.toISOString() },
    identifier: [{ system: IDENTIFIER_SYSTEMS.order, value: String(o.id) }],
    status: status[o.status] ?? 'unknown',
    intent: 'order',
  };
}

/** MedicationRequest (id `x<id>`, ℞): a medication order, its medicine from our catalogue, dose and frequency as Dosage. */
export function medicationRequestFor(o: FhirOrderRow): Json {
  const amount = parseAmount(o.amount);
  const text = describeOrder(o.to_human, Boolean(o.permanent));
  const medicine = [o.medicine_name, o.medicine_presentation].filter(Boolean).join(' ');
  return {
    ...requestBase(o, 'MedicationRequest', `x${o.id}`, MEDICATION_REQUEST_STATUS),
    medicationCodeableConcept: {
      ...(o.medicine_id !== null
        ? {
            coding: [
              {
                system: IDENTIFIER_SYSTEMS.medicine,
                code: String(o.medicine_id),
                ...(o.medicine_name ? { display: o.medicine_name } : {}),
              },
            ],
          }
        : {}),
      text: medicine || 'Medicamento',
    },
    subject: { reference: `Patient/p${o.patient_id}` },
    authoredOn: o.created_at.toISOString(),
    dosageInstruction: [
      {
        ...(text ? { text } : {}),
        timing: {
          repeat: {
            ...boundsOf(o),
            ...(o.frecuency && o.time_unit !== null && PERIOD_UNIT[o.time_unit]
              ? { frequency: 1, period: o.frecuency, periodUnit: PERIOD_UNIT[o.time_unit] }
              : {}),
          },
        },
        ...(Number.isFinite(amount) && amount > 0
          ? {
              doseAndRate: [
                { doseQuantity: { value: amount, ...(o.medication_unit !== null ? { unit: MEDICATION_UNITS[o.medication_unit] } : {}) } },
              ],
            }
          : {}),
      },
    ],
  };
}

/** ServiceRequest (id `s<id>`): a measurement order, coded with the LOINC of what it measures (blood pressure: the panel). */
export function serviceRequestFor(o: FhirOrderRow): Json {
  const element = o.clinical_element ?? 0;
  const bloodPressure = element === 3 || element === 4;
  const text = describeOrder(o.to_human, Boolean(o.permanent));
  const weekly = o.frequency_type === 1;
  return {
    ...requestBase(o, 'ServiceRequest', `s${o.id}`, SERVICE_REQUEST_STATUS),
    code: {
      ...(bloodPressure
        ? { coding: [{ system: LOINC, code: BLOOD_PRESSURE_PANEL_LOINC, display: 'Blood pressure panel with all children optional' }] }
        : clinicalElement(element)
          ? { coding: partsOf(element).coding }
          : {}),
      text: ORDER_ELEMENT_NAMES[element] ?? 'Medición',
    },
    subject: { reference: `Patient/p${o.patient_id}` },
    occurrenceTiming: {
      repeat: {
        ...boundsOf(o),
        ...(weekly && o.days.length ? { dayOfWeek: o.days.map((d) => DAY_OF_WEEK[d]).filter(Boolean) } : {}),
        ...(o.hours.length ? { timeOfDay: o.hours.map((h) => `${h}:00`) } : {}),
      },
    },
    authoredOn: o.created_at.toISOString(),
    ...(text ? { patientInstruction: text } : {}),
  };
}

export interface FhirAlert {
  id: number;
  alert_type: number;
  priority: number;
  description: string | null;
  created_at: Date;
}

/**
 * A kept RDA (issue 51) as the FHIR API reads its Composition: the document's first entry as it was
 * built and sent, named by the API's own id (`rda<first version's row id>`, stable across versions),
 * with the version's `meta` and the patient as the literal `Patient/p<id>` the other types give (in
 * the document it is a `urn:uuid:` of the Bundle's Patient entry; `$document` answers it unchanged).
 */
export interface FhirRdaRow {
  /** The row id of the document's first version. */
  id: number;
  patient_id: number;
  version: number;
  /** When this version was written: the Composition never changes after. */
  created_at: Date;
  /** The document Bundle as kept (rda_documents.bundle, parsed). */
  bundle: Json;
}

/** Null for a kept Bundle that does not open with its Composition (recordRda judges the identifier only). */
export function compositionFor(r: FhirRdaRow): Json | null {
  const entries = Array.isArray(r.bundle.entry) ? (r.bundle.entry as Json[]) : [];
  const first = entries[0]?.resource as Json | undefined;
  if (first?.resourceType !== 'Composition') return null;
  return {
    ...first,
    id: `rda${r.id}`,
    meta: { ...(first.meta as Json | undefined), versionId: String(r.version), lastUpdated: r.created_at.toISOString() },
    subject: { reference: `Patient/p${r.patient_id}` },
  };
}

/** FHIR DetectedIssue.severity from our priority (1 Alta, 2 Media, 3 Baja). */
const SEVERITY = { high: 'high', medium: 'moderate', low: 'low' } as const;

export function detectedIssueFor(alert: FhirAlert, patient: FhirPatientRef, observation: Json | null): Json {
  const key = PRIORITY_KEYS[alert.priority];
  return {
    resourceType: 'DetectedIssue',
    id: `a${alert.id}`,
    ...(observation ? { contained: [observation] } : {}),
    identifier: [{ system: IDENTIFIER_SYSTEMS.alert, value: String(alert.id) }],
    status: 'final',
    code: { text: ALERT_TYPE_NAMES[alert.alert_type] ?? 'Alerta' },
    ...(key ? { severity: SEVERITY[key] } : {}),
    patient: subjectOf(patient),
    identifiedDateTime: alert.created_at.toISOString(),
    ...(observation
      ? { implicated: [{ reference: `#${String(observation.id)}`, identifier: (observation.identifier as Json[])[0] }] }
      : {}),
    ...(alert.description ? { detail: alert.description } : {}),
  };
}

export function testEventFor(clientName: string, at: Date): Json {
  return {
    resourceType: 'Parameters',
    parameter: [
      { name: 'event', valueCode: 'webhook.test' },
      { name: 'client', valueString: clientName },
      { name: 'sent_at', valueDateTime: at.toISOString() },
    ],
  };
}
