import type { Sequelize, Transaction } from 'sequelize';
import { select } from '../../db/sql.js';
import { Client, ClientSite } from '../../db/models/clients.model.js';
import { Patient } from '../../db/models/patients.model.js';
import { User } from '../../db/models/users.model.js';
import type { Catalogues } from '../catalogues/catalogues.service.js';
import type { CodeListName } from '../catalogues/catalogues.sync.js';
import { groupReadings, type FhirConditionRow } from '../fhir/fhir.mappers.js';
import type {
  RdaCoded,
  RdaConsultation,
  RdaOrganisation,
  RdaPatient,
  RdaPatientStatement,
  RdaPlace,
  RdaPractitioner,
} from '../fhir/rda.profiles.js';
import { COLOMBIA_ID, patientGaps, practitionerGaps, rdaGaps, splitSurnames, type RdaGap } from '@vigia/contract/rules/rda';
import { NO_SICK_LEAVE, SERVICE_GROUP, teleconsultationGaps } from '@vigia/contract/rules/teleconsultations';
import { ORDER_TYPE, ORDER_STATUS } from '@vigia/contract/rules/activities';
import { displayName } from '@vigia/contract/rules/names';
import type { components } from '@vigia/contract/openapi';

type Schemas = components['schemas'];

/**
 * The one place where Vigía's rows become the RDA builder's input (docs/rda-plan.md §2): the
 * provider (clients), its sede (client_sites), the practitioner (the user who closes), the patient
 * with the guide's codes it stores, its EAPB, conditions and medication orders, and the
 * teleconsultation's own rows. Codes are looked up in the guide's lists (seeds/catalogues) for
 * their displays; what is missing is not invented: `rdaGaps` names it and nothing is built.
 */

export interface RdaInputDeps {
  sequelize: Sequelize;
  catalogues: Catalogues;
}

/** The DIVIPOLA municipality Vigía lists and the guide does not (Nuevo Belén de Bajirá, created 2022): sent by name only. */
const NOT_IN_GUIDE_DIVIPOLA = new Set(['27493']);

interface DiagnosisRow {
  rank: number;
  code: string;
  diagnosis_type: string | null;
}
interface RiskFactorRow {
  code: string;
  text: string;
}
interface ReadingRow {
  id: number;
  patient_id: number;
  clinical_element: number;
  value: number;
  when: string | Date;
  created_at: string | Date;
}

/** A teleconsultation's rows as the RDA reads them: the encounter and the records its parties are. */
export interface ConsultationRecords {
  encounter: {
    id: number;
    created_at: Date;
    modality: string | null;
    environment: string | null;
    reps_service: string | null;
    cups_code: string | null;
    external_cause: string | null;
    reason: string | null;
    findings: string | null;
    plan: string | null;
    medication_note: string | null;
    sick_leave_scope: string | null;
    sick_leave_days: number | null;
    site_id: number | null;
  };
  client: Client;
  site: ClientSite | null;
  user: User;
  patient: Patient;
  diagnoses: DiagnosisRow[];
  riskFactors: RiskFactorRow[];
  readings: ReadingRow[];
  medications: string[];
}

export async function loadDiagnoses(sequelize: Sequelize, encounterId: number, t?: Transaction): Promise<DiagnosisRow[]> {
  const rows = await select<DiagnosisRow>(
    sequelize,
    'SELECT rank, code, diagnosis_type FROM encounter_diagnoses WHERE encounter_id = :id ORDER BY rank',
    { id: encounterId },
    t,
  );
  return rows.map((r) => ({ ...r, rank: Number(r.rank) }));
}

export function loadRiskFactors(sequelize: Sequelize, encounterId: number, t?: Transaction): Promise<RiskFactorRow[]> {
  return select<RiskFactorRow>(
    sequelize,
    'SELECT code, text FROM encounter_risk_factors WHERE encounter_id = :id ORDER BY position',
    { id: encounterId },
    t,
  );
}

export async function loadReadingIds(sequelize: Sequelize, encounterId: number, t?: Transaction): Promise<number[]> {
  const rows = await select<{ measurement_id: number }>(
    sequelize,
    'SELECT measurement_id FROM encounter_readings WHERE encounter_id = :id ORDER BY measurement_id',
    { id: encounterId },
    t,
  );
  return rows.map((r) => Number(r.measurement_id));
}

