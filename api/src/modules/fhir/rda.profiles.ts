import { randomUUID } from 'node:crypto';
import type { FhirConditionRow, FhirMeasurement, FhirPatientRow } from './fhir.mappers';

/**
 * What the RDA guide (`minsalud.fhir.co.rda` 0.7.1, Resolución 1888 de 2025) fixes — canonical
 * URLs, code systems, the codings a profile fixes with their displays — and the plain input the
 * RDA builder takes (rda.*.ts). Codes arrive as codes with their displays: the builder looks no
 * catalogue up; a later step maps the database to these types (docs/rda-plan.md §2, §5).
 */

export type Json = Record<string, unknown>;

export const RDA = 'https://fhir.minsalud.gov.co/rda/';
export const rdaProfile = (name: string) => `${RDA}StructureDefinition/${name}`;
export const rdaSystem = (name: string) => `${RDA}CodeSystem/${name}`;
export const rdaNaming = (name: string) => `${RDA}NamingSystem/${name}`;

export const LOINC = 'http://loinc.org';

/**
 * Each RDA's Composition.type (LOINC), by `rdas.kind`: the builders write it, and the FHIR API's
 * Composition search (`type`) finds the documents by it.
 */
export const RDA_DOCUMENT_TYPES = {
  consulta: { code: '51845-6', display: 'Outpatient Consult note' },
  paciente: { code: '102089-0', display: 'FHIR resource patient medical record' },
} as const;
export const SNOMED = 'http://snomed.info/sct';
export const UCUM = 'http://unitsofmeasure.org';
export const V2_0203 = 'http://terminology.hl7.org/CodeSystem/v2-0203';

/** A code of a guide CodeSystem with its display (the guide requires displays almost everywhere). */
export interface RdaCoded {
  code: string;
  display: string;
}

export const coding = (system: string, c: RdaCoded): Json => ({ system, code: c.code, display: c.display });
export const concept = (system: string, c: RdaCoded, text?: string): Json => ({ coding: [coding(system, c)], ...(text ? { text } : {}) });
export const extension = (name: string, value: Json): Json => ({ url: rdaProfile(name), ...value });
export const meta = (profile: string): Json => ({ profile: [rdaProfile(profile)] });

/** A DIVIPOLA place: its name and, when known, its DANE code (5 digits municipality, 2 department). */
export interface RdaPlace {
  name: string;
  divipola?: RdaCoded;
}

export interface RdaPatient {
  /** The base mapping's input (patientFor): id, document number, names, gender, birth date, status. */
  row: FhirPatientRow;
  /** ColombianPersonIdentifier (the 15 of ColombianPersonIdentifierCodes: CC, TI, RC, CE, PA, PPT…). */
  documentType: RdaCoded;
  /** ColombianGenderGroup (01 Hombre, 02 Mujer, 03 Indeterminado o Intersexual): required when gender is sent. */
  sex?: RdaCoded;
  firstSurname?: string;
  secondSurname?: string;
  /** ColombianResidenceZone (01 Urbana, 02 Rural). */
  residenceZone: RdaCoded;
  city: RdaPlace;
  /** The country of residence: its name and ISO 3166-1 numeric code (170 Colombia). */
  country: { name: string; isoNumeric: RdaCoded };
  nationalities?: RdaCoded[];
  ethnicity?: RdaCoded;
  ethnicCommunity?: string;
  disabilities?: RdaCoded[];
  genderIdentity?: RdaCoded;
}

export interface RdaPractitioner {
  id: number;
  active: boolean;
  documentType: RdaCoded;
  nid: string;
  givenNames: string;
  firstSurname: string;
  secondSurname?: string;
  /** RETHUSqualification (003 Medicina, 001 Enfermería…) and the RETHUS registration number. */
  profession: RdaCoded;
  rethusNumber: string;
}

export interface RdaOrganisation {
  id: number;
  name: string;
  /** NIT digits (the check digit apart) and the REPS código de habilitación. */
  nit: string;
  repsCode: string;
  /** When the NIT/REPS registration took effect (identifier.period.start is 1..1 in the profile). */
  registeredOn: string;
  /** ColombianProviderClass (IPS, TEP, OTHER); optional ColombianLegalNatureType and ColombianHealthcareLevel. */
  providerClass: RdaCoded;
  legalNature?: RdaCoded;
  careLevel?: RdaCoded;
  address: { text: string; city: RdaPlace; state: RdaPlace };
}

/** The sede (REPS site) where the consultation is given: a CareDeliveryLocationRDA. */
export interface RdaSite {
  repsCode: string;
  name: string;
}

/** An EAPB (entidad administradora de planes de beneficios): its code for the patient's regime. */
export interface RdaPayer {
  code: string;
  name: string;
}

/** A diagnosis of the consultation: ICD-10 CO (4 characters, no dot: I10X, E119) with its display. */
export interface RdaDiagnosis {
  icd10: RdaCoded;
}

