import { rdaEncounter, rdaCondition, rdaReading } from './rda.encounter';
import { rdaLocation, rdaOrganization, rdaPayer } from './rda.organization';
import { rdaPatient, rdaPractitioner } from './rda.people';
import {
  HISTORY_SECTIONS,
  LOINC,
  RDA_DOCUMENT_TYPES,
  meta,
  rdaNaming,
  type Json,
  type RdaBuildOptions,
  type RdaConsultation,
} from './rda.profiles';
import { sectionOf, urn } from './rda.narrative';
import { rdaEpicrisis, rdaMedicationStatement, rdaRiskFactor, rdaSickLeave } from './rda.sections';

/**
 * The RDA of a teleconsultation: a `document` Bundle (BundleAmbulatoryRDA) whose first entry is
 * the CompositionAmbulatoryRDA with its 9 sections, each with a narrative (Composition.text is
 * 0..0, so the narrative lives in the sections). Pure: the ids and the time come in
 * (RdaBuildOptions), so the same input gives the same document byte for byte.
 */

/** The 9 sections CompositionAmbulatoryRDA fixes (title, LOINC code and display), in the guide's order. */
export const AMBULATORY_SECTIONS = {
  payers: {
    title: 'Entidad(es) responsable(s) por el plan de beneficios en salud (consulta)',
    code: '48768-6',
    display: 'Payment sources Document',
  },
  occupation: { title: 'Otros datos demográficos', code: '74208-0', display: 'Demographic information + History of occupation Document' },
  sickLeave: {
    title: 'Datos incapacidad (SIPE – Sistema de Incapacidades y Prestaciones Economicas)',
    code: '105583-9',
    display: 'Worker Sick leave form',
  },
  ...HISTORY_SECTIONS,
  riskFactors: { title: 'Factores de riesgo', code: '75492-9', display: 'Risk assessment and screening note' },
  serviceRequests: { title: 'Órdenes, prescripciones o solicitudes de servicio', code: '61146-1', display: 'Orders for services Document' },
  addendum: { title: 'Documentos de soporte', code: '55107-7', display: 'Addendum Document' },
} as const;

const section = (key: keyof typeof AMBULATORY_SECTIONS, lines: string[], entries: string[]) =>
  sectionOf(AMBULATORY_SECTIONS[key], lines, entries);

/** A reading as the problems section lists it: 'Presión arterial: 150/95 mmHg (2026-12-04T10:00:00.000Z)'. */
export function describeReading(o: Json): string {
  const q = (x: Json) => `${x.value} ${x.unit}`;
  const comps = (o.component as Json[] | undefined) ?? [];
  const value = comps.length
    ? `${comps.map((c) => (c.valueQuantity as Json).value).join('/')} ${(comps[0].valueQuantity as Json).unit}`
    : q(o.valueQuantity as Json);
  return `${(o.code as Json).text}: ${value} (${o.effectiveDateTime})`;
}

export const AMBULATORY_TITLE = 'Resumen Digital de Atención en Salud - RDA de consulta externa';

