import type { components } from '../openapi';

/**
 * What an RDA (Resolución 1888 de 2025, issue 51) still lacks, from the product's own records: the
 * provider (Client), the sede (ClientSite), the practitioner (User) and the patient (Patient). The
 * screen that closes a consultation lists these with a link to the record to fix; the RDA builder
 * refuses to write while a required one remains. Profiles: minsalud.fhir.co.rda 0.7.1
 * (docs/rda-plan.md §1).
 *
 * `required` gaps are elements the profiles require (min ≥ 1); the others are the national data the
 * guide defines as optional and the issue asks the product to record (ethnicity, disability,
 * nationality, insurer): listed, never blocking.
 */
type S = components['schemas'];

export type RdaRecord = 'organization' | 'site' | 'practitioner' | 'patient' | 'encounter';

export interface RdaGap {
  record: RdaRecord;
  /** The record's id, for the link that fixes it. */
  id: number;
  /** The contract field the gap concerns. */
  field: string;
  message: string;
  required: boolean;
}

/** Vigía's country id for Colombia (seeds/build-catalogues.ts COUNTRY_IDS). */
export const COLOMBIA_ID = 26;

/**
 * The document types PatientRDA and PractitionerRDA accept: ValueSet ColombianPersonIdentifierCodes
 * (15 of the 19 ColombianPersonIdentifier codes). Vigía's NU and DE, and Spain's types, are not in it.
 */
export const RDA_PERSON_ID_TYPES = ['CN', 'RC', 'TI', 'CC', 'PA', 'CD', 'CE', 'SC', 'PE', 'PT', 'PPT', 'RUT', 'AS', 'MS', 'SI'] as const;

export type RdaOrganization = Pick<S['Client'], 'id' | 'country_id' | 'nit' | 'reps_code' | 'provider_class' | 'address' | 'city_id'>;
export type RdaSite = Pick<S['ClientSite'], 'id' | 'name' | 'reps_site_code'>;
export type RdaPractitioner = Pick<S['User'], 'id' | 'id_type' | 'nid' | 'profession' | 'rethus_number'>;
export type RdaPatient = Pick<
  S['Patient'],
  'id' | 'country_id' | 'city_id' | 'biological_sex' | 'residence_zone' | 'nationality' | 'ethnicity' | 'disabilities' | 'eapb_id'
>;

const blank = (v: string | number | null | undefined) => v == null || (typeof v === 'string' && v.trim() === '');

function gapsOf(
  record: RdaRecord,
  id: number,
  checks: Array<[field: string, missing: boolean, message: string, required?: boolean]>,
): RdaGap[] {
  return checks.filter(([, missing]) => missing).map(([field, , message, required = true]) => ({ record, id, field, message, required }));
}

/** CareDeliveryOrganizationRDA: NIT and REPS code (identifier 2..2), class, work address in Colombia. */
export function organizationGaps(o: RdaOrganization): RdaGap[] {
  return gapsOf('organization', o.id, [
    ['country_id', o.country_id !== COLOMBIA_ID, 'El RDA aplica solo a prestadores de Colombia'],
    ['nit', blank(o.nit), 'Falta el NIT del prestador'],
    ['reps_code', blank(o.reps_code), 'Falta el código REPS del prestador'],
    ['provider_class', blank(o.provider_class), 'Falta la clase de prestador'],
    ['address', blank(o.address), 'Falta la dirección del prestador'],
    ['city_id', blank(o.city_id), 'Falta el municipio del prestador'],
  ]);
}

/** CareDeliveryLocationRDA (the sede of the consultation): identifier (REPS) 1..1. */
export function siteGaps(s: RdaSite): RdaGap[] {
  return gapsOf('site', s.id, [['reps_site_code', blank(s.reps_site_code), `Falta el código REPS de la sede ${s.name}`]]);
}

/**
 * PractitionerRDA: identifier NationalPersonIdentifier 1..1 (a type the guide lists) and
 * qualification 1..* with the RETHUS code and the registration number. `idTypeCode` is the code
 * of the user's `id_type` ('CC').
 */
export function practitionerGaps(u: RdaPractitioner, idTypeCode: string | null): RdaGap[] {
  const hasDocument = !blank(u.id_type) && !blank(u.nid);
  return gapsOf('practitioner', u.id, [
    ['nid', !hasDocument, 'Falta el documento de identidad del profesional'],
    ['id_type', hasDocument && !isRdaIdType(idTypeCode), idTypeRefused(idTypeCode, 'del profesional')],
    ['profession', blank(u.profession), 'Falta la profesión (RETHUS) del profesional'],
    ['rethus_number', blank(u.rethus_number), 'Falta el número de registro RETHUS del profesional'],
  ]);
}