async function loadReadings(sequelize: Sequelize, encounterId: number, t?: Transaction): Promise<ReadingRow[]> {
  const rows = await select<ReadingRow>(
    sequelize,
    `SELECT m.id, m.patient_id, m.clinical_element, m.value, m."when", m.created_at FROM encounter_readings er
     JOIN measurements m ON m.id = er.measurement_id WHERE er.encounter_id = :id ORDER BY m."when", m.id`,
    { id: encounterId },
    t,
  );
  return rows.map((r) => ({ ...r, id: Number(r.id), patient_id: Number(r.patient_id), value: Number(r.value) }));
}

/** The medication the patient takes, as MedicationStatementRDA's text: each live or unmanaged medication order. */
export async function loadMedications(sequelize: Sequelize, clientId: number, patientId: number, t?: Transaction): Promise<string[]> {
  const rows = await select<{ name: string | null; presentation: string | null; to_human: string | null }>(
    sequelize,
    `SELECT md.name, md.presentation, o.to_human FROM orders o LEFT JOIN medicines md ON md.id = o.medicine_id
     WHERE o.client_id = :clientId AND o.patient_id = :patientId AND o.order_type = :medication AND o.status IN (:live) ORDER BY o.id`,
    {
      clientId,
      patientId,
      medication: ORDER_TYPE.medication,
      live: [ORDER_STATUS.unmanaged, ORDER_STATUS.scheduled, ORDER_STATUS.running],
    },
    t,
  );
  return rows
    .map((r) => [[r.name, r.presentation].filter(Boolean).join(' '), r.to_human].filter(Boolean).join(': ').trim())
    .filter(Boolean);
}

export async function loadConsultationRecords(
  deps: RdaInputDeps,
  encounter: ConsultationRecords['encounter'] & { client_id: number; patient_id: number },
  userId: number,
  t?: Transaction,
): Promise<ConsultationRecords> {
  const [client, site, user, patient, diagnoses, riskFactors, readings, medications] = await Promise.all([
    Client.findByPk(encounter.client_id, { transaction: t }),
    encounter.site_id ? ClientSite.findOne({ where: { id: encounter.site_id, client_id: encounter.client_id }, transaction: t }) : null,
    User.findByPk(userId, { transaction: t }),
    Patient.findOne({ where: { id: encounter.patient_id, client_id: encounter.client_id }, transaction: t }),
    loadDiagnoses(deps.sequelize, encounter.id, t),
    loadRiskFactors(deps.sequelize, encounter.id, t),
    loadReadings(deps.sequelize, encounter.id, t),
    loadMedications(deps.sequelize, encounter.client_id, encounter.patient_id, t),
  ]);
  if (!client || !user || !patient) throw new Error(`teleconsultation ${encounter.id}: its client, user or patient is gone`);
  // A plain copy: a model instance's attributes are getters, which a spread would drop.
  const e = encounter;
  const own: ConsultationRecords['encounter'] = {
    id: e.id,
    created_at: new Date(e.created_at),
    modality: e.modality,
    environment: e.environment,
    reps_service: e.reps_service,
    cups_code: e.cups_code,
    external_cause: e.external_cause,
    reason: e.reason,
    findings: e.findings,
    plan: e.plan,
    medication_note: e.medication_note,
    sick_leave_scope: e.sick_leave_scope,
    sick_leave_days: e.sick_leave_days,
    site_id: e.site_id,
  };
  return { encounter: own, client, site, user, patient, diagnoses, riskFactors, readings, medications };
}

const disabilitiesOf = (p: Patient): string[] => (p.disabilities ? (JSON.parse(p.disabilities) as string[]) : []);

/** The practitioner as the gap rules read them (users' columns of migration 0035). */
function practitionerParty(u: User) {
  return {
    id: u.id,
    id_type: u.id_type ?? null,
    nid: u.nid ?? null,
    profession: u.profession ?? null,
    rethus_number: u.rethus_number ?? null,
  };
}

/** The patient as the gap rules read them. */
function patientParty(p: Patient) {
  return {
    id: p.id,
    country_id: p.country_id,
    city_id: p.city_id,
    biological_sex: p.biological_sex ?? null,
    residence_zone: p.residence_zone ?? null,
    nationality: p.nationality ?? null,
    ethnicity: p.ethnicity ?? null,
    disabilities: disabilitiesOf(p),
    eapb_id: p.eapb_id,
  };
}

const idTypeCodeOf = (deps: RdaInputDeps, idType: number | null | undefined) =>
  idType ? (deps.catalogues.idType(idType)?.code ?? null) : null;

