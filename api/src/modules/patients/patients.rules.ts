import { PATIENT_STATUS } from '@vigia/contract/rules/access';
import type { CodeListName } from '../catalogues/catalogues.sync.js';

export const CONTACT_FIELDS = ['address', 'neighborhood', 'city_id', 'prefix', 'cellphone', 'email'] as const;
type Contact = { [K in (typeof CONTACT_FIELDS)[number]]?: string | number | null };

/** D9: contact data is complete when every contact field has a value. */
export function isContactComplete(c: Contact): boolean {
  return CONTACT_FIELDS.every((f) => c[f] != null && String(c[f]).trim() !== '');
}

export function initialStatus(c: Contact): number {
  return isContactComplete(c) ? PATIENT_STATUS.active : PATIENT_STATUS.incomplete;
}

export type StatusChange = { ok: true; status: number } | { ok: false; message: string };

/**
 * Status after an update. Incomplete becomes active once contact data is complete; activating a
 * patient whose contact data is still missing leaves it incomplete; deceased is final (D9).
 */
export function nextStatus(current: number, requested: number | undefined, contact: Contact): StatusChange {
  if (current === PATIENT_STATUS.deceased)
    return { ok: false, message: 'El paciente está registrado como fallecido; su ficha no admite cambios.' };
  const complete = isContactComplete(contact);
  if (requested === undefined) {
    if (current === PATIENT_STATUS.incomplete && complete) return { ok: true, status: PATIENT_STATUS.active };
    if (current === PATIENT_STATUS.active && !complete) return { ok: true, status: PATIENT_STATUS.incomplete };
    return { ok: true, status: current };
  }
  if (requested === PATIENT_STATUS.incomplete) return { ok: true, status: complete ? PATIENT_STATUS.active : PATIENT_STATUS.incomplete };
  if (requested === PATIENT_STATUS.active && !complete) return { ok: true, status: PATIENT_STATUS.incomplete };
  return { ok: true, status: requested };
}

/** The notification an update answers with (01 §7): it says what a status change did (D9). */
export function updateMessage(from: number, to: number): string {
  if (from === to) return 'Paciente actualizado correctamente';
  if (to === PATIENT_STATUS.deceased) return 'Paciente registrado como fallecido. Sus órdenes y actividades pendientes fueron canceladas.';
  if (to === PATIENT_STATUS.inactive) return 'Paciente inactivado. Sus actividades futuras quedaron suspendidas.';
  if (to === PATIENT_STATUS.active && from === PATIENT_STATUS.incomplete) return 'Datos de contacto completos: el paciente quedó activo.';
  if (to === PATIENT_STATUS.active) return 'Paciente activado correctamente';
  return 'Paciente actualizado. Complete los datos de contacto para activarlo.';
}

/** Age in whole years on `today` ('YYYY-MM-DD' in the patient's zone). */
export function ageOn(birthDate: string, today: string): number {
  const [by, bm, bd] = birthDate.split('-').map(Number);
  const [ty, tm, td] = today.split('-').map(Number);
  return ty - by - (tm < bm || (tm === bm && td < bd) ? 1 : 0);
}

/** At most this many words of a query narrow a name search; more add cost, not precision. */
const MAX_SEARCH_WORDS = 4;

/**
 * The words a patient is found by: each word of the normalised full name (lower-case, accents
 * stripped), once. Stored one row per word so a prefix of any word is an index range, not a scan.
 */
export function searchTerms(searchName: string): string[] {
  return [...new Set(searchName.split(' ').filter(Boolean))];
}

export type PatientQuery = { kind: 'document'; prefix: string } | { kind: 'name'; words: string[] } | { kind: 'none' };

/**
 * A query with a digit is a document (numbers, passports); anything else is a name, matched word
 * by word against the start of any name word.
 */
export function parsePatientQuery(normalisedNid: string, searchKey: string): PatientQuery {
  if (/\d/.test(normalisedNid)) return { kind: 'document', prefix: normalisedNid };
  const words = searchTerms(
    searchKey
      .replace(/[^a-z0-9ñ ]/g, ' ')
      .replace(/\s+/g, ' ')
      .trim(),
  ).slice(0, MAX_SEARCH_WORDS);
  return words.length ? { kind: 'name', words } : { kind: 'none' };
}

