import { concept, LOINC, meta, rdaNaming, rdaSystem, SNOMED, UCUM, type Json, type RdaConsultation } from './rda.profiles';

/**
 * The resources the ambulatory composition requires whatever the consultation was (plan §0.2,
 * §2.6): the sick-leave Observation (AttendanceAllowanceRDA, 1..1), the risk factors
 * (RiskFactorRDA, 1..*), the medication (MedicationStatementRDA, text only, 1..*) and the
 * Epicrisis (DocumentReferenceEPIRDA, the PDF, 1..1).
 */

interface Refs {
  patient: string;
  encounter: string;
  practitioner: string;
}

export const SICK_LEAVE_TEXT = 'Datos incapacidad (SIPE – Sistema de Incapacidades y Prestaciones Economicas)';

export function rdaSickLeave(c: RdaConsultation, id: string, refs: Refs): Json {
  return {
    resourceType: 'Observation',
    id,
    meta: meta('AttendanceAllowanceRDA'),
    status: 'final',
    code: { coding: [{ system: SNOMED, code: '160983005', display: 'permiso de concurrencia' }], text: SICK_LEAVE_TEXT },
    subject: { reference: refs.patient },
    encounter: { reference: refs.encounter },
    component: [
      {
        id: 'LicenseScope',
        code: { coding: [{ system: SNOMED, code: '255590007', display: 'alcance' }], text: 'Incapacidad - Alcance de la incapacidad' },
        valueCodeableConcept: concept(rdaSystem('ColombianLicenseScope'), c.sickLeave.scope),
      },
      {
        id: 'LicenceTime',
        code: { coding: [{ system: SNOMED, code: '410670007', display: 'tiempo' }], text: 'Días de incapacidad' },
        valueQuantity: { value: c.sickLeave.days, unit: 'días', system: UCUM, code: 'd' },
      },
    ],
  };
}

export function rdaRiskFactor(c: RdaConsultation, index: number, id: string, refs: Refs): Json {
  const r = c.riskFactors[index];
  return {
    resourceType: 'RiskAssessment',
    id,
    meta: meta('RiskFactorRDA'),
    status: 'registered',
    code: concept(rdaSystem('FactorRiesgo'), r.factor, r.text),
    subject: { reference: refs.patient },
    encounter: { reference: refs.encounter },
  };
}

export function rdaMedicationStatement(c: RdaConsultation, index: number, id: string, refs: Refs): Json {
  return {
    resourceType: 'MedicationStatement',
    id,
    meta: meta('MedicationStatementRDA'),
    status: 'active',
    medicationCodeableConcept: { text: c.medications[index] },
    subject: { reference: refs.patient },
  };
}

export const EPICRISIS_DESCRIPTION = 'Epicrisis del encuentro de atención en salud - RDA';

/** The custodian the profile fixes by pattern: the Ministry, a literal reference outside the Bundle. */
export const MINSALUD_REF = 'Organization/MinSalud';

export function rdaEpicrisis(c: RdaConsultation, id: string, refs: Refs, now: Date): Json {
  return {
    resourceType: 'DocumentReference',
    id,
    meta: meta('DocumentReferenceEPIRDA'),
    masterIdentifier: { system: rdaNaming('EPI'), value: id },
    status: 'current',
    type: {
      coding: [
        { system: LOINC, code: '18842-5', display: 'Discharge summary' },
        { system: rdaSystem('ColombianDocumentTypes'), code: 'EPI', display: 'Epicrisis' },
      ],
    },
    category: [{ coding: [{ system: LOINC, code: '55108-5', display: 'Clinical presentation Document' }] }],
    subject: { reference: refs.patient },
    date: now.toISOString(),
    author: [{ reference: refs.practitioner }],
    custodian: { reference: MINSALUD_REF },
    description: EPICRISIS_DESCRIPTION,
    securityLabel: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v3-Confidentiality', code: 'R', display: 'restricted' }] }],
    content: [
      {
        attachment: { data: c.epicrisisPdf, title: 'Epicrisis' },
        format: { system: 'urn:ietf:bcp:13', code: 'application/pdf', display: 'PDF' },
      },
    ],
    context: { encounter: [{ reference: refs.encounter }] },
  };
}