/** The parties' gaps (rda.ts) and the consultation's own (teleconsultations.ts), provider first. */
export function consultationGaps(deps: RdaInputDeps, r: ConsultationRecords): RdaGap[] {
  const c = r.client;
  return [
    ...rdaGaps({
      organization: {
        id: c.id,
        country_id: c.country_id,
        nit: c.nit ?? null,
        reps_code: c.reps_code ?? null,
        provider_class: c.provider_class ?? null,
        address: c.address ?? null,
        city_id: c.city_id ?? null,
      },
      site: r.site ? { id: r.site.id, name: r.site.name, reps_site_code: r.site.reps_site_code } : null,
      practitioner: practitionerParty(r.user),
      practitionerIdTypeCode: idTypeCodeOf(deps, r.user.id_type),
      patient: patientParty(r.patient),
      patientIdTypeCode: idTypeCodeOf(deps, r.patient.id_type),
    }),
    ...teleconsultationGaps({
      ...r.encounter,
      diagnoses: r.diagnoses,
      risk_factors: r.riskFactors.length,
      medications: r.medications.length,
    }),
  ];
}

/**
 * What the patient's statement lacks: its author (PractitionerRDA, 1..1) and the patient. The
 * organisation is optional there (the custodian, 0..1: sent only when its record is complete).
 */
export function statementGaps(deps: RdaInputDeps, r: StatementRecords): RdaGap[] {
  return [
    ...practitionerGaps(practitionerParty(r.user), idTypeCodeOf(deps, r.user.id_type)),
    ...patientGaps(patientParty(r.patient), idTypeCodeOf(deps, r.patient.id_type)),
  ];
}

/** The statement's records: the patient of the client, the user who enrolled them or changed their history. */
export async function loadStatementRecords(ids: { clientId: number; patientId: number; userId: number }): Promise<StatementRecords | null> {
  const [client, user, patient] = await Promise.all([
    Client.findByPk(ids.clientId),
    User.findByPk(ids.userId),
    Patient.findOne({ where: { id: ids.patientId, client_id: ids.clientId } }),
  ]);
  return client && user && patient ? { client, user, patient } : null;
}

/**
 * The allergies and family history of migration 0036 as the statement's builder takes them: active
 * allergies only (an inactive one is history the patient no longer states), each coded with its
 * guide display; a family member's ICD-10 code only when CIE-10 CO knows it (the guide requires
 * its display).
 */
export function statedHistoryOf(
  deps: RdaInputDeps,
  allergies: Pick<Schemas['PatientAllergy'], 'allergy_type' | 'allergy_type_name' | 'description' | 'active'>[],
  family: Pick<Schemas['PatientFamilyHistory'], 'relationship' | 'relationship_name' | 'description' | 'icd10'>[],
): StatedHistory {
  return {
    allergies: allergies
      .filter((a) => a.active)
      .map((a) => ({ type: { code: a.allergy_type, display: a.allergy_type_name }, text: a.description })),
    familyHistory: family.map((f) => {
      const icd10 = f.icd10 ? deps.catalogues.code('icd10co', f.icd10) : undefined;
      return {
        relationship: { code: f.relationship, display: f.relationship_name },
        text: f.description,
        ...(icd10 ? { icd10: { code: icd10.code, display: icd10.name } } : {}),
      };
    }),
  };
}

/** A code of a guide list with its display; the caller has checked the code against the list. */
function coded(deps: RdaInputDeps, list: CodeListName, code: string): RdaCoded {
  const item = deps.catalogues.code(list, code);
  if (!item) throw new Error(`${list}: no code ${code}`);
  return { code: item.code, display: item.name };
}

async function placeOf(deps: RdaInputDeps, cityId: number): Promise<{ city: RdaPlace; state: RdaPlace }> {
  const city = deps.catalogues.city(cityId)!;
  const [dept] = city.department_id
    ? await select<{ name: string }>(deps.sequelize, 'SELECT name FROM departments WHERE id = :id', { id: city.department_id })
    : [];
  const state: RdaPlace = { name: dept?.name ?? city.name };
  if (city.country_id !== COLOMBIA_ID) return { city: { name: city.name }, state };
  // Catalogue ids are country × 100,000 + the DANE code (cities) and country × 100 + the department code.
  const dane = String(city.id - COLOMBIA_ID * 100_000).padStart(5, '0');
  const place: RdaPlace = NOT_IN_GUIDE_DIVIPOLA.has(dane)
    ? { name: city.name }
    : { name: city.name, divipola: { code: dane, display: city.name } };
  if (city.department_id && dept) {
    const code = String(city.department_id - COLOMBIA_ID * 100).padStart(2, '0');
    state.divipola = { code, display: dept.name };
  }
  return { city: place, state };
}