/**
 * PatientRDA: a document type the guide lists; the home address's municipality and its residence
 * zone (1..1); the biological sex, required beside the administrative gender Vigía always has.
 * Nationality, ethnicity, disability and the insurer are optional there: listed, not required.
 */
export function patientGaps(p: RdaPatient, idTypeCode: string | null): RdaGap[] {
  return gapsOf('patient', p.id, [
    ['id_type', !isRdaIdType(idTypeCode), idTypeRefused(idTypeCode, 'del paciente')],
    ['city_id', blank(p.city_id), 'Falta el municipio de residencia del paciente'],
    ['residence_zone', blank(p.residence_zone), 'Falta la zona de residencia del paciente'],
    ['biological_sex', blank(p.biological_sex), 'Falta el sexo biológico del paciente'],
    ['nationality', blank(p.nationality), 'Falta la nacionalidad del paciente', false],
    ['ethnicity', blank(p.ethnicity), 'Falta la etnia del paciente', false],
    ['disabilities', p.disabilities.length === 0, 'Falta indicar si el paciente tiene una discapacidad (o «Sin discapacidad»)', false],
    ['eapb_id', p.country_id === COLOMBIA_ID && blank(p.eapb_id), 'Falta la aseguradora (EAPB) del paciente', false],
  ]);
}

function idTypeRefused(code: string | null, whose: string): string {
  return code ? `El RDA no admite el tipo de documento ${code} ${whose}` : `El RDA no admite el tipo de documento ${whose}`;
}

export function isRdaIdType(code: string | null): boolean {
  return code != null && (RDA_PERSON_ID_TYPES as readonly string[]).includes(code);
}

export interface RdaParties {
  organization: RdaOrganization;
  /** The sede of the consultation, when it has one (the patient's RDA has none). */
  site?: RdaSite | null;
  practitioner: RdaPractitioner;
  practitionerIdTypeCode: string | null;
  patient: RdaPatient;
  patientIdTypeCode: string | null;
}

/** Every gap of an RDA's parties, provider first, as the screen lists them. */
export function rdaGaps(parties: RdaParties): RdaGap[] {
  return [
    ...organizationGaps(parties.organization),
    ...(parties.site ? siteGaps(parties.site) : []),
    ...practitionerGaps(parties.practitioner, parties.practitionerIdTypeCode),
    ...patientGaps(parties.patient, parties.patientIdTypeCode),
  ];
}

/** Whether the RDA can be written: no required gap remains. */
export function rdaComplete(gaps: RdaGap[]): boolean {
  return gaps.every((g) => !g.required);
}

/** Words that begin a compound surname and belong to the word after them ('DE LA HOZ'). */
const SURNAME_PARTICLES = new Set(['DE', 'DEL', 'LA', 'LAS', 'LOS', 'SAN', 'SANTA', 'VAN', 'VON', 'Y']);

/**
 * The father's and mother's surnames (PractitionerRDA `FathersFamilyName` 1..1,
 * `MothersFamilyName` 0..1; optional on the patient) from Vigía's one `last_name`: the first
 * surname with any particles before it, then the rest. 'GÓMEZ RUIZ' → GÓMEZ + RUIZ; 'DE LA HOZ
 * PÉREZ' → DE LA HOZ + PÉREZ; 'PÉREZ' → PÉREZ + none.
 */
export function splitSurnames(lastName: string): { father: string; mother: string | null } {
  const words = lastName.trim().split(/\s+/).filter(Boolean);
  let end = 0;
  while (end < words.length - 1 && SURNAME_PARTICLES.has(words[end].toUpperCase())) end += 1;
  const father = words.slice(0, end + 1).join(' ');
  const mother = words.slice(end + 1).join(' ');
  return { father, mother: mother || null };
}

/**
 * Which sending statuses a 'Reenviar' may start from (resendRda, and the button on the RDA screens):
 * everything but what the platform already holds ('enviado', 'corregido').
 */
export function canResendRda(status: string): boolean {
  return status === 'sin_enviar' || status === 'pendiente' || status === 'rechazado';
}

/**
 * A nota aclaratoria waiting for the platform to receive the version before it ('pendiente' with
 * no try of its own scheduled): it goes by itself once that version is settled, so 'Reenviar' is
 * refused for it (the server's resendRda and the RDA screens ask this same rule).
 */
export function rdaWaitsForEarlier(r: { status: string; replaces_id: number | null; next_attempt_at: string | Date | null }): boolean {
  return r.status === 'pendiente' && r.replaces_id != null && r.next_attempt_at == null;
}
