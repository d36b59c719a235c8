import { conditionFor, observationFor } from './fhir.mappers';
import {
  coding,
  concept,
  diagnosisRow,
  extension,
  meta,
  rdaNaming,
  rdaSystem,
  type Json,
  type RdaConsultation,
  type RdaReading,
} from './rda.profiles';

/**
 * The clinical core of a consultation's RDA: EncounterAmbulatoryRDA, its diagnoses
 * (ConditionRDA over conditionFor) and the readings reviewed (observationFor, base R4: the guide
 * has no profile for them, so they ride on the Bundle's open slicing and the main diagnosis'
 * `evidence.detail` points at them — plan §0.1).
 */

const ICD10 = 'http://hl7.org/fhir/sid/icd-10';
const CONDITION_CATEGORY = 'http://terminology.hl7.org/CodeSystem/condition-category';

/** Encounter.diagnosis slices by rank: 1 the main diagnosis, 2–4 Comorbidity-1…3 (SNOMED roles in ColombianDiagnosisRole). */
export const DIAGNOSIS_ROLES = [
  { id: 'MainDiagnosis', code: '8319008', display: 'diagnóstico primario' },
  { id: 'Comorbidity-1', code: '398192003', display: 'comorbilidades' },
  { id: 'Comorbidity-2', code: '398192003', display: 'comorbilidades' },
  { id: 'Comorbidity-3', code: '398192003', display: 'comorbilidades' },
] as const;

export interface EncounterRefs {
  patient: string;
  practitioner: string;
  organisation: string;
  location?: string;
  conditions: string[];
}

export function rdaEncounter(c: RdaConsultation, id: string, refs: EncounterRefs): Json {
  return {
    resourceType: 'Encounter',
    id,
    meta: meta('EncounterAmbulatoryRDA'),
    identifier: [{ id: 'EncounterIdentifier', use: 'usual', system: rdaNaming('Encounters'), value: String(c.id) }],
    status: 'finished',
    class: { system: 'http://terminology.hl7.org/CodeSystem/v3-ActCode', code: 'AMB', display: 'ambulatory' },
    type: [
      concept(rdaSystem('ColombianTechModality'), c.modality),
      concept(rdaSystem('GrupoServicios'), { code: '01', display: 'Consulta externa' }),
      concept(rdaSystem('EntornoAtencion'), c.environment),
      ...(c.service ? [concept(rdaSystem('REPShealthcareServices'), c.service)] : []),
    ],
    serviceType: concept(rdaSystem('CUPS'), c.cups),
    subject: { reference: refs.patient },
    participant: [
      {
        id: 'AttenderPhysician',
        type: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v3-ParticipationType', code: 'ATND', display: 'attender' }] }],
        individual: { reference: refs.practitioner },
      },
    ],
    period: { start: c.start.toISOString(), end: c.end.toISOString() },
    reasonCode: [concept(rdaSystem('RIPSCausaExternaVersion2'), c.externalCause)],
    diagnosis: refs.conditions.slice(0, DIAGNOSIS_ROLES.length).map((ref, i) => {
      const role = DIAGNOSIS_ROLES[i];
      return {
        id: role.id,
        ...(i === 0
          ? {
              extension: [
                extension('ExtensionDiagnosisType', {
                  valueCoding: coding(rdaSystem('RIPSTipoDiagnosticoPrincipalVersion2'), c.mainDiagnosisType),
                }),
              ],
            }
          : {}),
        condition: { reference: ref },
        use: { coding: [{ system: rdaSystem('ColombianDiagnosisRole'), code: role.code, display: role.display }] },
        rank: i + 1,
      };
    }),
    ...(refs.location ? { location: [{ location: { reference: refs.location } }] } : {}),
    serviceProvider: { reference: refs.organisation },
  };
}

/**
 * ConditionRDA: conditionFor's Condition, an encounter diagnosis, active; what the profile
 * forbids (onset, abatement, note, recordedDate) conditionFor leaves out for a consultation's row.
 */
export function rdaCondition(c: RdaConsultation, index: number, id: string, patientRef: string, evidence: string[]): Json {
  const d = c.diagnoses[index];
  const base = conditionFor(diagnosisRow(d, index, c.patient.row.id, c.end));
  return {
    ...base,
    id,
    meta: { ...(base.meta as Json), ...meta('ConditionRDA') },
    clinicalStatus: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/condition-clinical', code: 'active', display: 'Active' }] },
    category: [{ coding: [{ system: CONDITION_CATEGORY, code: 'encounter-diagnosis', display: 'Encounter Diagnosis' }] }],
    code: { coding: [{ system: ICD10, code: d.icd10.code, display: d.icd10.display }], text: d.icd10.display },
    subject: { reference: patientRef },
    ...(evidence.length ? { evidence: [{ detail: evidence.map((reference) => ({ reference })) }] } : {}),
  };
}

/** A reading reviewed: observationFor's Observation, its subject the document's patient. */
export function rdaReading(r: RdaReading, c: RdaConsultation, id: string, patientRef: string, encounterRef: string): Json {
  return {
    ...observationFor(r.group, c.patient.row, r.issued),
    id,
    subject: { reference: patientRef },
    encounter: { reference: encounterRef },
  };
}