async function organisationOf(deps: RdaInputDeps, c: Client): Promise<RdaOrganisation> {
  const place = await placeOf(deps, c.city_id!);
  return {
    id: c.id,
    name: c.name,
    nit: c.nit!,
    repsCode: c.reps_code!,
    // Vigía does not hold the date of the REPS registration (identifier.period.start 1..1): the day
    // the organisation was registered in Vigía is the earliest date it is known to have had it.
    registeredOn: new Date(c.created_at).toISOString().slice(0, 10),
    providerClass: coded(deps, 'provider_classes', c.provider_class!),
    ...(c.legal_nature ? { legalNature: coded(deps, 'legal_natures', c.legal_nature) } : {}),
    ...(c.care_level ? { careLevel: coded(deps, 'care_levels', c.care_level) } : {}),
    address: { text: c.address!, city: place.city, state: place.state },
  };
}

function practitionerOf(deps: RdaInputDeps, u: User): RdaPractitioner {
  const idType = deps.catalogues.idType(u.id_type!)!;
  const surnames = splitSurnames(u.last_name);
  return {
    id: u.id,
    active: true,
    documentType: { code: idType.code, display: idType.name },
    nid: u.nid!,
    givenNames: u.first_name,
    firstSurname: surnames.father,
    ...(surnames.mother ? { secondSurname: surnames.mother } : {}),
    profession: coded(deps, 'professions', u.profession!),
    rethusNumber: u.rethus_number!,
  };
}

async function patientOf(deps: RdaInputDeps, p: Patient): Promise<RdaPatient> {
  const idType = deps.catalogues.idType(p.id_type)!;
  const country = deps.catalogues.country(p.country_id)!;
  // Every Vigía country has one (seeds/rda-catalogues.test.ts).
  const numeric = findNumeric(deps, country.code)!;
  const place = await placeOf(deps, p.city_id!);
  const surnames = splitSurnames(p.last_name);
  const disabilities = disabilitiesOf(p);
  return {
    row: {
      id: p.id,
      nid: p.nid,
      id_type_code: idType.code,
      id_type_name: idType.name,
      country_code: country.code,
      display: displayName(`${p.first_name} ${p.last_name}`),
      first_name: p.first_name,
      last_name: p.last_name,
      birth_date: String(p.birth_date).slice(0, 10),
      gender: Number(p.gender),
      status: Number(p.status),
      updated_at: new Date(p.updated_at),
    },
    documentType: { code: idType.code, display: idType.name },
    sex: coded(deps, 'biological_sexes', p.biological_sex!),
    firstSurname: surnames.father,
    ...(surnames.mother ? { secondSurname: surnames.mother } : {}),
    residenceZone: coded(deps, 'residence_zones', p.residence_zone!),
    city: place.city,
    country: { name: numeric.display, isoNumeric: numeric },
    ...(p.nationality ? { nationalities: [coded(deps, 'nationalities', p.nationality)] } : {}),
    ...(p.ethnicity ? { ethnicity: coded(deps, 'ethnicities', p.ethnicity) } : {}),
    ...(p.ethnic_community ? { ethnicCommunity: p.ethnic_community } : {}),
    ...(disabilities.length ? { disabilities: disabilities.map((d) => coded(deps, 'disabilities', d)) } : {}),
    ...(p.gender_identity ? { genderIdentity: coded(deps, 'gender_identities', p.gender_identity) } : {}),
  };
}

/** The ISO 3166-1 numeric code of a Vigía country (by its alpha-2 code), as the nationalities list has it. */
function findNumeric(deps: RdaInputDeps, alpha2: string): RdaCoded | null {
  const listing = deps.catalogues.listing('nationalities');
  for (const code of Object.keys(listing)) {
    if (deps.catalogues.code('nationalities', code)?.alpha2 === alpha2) return { code, display: listing[code] };
  }
  return null;
}

function payerOf(deps: RdaInputDeps, p: Patient): { code: string; name: string } | undefined {
  const eapb = p.country_id === COLOMBIA_ID ? deps.catalogues.eapb(p.eapb_id) : undefined;
  return eapb ? { code: eapb.code, name: eapb.name } : undefined;
}

/**
 * The builder's input for a consultation whose gaps are closed (consultationGaps has no required
 * one): `end` is when it closes, `epicrisisPdf` the PDF made from this same input.
 */
