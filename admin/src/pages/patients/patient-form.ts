import {
  DEFAULT_NID_REGEX,
  MESSAGES,
  normaliseName,
  normaliseNid,
  validateDate,
  validateEmail,
  validateName,
  validateNid,
  validatePhone,
  validateRequired,
  validateText,
} from '@vigia/contract/rules/validation';
import { COLOMBIA_ID } from './patient-status';

/** The values of the patient forms (new patient, basic data, contact data) as the form holds them. */
export interface PatientFormValues {
  country_id?: number;
  id_type?: number;
  nid?: string;
  first_name?: string;
  last_name?: string;
  city_id?: number | null;
  birth_date?: string;
  gender?: number;
  address?: string;
  neighborhood?: string;
  prefix?: string;
  cellphone?: string;
  email?: string;
  eapb_id?: number | null;
  regime?: number | null;
  blood_type?: number | null;
  rh_factor?: number | null;
  // Issue 51: what the national RDA (Resolución 1888) needs of the patient; codes of the guide's lists.
  biological_sex?: string | null;
  gender_identity?: string | null;
  residence_zone?: string | null;
  nationality?: string | null;
  ethnicity?: string | null;
  ethnic_community?: string | null;
  disabilities?: string[];
}

/** The guide's 'Sin discapacidad' (ColombianDisabilityClassification 08): a statement of its own. */
export const NO_DISABILITY = '08';

/**
 * The disabilities after a change of the multiple select: choosing 'Sin discapacidad' leaves it
 * alone, choosing a disability beside it drops it (the API refuses both together).
 */
export function exclusiveDisabilities(previous: readonly string[], next: readonly string[]): string[] {
  const added = next.filter((code) => !previous.includes(code));
  if (added.includes(NO_DISABILITY)) return [NO_DISABILITY];
  return next.filter((code) => code !== NO_DISABILITY || next.length === 1);
}

type Field = keyof PatientFormValues;
const present = (v: unknown) => (v === undefined || v === null || v === '' ? null : String(v));
const requiredChoice = (v: unknown) => validateRequired(present(v));

/** 01 §5: every rule of the patient form, each the shared catalogue's (03 §5). */
export const PATIENT_FIELD_RULES: Record<Field, (v: PatientFormValues, ctx: { nidRegex?: string; today: string }) => string | null> = {
  country_id: (v) => requiredChoice(v.country_id),
  id_type: (v) => requiredChoice(v.id_type),
  nid: (v, ctx) => validateNid(v.nid, ctx.nidRegex ?? DEFAULT_NID_REGEX),
  first_name: (v) => validateName(v.first_name),
  last_name: (v) => validateName(v.last_name),
  city_id: (v) => requiredChoice(v.city_id),
  birth_date: (v, ctx) => validateDate(v.birth_date, 'birth', ctx.today),
  gender: (v) => requiredChoice(v.gender),
  address: (v) => validateText(v.address, 200),
  neighborhood: (v) => validateText(v.neighborhood, 200),
  prefix: (v) => requiredChoice(v.prefix),
  cellphone: (v) => validatePhone(v.cellphone),
  email: (v) => validateEmail(v.email),
  eapb_id: () => null,
  regime: () => null,
  blood_type: () => null,
  rh_factor: () => null,
  biological_sex: () => null,
  gender_identity: () => null,
  residence_zone: () => null,
  nationality: () => null,
  ethnicity: () => null,
  ethnic_community: (v) => ((v.ethnic_community?.trim().length ?? 0) > 100 ? MESSAGES.textMax(100) : null),
  disabilities: () => null,
};

/** Issue 51: the section 'Datos para el RDA (Resolución 1888)', all optional, part of the basic data. */
export const RDA_FIELDS: Field[] = [
  'biological_sex',
  'gender_identity',
  'residence_zone',
  'nationality',
  'ethnicity',
  'ethnic_community',
  'disabilities',
];
export const IDENTITY_FIELDS: Field[] = ['country_id', 'id_type', 'nid'];
export const BASIC_FIELDS: Field[] = [
  'country_id',
  'id_type',
  'nid',
  'first_name',
  'last_name',
  'birth_date',
  'gender',
  'blood_type',
  'rh_factor',
  'eapb_id',
  'regime',
  ...RDA_FIELDS,
];
/** 01 §7: the contact update sends exactly these. */
export const CONTACT_FIELDS: Field[] = ['address', 'neighborhood', 'city_id', 'cellphone', 'prefix', 'email'];
export const NEW_PATIENT_FIELDS: Field[] = [...new Set([...BASIC_FIELDS, ...CONTACT_FIELDS])];

/** The first error of each listed field (null when valid): drives both messages and disabled Save buttons. */
export function patientFormErrors(
  values: PatientFormValues,
  fields: Field[],
  ctx: { nidRegex?: string; today: string },
): Partial<Record<Field, string>> {
  const errors: Partial<Record<Field, string>> = {};
  for (const f of fields) {
    const message = PATIENT_FIELD_RULES[f](values, ctx);
    if (message) errors[f] = message;
  }
  return errors;
}

/**
 * The body to send for the listed fields (01 §5): text upper-cased and trimmed, id without dots or
 * spaces, e-mail untouched; insurer and regime only for Colombia (null otherwise).
 */
export function toPatientBody(values: PatientFormValues, fields: Field[]): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const f of fields) {
    let v: unknown = values[f];
    if (f === 'disabilities') v = v ?? [];
    if (v === undefined || v === '') v = null;
    if (typeof v === 'string') {
      if (f === 'first_name' || f === 'last_name' || f === 'address' || f === 'neighborhood' || f === 'ethnic_community')
        v = normaliseName(v) || null;
      else if (f === 'nid') v = normaliseNid(v);
      else v = v.trim();
    }
    body[f] = v;
  }
  if ('eapb_id' in body && values.country_id !== COLOMBIA_ID) {
    body.eapb_id = null;
    body.regime = null;
  }
  // A community belongs to an ethnic group: without one it is not kept.
  if ('ethnic_community' in body && !values.ethnicity) body.ethnic_community = null;
  return body;
}

/** 'YYYY-MM-DD' of a Date in the browser's zone (the user's). */
export function isoDay(d: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** 01 §9: a new form's birth date is yesterday. */
export function yesterday(today: Date): string {
  const d = new Date(today);
  d.setDate(d.getDate() - 1);
  return isoDay(d);
}