export function ambulatoryDocument(c: RdaConsultation, { now, uuid }: RdaBuildOptions): Json {
  const id = {
    composition: uuid('composition'),
    patient: uuid('patient'),
    practitioner: uuid('practitioner'),
    organisation: uuid('organisation'),
    location: c.site ? uuid('location') : undefined,
    payer: c.payer ? uuid('payer') : undefined,
    encounter: uuid('encounter'),
    conditions: c.diagnoses.map((_, i) => uuid(`condition:${i}`)),
    readings: c.readings.map((_, i) => uuid(`reading:${i}`)),
    sickLeave: uuid('sick-leave'),
    risks: c.riskFactors.map((_, i) => uuid(`risk:${i}`)),
    medications: c.medications.map((_, i) => uuid(`medication:${i}`)),
    epicrisis: uuid('epicrisis'),
  };
  const ref = {
    patient: urn(id.patient),
    practitioner: urn(id.practitioner),
    organisation: urn(id.organisation),
    encounter: urn(id.encounter),
  };
  const patient = rdaPatient(c.patient, id.patient);
  const practitioner = rdaPractitioner(c.practitioner, id.practitioner);
  const organisation = rdaOrganization(c.organisation, id.organisation);
  const location = c.site && id.location ? rdaLocation(c.site, id.location, ref.organisation) : undefined;
  const payer = c.payer && id.payer ? rdaPayer(c.payer, id.payer) : undefined;
  const readings = c.readings.map((r, i) => rdaReading(r, c, id.readings[i], ref.patient, ref.encounter));
  const readingRefs = id.readings.map(urn);
  // The readings are the evidence of the main diagnosis: the only place ConditionRDA leaves open for them.
  const conditions = c.diagnoses.map((_, i) => rdaCondition(c, i, id.conditions[i], ref.patient, i === 0 ? readingRefs : []));
  const encounter = rdaEncounter(c, id.encounter, {
    ...ref,
    location: id.location && urn(id.location),
    conditions: id.conditions.map(urn),
  });
  const sectionRefs = { ...ref };
  const sickLeave = rdaSickLeave(c, id.sickLeave, sectionRefs);
  const risks = c.riskFactors.map((_, i) => rdaRiskFactor(c, i, id.risks[i], sectionRefs));
  const medications = c.medications.map((_, i) => rdaMedicationStatement(c, i, id.medications[i], sectionRefs));
  const epicrisis = rdaEpicrisis(c, id.epicrisis, sectionRefs, now);

  const composition: Json = {
    resourceType: 'Composition',
    id: id.composition,
    meta: meta('CompositionAmbulatoryRDA'),
    // A nota aclaratoria: base R4's way (the guide leaves status and relatesTo as R4 has them).
    status: c.correction ? 'amended' : 'final',
    ...(c.correction
      ? { relatesTo: [{ code: 'replaces', targetIdentifier: { system: rdaNaming('identifier-RDA'), value: c.correction.replaces } }] }
      : {}),
    type: { coding: [{ system: LOINC, ...RDA_DOCUMENT_TYPES.consulta }] },
    subject: { reference: ref.patient },
    encounter: { reference: ref.encounter },
    date: now.toISOString(),
    author: [{ reference: ref.practitioner }],
    title: AMBULATORY_TITLE,
    custodian: { reference: ref.organisation },
    section: [
      section(
        'payers',
        [c.payer ? `${c.payer.name} (${c.payer.code})` : 'Sin entidad responsable del plan de beneficios registrada'],
        id.payer ? [urn(id.payer)] : [],
      ),
      section('occupation', ['Ocupación no registrada'], []),
      section(
        'sickLeave',
        [c.sickLeave.days > 0 ? `${c.sickLeave.scope.display}: ${c.sickLeave.days} días` : 'Sin incapacidad'],
        [urn(id.sickLeave)],
      ),
      section('medications', c.medications, id.medications.map(urn)),
      section('allergies', ['Sin información de alergias registrada'], []),
      section(
        'problems',
        [
          `Motivo: ${c.reason}`,
          `Hallazgos: ${c.findings}`,
          ...c.diagnoses.map((d, i) => `${i === 0 ? 'Diagnóstico principal' : 'Comorbilidad'}: ${d.icd10.code} ${d.icd10.display}`),
          ...readings.map((o) => `Lectura revisada: ${describeReading(o)}`),
          `Plan: ${c.plan}`,
        ],
        id.conditions.map(urn),
      ),
      section(
        'riskFactors',
        c.riskFactors.map((r) => `${r.factor.display}: ${r.text}`),
        id.risks.map(urn),
      ),
      section('serviceRequests', ['Sin órdenes de servicio'], []),
      section(
        'addendum',
        [
          'Epicrisis del encuentro (PDF)',
          ...(c.correction
            ? [`Nota aclaratoria (versión ${c.correction.version}, reemplaza el RDA ${c.correction.replaces}): ${c.correction.reason}`]
            : []),
        ],
        [urn(id.epicrisis)],
      ),
    ],
  };

  const resources = [
    composition,
    patient,
    practitioner,
    organisation,
    ...(location ? [location] : []),
    encounter,
    ...(payer ? [payer] : []),
    ...conditions,
    ...readings,
    sickLeave,
    ...risks,
    ...medications,
    epicrisis,
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