export async function consultationInput(
  deps: RdaInputDeps,
  r: ConsultationRecords,
  end: Date,
): Promise<Omit<RdaConsultation, 'epicrisisPdf'>> {
  const e = r.encounter;
  const main = r.diagnoses.find((d) => d.rank === 1)!;
  const scope = e.sick_leave_scope ?? NO_SICK_LEAVE.scope;
  const medications = r.medications.length ? r.medications : [e.medication_note!.trim()];
  const payer = payerOf(deps, r.patient);
  return {
    id: e.id,
    organisation: await organisationOf(deps, r.client),
    ...(r.site?.reps_site_code ? { site: { repsCode: r.site.reps_site_code, name: r.site.name } } : {}),
    practitioner: practitionerOf(deps, r.user),
    patient: await patientOf(deps, r.patient),
    ...(payer ? { payer } : {}),
    start: new Date(e.created_at),
    end,
    modality: coded(deps, 'tech_modalities', e.modality!),
    environment: coded(deps, 'care_environments', e.environment!),
    ...(e.reps_service ? { service: coded(deps, 'reps_services', e.reps_service) } : {}),
    cups: coded(deps, 'cups_consultations', e.cups_code!),
    externalCause: coded(deps, 'external_causes', e.external_cause!),
    diagnoses: r.diagnoses.map((d) => ({ icd10: coded(deps, 'icd10co', d.code) })),
    mainDiagnosisType: coded(deps, 'diagnosis_types', main.diagnosis_type!),
    readings: groupReadings(r.readings.map((m) => ({ ...m, when: new Date(m.when) }))).map((group) => ({
      group: group.map(({ id, clinical_element, value, when }) => ({ id, clinical_element, value, when })),
      issued: new Date(r.readings.find((m) => m.id === group[0].id)!.created_at),
    })),
    reason: e.reason!.trim(),
    findings: e.findings!.trim(),
    plan: e.plan!.trim(),
    sickLeave: { scope: coded(deps, 'license_scopes', scope), days: e.sick_leave_scope ? (e.sick_leave_days ?? 0) : NO_SICK_LEAVE.days },
    riskFactors: r.riskFactors.map((f) => ({ factor: coded(deps, 'risk_factors', f.code), text: f.text })),
    medications,
  };
}

/**
 * The history the patient states (RDA de paciente): conditions with their CIE-10 CO code, the
 * medication orders, and the allergies and family history `history` carries — the tables of
 * migration 0036 belong to their own modules, which hand them in (coded already).
 */
export interface StatedHistory {
  allergies: RdaPatientStatement['allergies'];
  familyHistory: RdaPatientStatement['familyHistory'];
}

export interface StatementRecords {
  client: Client;
  user: User;
  patient: Patient;
}

export async function patientStatementInput(
  deps: RdaInputDeps,
  r: StatementRecords,
  period: { start: Date; end: Date },
  history: StatedHistory = { allergies: [], familyHistory: [] },
): Promise<RdaPatientStatement> {
  type ConditionDbRow = Omit<FhirConditionRow, 'start_date' | 'end_date' | 'updated_at'> & {
    icd10co: string | null;
    start_date: string | Date | null;
    end_date: string | Date | null;
    updated_at: string | Date;
  };
  const conditions = await select<ConditionDbRow>(
    deps.sequelize,
    `SELECT pc.id, pc.patient_id, ct.name, ct.icd10, ct.icd10co, pc.notes, pc.active, pc.start_date, pc.end_date, pc.updated_at
     FROM patient_conditions pc JOIN condition_types ct ON ct.id = pc.condition_type_id WHERE pc.patient_id = :patientId ORDER BY pc.id`,
    { patientId: r.patient.id },
  );
  const dateOrNull = (v: string | Date | null) => (v == null ? null : new Date(v));
  return {
    patient: await patientOf(deps, r.patient),
    practitioner: practitionerOf(deps, r.user),
    ...(rdaOrganisationReady(r.client) ? { organisation: await organisationOf(deps, r.client) } : {}),
    modality: coded(deps, 'tech_modalities', '09'),
    serviceGroup: coded(deps, 'service_groups', SERVICE_GROUP),
    period,
    conditions: conditions.map(({ icd10co, ...c }) => ({
      row: {
        ...c,
        id: Number(c.id),
        patient_id: Number(c.patient_id),
        start_date: dateOrNull(c.start_date),
        end_date: dateOrNull(c.end_date),
        updated_at: new Date(c.updated_at),
      },
      ...(icd10co && deps.catalogues.code('icd10co', icd10co) ? { icd10: coded(deps, 'icd10co', icd10co) } : {}),
    })),
    medications: await loadMedications(deps.sequelize, r.client.id, r.patient.id),
    allergies: history.allergies,
    familyHistory: history.familyHistory,
  };
}

/** The statement's custodian is optional (0..1): sent only when the organisation's record is complete. */
const rdaOrganisationReady = (c: Client) => Boolean(c.nit && c.reps_code && c.provider_class && c.address && c.city_id);
