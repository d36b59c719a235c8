import type { FhirConditionRow } from '../../api/src/modules/fhir/fhir.mappers';
import type { RdaBuildOptions, RdaCoded, RdaConsultation, RdaPatientStatement } from '../../api/src/modules/fhir/rda.profiles';
import { guideDisplay } from './rda-validator';

/**
 * A realistic teleconsultation as the RDA builder takes it, every display read from the guide's
 * files: Ana María Rodríguez Gómez (CC, Bogotá, urbana) seen by telemonitoring (09) from home (01)
 * by Dr. Carlos Andrés Pérez Luna (Medicina, RETHUS) of an IPS with NIT and REPS, for essential
 * hypertension (I10X) with type 2 diabetes as comorbidity, three readings reviewed.
 */

const code = (file: string, c: string): RdaCoded => ({ code: c, display: guideDisplay(file, c) });
const cs = (name: string, c: string) => code(`CodeSystem-${name}.json`, c);
const icd10 = (c: string) => code('CodeSystem-ICD10CO.csv', c);

/** A PDF's first bytes, enough for a base64 attachment in tests (the real Epicrisis comes from pdfkit). */
export const TINY_PDF = Buffer.from('%PDF-1.4\n%âãÏÓ\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n').toString('base64');

export function fixtureConsultation(): RdaConsultation {
  return {
    id: 4321,
    organisation: {
      id: 1,
      name: 'IPS Clínica Demo S.A.S.',
      nit: '900123456',
      repsCode: '110010123401',
      registeredOn: '2015-02-01',
      providerClass: cs('ColombianProviderClass', 'IPS'),
      legalNature: cs('ColombianLegalNatureType', 'PRIV'),
      address: {
        text: 'Carrera 7 # 72-41, consultorio 301',
        city: { name: 'Bogotá, D.C.', divipola: cs('DIVIPOLA', '11001') },
        state: { name: 'Bogotá, D.C.', divipola: cs('DIVIPOLA', '11') },
      },
    },
    site: { repsCode: '11001012340101', name: 'Sede Chapinero' },
    practitioner: {
      id: 7,
      active: true,
      documentType: cs('ColombianPersonIdentifier', 'CC'),
      nid: '80123456',
      givenNames: 'Carlos Andrés',
      firstSurname: 'Pérez',
      secondSurname: 'Luna',
      profession: cs('RETHUSqualification', '003'),
      rethusNumber: '80123456-2011',
    },
    patient: {
      row: {
        id: 12,
        nid: '52123456',
        id_type_code: 'CC',
        id_type_name: 'Cédula de ciudadanía',
        country_code: 'CO',
        display: 'Ana María Rodríguez Gómez',
        first_name: 'Ana María',
        last_name: 'Rodríguez Gómez',
        birth_date: '1950-03-14',
        gender: 0,
        status: 0,
        updated_at: new Date('2026-11-30T15:00:00Z'),
      },
      documentType: cs('ColombianPersonIdentifier', 'CC'),
      sex: cs('ColombianGenderGroup', '02'),
      firstSurname: 'Rodríguez',
      secondSurname: 'Gómez',
      residenceZone: cs('ColombianResidenceZone', '01'),
      city: { name: 'Bogotá, D.C.', divipola: cs('DIVIPOLA', '11001') },
      country: { name: 'Colombia', isoNumeric: cs('ISO31661', '170') },
      nationalities: [cs('ISO31661', '170')],
      ethnicity: cs('ColombianEthnicGroup', '6'),
      disabilities: [cs('ColombianDisabilityClassification', '08')],
    },
    payer: { code: 'EPS037', name: 'Nueva EPS' },
    start: new Date('2026-12-04T14:00:00Z'),
    end: new Date('2026-12-04T14:25:00Z'),
    modality: cs('ColombianTechModality', '09'),
    environment: cs('EntornoAtencion', '01'),
    service: cs('REPShealthcareServices', '328'),
    cups: code('ValueSet-CUPSConsultationCodes.json', '890301'),
    externalCause: cs('RIPSCausaExternaVersion2', '38'),
    diagnoses: [{ icd10: icd10('I10X') }, { icd10: icd10('E119') }],
    mainDiagnosisType: cs('RIPSTipoDiagnosticoPrincipalVersion2', '03'),
    readings: [
      {
        group: [
          { id: 501, clinical_element: 3, value: 158, when: new Date('2026-12-04T11:02:00Z') },
          { id: 502, clinical_element: 4, value: 96, when: new Date('2026-12-04T11:02:00Z') },
        ],
        issued: new Date('2026-12-04T11:02:05Z'),
      },
      {
        group: [{ id: 503, clinical_element: 1, value: 88, when: new Date('2026-12-04T11:02:00Z') }],
        issued: new Date('2026-12-04T11:02:05Z'),
      },
      {
        group: [{ id: 504, clinical_element: 6, value: 182, when: new Date('2026-12-04T07:30:00Z') }],
        issued: new Date('2026-12-04T07:30:10Z'),
      },
    ],
    reason: 'Alerta de presión arterial elevada en el telemonitoreo',
    findings: 'Presión arterial 158/96 mmHg sostenida tres días; glucemia en ayunas 182 mg/dL; sin síntomas de alarma',
    plan: 'Ajustar losartán a 100 mg/día; control de presión dos veces al día; nueva teleconsulta en 7 días',
    sickLeave: { scope: cs('ColombianLicenseScope', '01'), days: 0 },
    riskFactors: [{ factor: cs('FactorRiesgo', '06'), text: 'Sedentarismo y dieta alta en sodio' }],
    medications: ['Losartán 50 mg tableta, 1 cada 12 horas', 'Metformina 850 mg tableta, 1 con el almuerzo'],
    epicrisisPdf: TINY_PDF,
  };
}