/**
 * The Patient as GET answers it may come back whole in a PUT/PATCH (01 §7: declaring death saves
 * the whole record with status 3). Its read-only fields (`x-read-only: true` in PatientUpdate) are
 * ignored when they equal the record and refused when they differ; the live ones (`x-live: true`,
 * computed from other data, so they may move between the read and the write) are ignored.
 */
export const PATIENT_READ_ONLY_FIELDS = [
  'id',
  'id_type_name',
  'full_name',
  'country_name',
  'city_name',
  'age',
  'gender_name',
  'blood_type_name',
  'rh_factor_name',
  'eapb_name',
  'regime_name',
  'status_name',
  'occupation_name',
  'scholarship_name',
  'civil_status_name',
  'biological_sex_name',
  'gender_identity_name',
  'residence_zone_name',
  'nationality_name',
  'ethnicity_name',
  'tags',
  'gateway',
  'permissions',
] as const;
export const PATIENT_LIVE_FIELDS = [
  'active_alerts_count',
  'measurements_adherence',
  'medications_prescription',
  'vitals_prescription',
  'portal_locked_until',
] as const;
export type PatientReadOnlyField = (typeof PATIENT_READ_ONLY_FIELDS)[number] | (typeof PATIENT_LIVE_FIELDS)[number];

/** JSON equality with object keys in any order (values as the contract carries them). */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return a.length === (b as unknown[]).length && a.every((v, i) => sameJson(v, (b as unknown[])[i]));
  const ka = Object.keys(a).filter((k) => (a as Record<string, unknown>)[k] !== undefined);
  const kb = Object.keys(b).filter((k) => (b as Record<string, unknown>)[k] !== undefined);
  return ka.length === kb.length && ka.every((k) => sameJson((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

export type ReadOnlyCheck<T> = { ok: true; body: Omit<T, PatientReadOnlyField> } | { ok: false; field: string; message: string };

/** Whether an update body carries a read-only field to compare (the record is read only then). */
export function sendsReadOnlyField(body: object): boolean {
  return PATIENT_READ_ONLY_FIELDS.some((field) => field in body);
}

/**
 * Splits a patient update body: the read-only fields are checked against the record as GET answers
 * it now (`current`) and dropped, the live ones dropped; the rest is the update.
 */
export function dropReadOnlyFields<T extends object>(body: T, current: Record<string, unknown>): ReadOnlyCheck<T> {
  const rest = { ...body } as Record<string, unknown>;
  for (const field of PATIENT_READ_ONLY_FIELDS) {
    if (!(field in rest)) continue;
    if (!sameJson(rest[field], current[field]))
      return { ok: false, field, message: `El campo '${field}' es de solo lectura y no coincide con la ficha del paciente.` };
    delete rest[field];
  }
  for (const field of PATIENT_LIVE_FIELDS) delete rest[field];
  return { ok: true, body: rest as Omit<T, PatientReadOnlyField> };
}

/** The tags whose members differ between a patient's tags before and after a change (each once). */
export function changedTags(before: number[], after: number[]): number[] {
  const was = new Set(before);
  const is = new Set(after);
  return [...new Set([...before.filter((id) => !is.has(id)), ...after.filter((id) => !was.has(id))])];
}

/** The patient's single-coded RDA fields and the guide list each takes its code from (issue 51). */
export const PATIENT_CODE_FIELDS = [
  ['biological_sex', 'biological_sexes'],
  ['gender_identity', 'gender_identities'],
  ['residence_zone', 'residence_zones'],
  ['nationality', 'nationalities'],
  ['ethnicity', 'ethnicities'],
] as const satisfies ReadonlyArray<readonly [string, CodeListName]>;

/** ColombianDisabilityClassification '08' Sin discapacidad. */
export const NO_DISABILITY = '08';

/** '08 Sin discapacidad' is a statement of its own: it cannot stand beside a disability. */
export function checkDisabilities(codes: string[]): string | null {
  if (codes.includes(NO_DISABILITY) && codes.length > 1) return "'Sin discapacidad' no puede ir junto con otra discapacidad.";
  return null;
}

/** A list of codes as stored (JSON text); an empty list is stored as unknown (null). */
export function storeCodes(codes: string[] | null | undefined): string | null {
  return codes?.length ? JSON.stringify(codes) : null;
}

/** The stored list back; anything unreadable is none. */
export function readCodes(text: string | null): string[] {
  if (!text) return [];
  try {
    const list: unknown = JSON.parse(text);
    return Array.isArray(list) ? list.filter((c): c is string => typeof c === 'string') : [];
  } catch {
    return [];
  }
}
