import { conditionFor } from './fhir.mappers';
import { sectionOf, urn } from './rda.narrative';
import { rdaOrganization } from './rda.organization';
import { rdaPatient, rdaPractitioner } from './rda.people';
import {
  coding,
  HISTORY_SECTIONS,
  concept,
  LOINC,
  RDA_DOCUMENT_TYPES,
  meta,
  rdaNaming,
  rdaSystem,
  type Json,
  type RdaBuildOptions,
  type RdaPatientStatement,
} from './rda.profiles';

/**
 * The patient's RDA (BundlePatientStatementRDA): the history the patient states — conditions,
 * medication, allergies, family history — as a `document` Bundle headed by a
 * CompositionPatientStatementRDA with its 4 sections. The conditions are conditionFor's, with
 * the statement profile on top; only active ones are sent, because ConditionStatementRDA fixes
 * clinicalStatus to `active` and forbids abatement (a resolved condition has no valid form).
 */

const ICD10 = 'http://hl7.org/fhir/sid/icd-10';

export const STATEMENT_SECTIONS = {
  ...HISTORY_SECTIONS,
  familyHistory: { title: 'Historial de antecedentes familiares', code: '10157-6', display: 'History of family member diseases Narrative' },
} as const;

/** The title invariant pat-rda-0 requires (the guide's spelling, 'paciente'). */
export const STATEMENT_TITLE = 'Resumen Digital de Atención en Salud - RDA de antecedentes manifestados por el paciente';

export function rdaConditionStatement(c: RdaPatientStatement['conditions'][number], id: string, patientRef: string): Json {
  const base = conditionFor(c.row);
  // What ConditionStatementRDA forbids (0..0) of what conditionFor may say.
  const { onsetDateTime: _onset, abatementDateTime: _abatement, ...rest } = base;
  return {
    ...rest,
    id,
    meta: { ...(base.meta as Json), ...meta('ConditionStatementRDA') },
    clinicalStatus: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/condition-clinical', code: 'active', display: 'Active' }] },
    code: { ...(c.icd10 ? { coding: [coding(ICD10, c.icd10)] } : {}), text: c.row.name },
    subject: { reference: patientRef },
  };
}

export function patientDocument(s: RdaPatientStatement, { now, uuid }: RdaBuildOptions): Json {
  const active = s.conditions.filter((c) => Boolean(c.row.active));
  const id = {
    composition: uuid('composition'),
    patient: uuid('patient'),
    practitioner: uuid('practitioner'),
    organisation: s.organisation ? uuid('organisation') : undefined,
    conditions: active.map((_, i) => uuid(`condition:${i}`)),
    medications: s.medications.map((_, i) => uuid(`medication:${i}`)),
    allergies: s.allergies.map((_, i) => uuid(`allergy:${i}`)),
    family: s.familyHistory.map((_, i) => uuid(`family:${i}`)),
  };
  const patientRef = urn(id.patient);
  const conditions = active.map((c, i) => rdaConditionStatement(c, id.conditions[i], patientRef));
  const medications = s.medications.map((text, i) => ({
    resourceType: 'MedicationStatement',
    id: id.medications[i],
    meta: meta('MedicationStatementRDA'),
    status: 'active',
    medicationCodeableConcept: { text },
    subject: { reference: patientRef },
  }));
  const allergies = s.allergies.map((a, i) => ({
    resourceType: 'AllergyIntolerance',
    id: id.allergies[i],
    meta: meta('AllergyIntoleranceStatementRDA'),
    // ait-1 wants a clinical status; verificationStatus is never sent (its fixed system contradicts the base binding, plan §0.10).
    clinicalStatus: {
      coding: [{ system: 'http://terminology.hl7.org/CodeSystem/allergyintolerance-clinical', code: 'active', display: 'Active' }],
    },
    code: concept(rdaSystem('TipoAlergia'), a.type, a.text),
    patient: { reference: patientRef },
  }));
  const family = s.familyHistory.map((f, i) => ({
    resourceType: 'FamilyMemberHistory',
    id: id.family[i],
    meta: meta('FamilyMemberHistoryRDA'),
    status: 'completed',
    patient: { reference: patientRef },
    relationship: concept(rdaSystem('ParentescoAntecedente'), f.relationship),
    condition: [{ code: { ...(f.icd10 ? { coding: [coding(ICD10, f.icd10)] } : {}), text: f.text } }],
  }));
  const composition: Json = {
    resourceType: 'Composition',
    id: id.composition,
    meta: meta('CompositionPatientStatementRDA'),
    status: 'final',
    type: { coding: [{ system: LOINC, ...RDA_DOCUMENT_TYPES.paciente }] },
    subject: { reference: patientRef },
    date: now.toISOString(),
    author: [{ reference: urn(id.practitioner) }],
    title: STATEMENT_TITLE,
    ...(id.organisation ? { custodian: { reference: urn(id.organisation) } } : {}),
    event: [
      {
        code: [concept(rdaSystem('ColombianTechModality'), s.modality), concept(rdaSystem('GrupoServicios'), s.serviceGroup)],
        period: { start: s.period.start.toISOString(), end: s.period.end.toISOString() },
      },
    ],
    section: [
      sectionOf(
        STATEMENT_SECTIONS.medications,
        s.medications.length ? s.medications : ['Sin medicación registrada'],
        id.medications.map(urn),
      ),
      sectionOf(
        STATEMENT_SECTIONS.allergies,
        s.allergies.length ? s.allergies.map((a) => `${a.type.display}: ${a.text}`) : ['Sin alergias registradas'],
        id.allergies.map(urn),
      ),
      sectionOf(
        STATEMENT_SECTIONS.problems,
        active.length ? active.map((c) => (c.icd10 ? `${c.icd10.code} ${c.row.name}` : c.row.name)) : ['Sin diagnósticos registrados'],
        id.conditions.map(urn),
      ),
      sectionOf(
        STATEMENT_SECTIONS.familyHistory,
        s.familyHistory.length
          ? s.familyHistory.map((f) => `${f.relationship.display}: ${f.text}`)
          : ['Sin antecedentes familiares registrados'],
        id.family.map(urn),
      ),
    ],
  };
  const resources: Json[] = [
    composition,
    rdaPatient(s.patient, id.patient),
    rdaPractitioner(s.practitioner, id.practitioner),
    ...(s.organisation && id.organisation ? [rdaOrganization(s.organisation, id.organisation)] : []),
    ...conditions,
    ...medications,
    ...allergies,
    ...family,
  ];
  return {
    resourceType: 'Bundle',
    id: uuid('bundle'),
    language: 'es-CO',
    identifier: { system: rdaNaming('identifier-RDA'), value: uuid('document') },
    type: 'document',
    timestamp: now.toISOString(),
    entry: resources.map((r) => ({ fullUrl: urn(r.id as string), resource: r })),
  };
}