const conditionRow = (id: number, name: string, icd10: string | null, active: boolean): FhirConditionRow => ({
  id,
  patient_id: 12,
  name,
  icd10,
  notes: null,
  active,
  start_date: new Date('2018-05-01T00:00:00Z'),
  end_date: active ? null : new Date('2024-02-01T00:00:00Z'),
  updated_at: new Date('2026-11-30T15:00:00Z'),
});

/** The same patient's history as she states it at enrolment: one resolved condition (left out), one uncoded. */
export function fixturePatientStatement(): RdaPatientStatement {
  const c = fixtureConsultation();
  return {
    patient: c.patient,
    practitioner: c.practitioner,
    organisation: c.organisation,
    modality: cs('ColombianTechModality', '09'),
    serviceGroup: cs('GrupoServicios', '01'),
    period: { start: new Date('2026-11-30T14:00:00Z'), end: new Date('2026-11-30T14:40:00Z') },
    conditions: [
      { row: conditionRow(31, 'Hipertensión arterial', 'I10', true), icd10: icd10('I10X') },
      { row: conditionRow(32, 'Diabetes mellitus tipo 2', 'E11', true), icd10: icd10('E119') },
      { row: conditionRow(33, 'Neumonía', 'J18.9', false), icd10: icd10('J189') },
      { row: conditionRow(34, 'Insomnio referido', null, true) },
    ],
    medications: ['Losartán 50 mg tableta, 1 cada 12 horas'],
    allergies: [{ type: cs('TipoAlergia', '01'), text: 'Penicilina: urticaria generalizada' }],
    familyHistory: [
      { relationship: cs('ParentescoAntecedente', '01'), text: 'Hipertensión arterial (madre)', icd10: icd10('I10X') },
      { relationship: cs('ParentescoAntecedente', '02'), text: 'Diabetes (hermano)' },
    ],
  };
}

/** Fixed time and UUIDs derived from the key, so a document is the same on every run. */
export function fixtureOptions(): RdaBuildOptions {
  const keys = new Map<string, number>();
  return {
    now: new Date('2026-12-04T14:26:00Z'),
    uuid: (key) => {
      if (!keys.has(key)) keys.set(key, keys.size + 1);
      return `00000000-0000-4000-8000-${String(keys.get(key)).padStart(12, '0')}`;
    },
  };
}