/** Readings reviewed: groups as observationFor takes them (a BP pair is one group) with when they were stored. */
export interface RdaReading {
  group: FhirMeasurement[];
  issued: Date;
}

export interface RdaConsultation {
  /** The encounter's id (EncounterIdentifier's value). */
  id: number;
  organisation: RdaOrganisation;
  site?: RdaSite;
  practitioner: RdaPractitioner;
  patient: RdaPatient;
  payer?: RdaPayer;
  start: Date;
  end: Date;
  /** ColombianTechModality (09 Telemedicina - Telemonitoreo…), EntornoAtencion (01 Hogar…), optional REPS service. */
  modality: RdaCoded;
  environment: RdaCoded;
  service?: RdaCoded;
  /** CUPSConsultationCodes (890301, 890201…) and RIPSCausaExternaVersion2 (38 Enfermedad general…). */
  cups: RdaCoded;
  externalCause: RdaCoded;
  /** 1 to 4: the main diagnosis first, then up to 3 comorbidities. */
  diagnoses: RdaDiagnosis[];
  /** RIPSTipoDiagnosticoPrincipalVersion2 of the main diagnosis (01 Impresión diagnóstica, 02, 03). */
  mainDiagnosisType: RdaCoded;
  readings: RdaReading[];
  reason: string;
  findings: string;
  plan: string;
  /** ColombianLicenseScope (01 Nueva, 02 Prórroga) and days; 'sin incapacidad' is 01 with 0 days (P2xx). */
  sickLeave: { scope: RdaCoded; days: number };
  /** FactorRiesgo (01–06) with the clinician's text; at least one ('06 Otro' + 'Sin factores…' when none). */
  riskFactors: { factor: RdaCoded; text: string }[];
  /** The medication the patient takes, as text (MedicationStatementRDA allows text only); at least one. */
  medications: string[];
  /** The Epicrisis PDF (DocumentReferenceEPIRDA), base64. */
  epicrisisPdf: string;
  /** A nota aclaratoria: the document this version replaces (its Bundle identifier), its number and why. */
  correction?: RdaCorrection;
}

/** What a corrected version (nota aclaratoria) says about the one it replaces. */
export interface RdaCorrection {
  /** The replaced document's identifier (Bundle.identifier.value, NamingSystem identifier-RDA). */
  replaces: string;
  /** This version's number (2 for the first correction). */
  version: number;
  /** 'Motivo de la aclaración', as the clinician wrote it. */
  reason: string;
}

/** A fresh UUID per key, the same for the same key within one document (RdaBuildOptions.uuid in the product). */
export function documentUuids(): (key: string) => string {
  const ids = new Map<string, string>();
  return (key) => {
    if (!ids.has(key)) ids.set(key, randomUUID());
    return ids.get(key)!;
  };
}

export interface RdaBuildOptions {
  now: Date;
  /** A UUID per key ('bundle', 'patient', 'condition:0'…): random in the product, fixed in tests. */
  uuid: (key: string) => string;
}

/** A consultation's diagnosis as the base mapping's row: conditionFor makes the Condition the profile adds to. */
export const diagnosisRow = (d: RdaDiagnosis, i: number, patientId: number, at: Date): FhirConditionRow => ({
  id: i,
  patient_id: patientId,
  name: d.icd10.display,
  icd10: d.icd10.code,
  notes: null,
  active: true,
  start_date: null,
  end_date: null,
  updated_at: at,
});

/** The patient's own history (RDA de paciente, BundlePatientStatementRDA): what they state at enrolment. */
export interface RdaPatientStatement {
  patient: RdaPatient;
  /** Who recorded it (CompositionPatientStatementRDA.author is a PractitionerRDA only). */
  practitioner: RdaPractitioner;
  organisation?: RdaOrganisation;
  /** ColombianTechModality and GrupoServicios of the enrolment, and when it ran. */
  modality: RdaCoded;
  serviceGroup: RdaCoded;
  period: { start: Date; end: Date };
  /** The patient's conditions (conditionFor's rows) with their ICD-10 CO code when the type has one. */
  conditions: { row: FhirConditionRow; icd10?: RdaCoded }[];
  medications: string[];
  /** TipoAlergia (01 Medicamento … 06 Otra) and what the patient says. */
  allergies: { type: RdaCoded; text: string }[];
  /** ParentescoAntecedente (01 Padres … 04 Abuelos), the condition's text and, when known, its ICD-10 CO code. */
  familyHistory: { relationship: RdaCoded; text: string; icd10?: RdaCoded }[];
}

/** The sections both compositions carry, with the guide's LOINC codes: one definition for both documents. */
export const HISTORY_SECTIONS = {
  medications: { title: 'Historial de medicamentos', code: '10160-0', display: 'History of Medication use Narrative' },
  allergies: {
    title: 'Historial de alergias, intolerancias y reacciones adversas',
    code: '48765-2',
    display: 'Allergies and adverse reactions Document',
  },
  problems: { title: 'Historial de diagnósticos de problemas de salud', code: '11450-4', display: 'Problem list - Reported' },
} as const;
