import type { RdaGap } from './rda';

/**
 * The teleconsultation ('Teleconsulta / telemonitoreo', issue 51): what it takes by default and what
 * its RDA de consulta externa still lacks from the consultation itself (the parties' gaps are
 * rda.ts's). Profiles: minsalud.fhir.co.rda 0.7.1, docs/rda-plan.md §1.2, §1.3, §2.5, §2.6.
 */

/**
 * A new teleconsultation is telemonitoring (ColombianTechModality 09) from the patient's home
 * (EntornoAtencion 01) for a general illness (RIPSCausaExternaVersion2 38): what Vigía does.
 */
export const TELECONSULTATION_DEFAULTS = { modality: '09', environment: '01', external_cause: '38' } as const;

/** GrupoServicios of every teleconsultation: the profile fixes encounterServiceGroup to 01 Consulta externa. */
export const SERVICE_GROUP = '01';

/**
 * No sick leave ('Sin incapacidad', a null scope) still needs the AttendanceAllowanceRDA the
 * composition requires (1..1): LicenseScope 01 Nueva with 0 days (rda-plan §2.6).
 */
export const NO_SICK_LEAVE = { scope: '01', days: 0 } as const;

/** The at most 4 diagnoses the encounter sends: rank 1 the main one, 2–4 the comorbidities. */
export const MAX_DIAGNOSES = 4;

export interface TeleconsultationDraft {
  id: number;
  cups_code: string | null;
  reason: string | null;
  findings: string | null;
  plan: string | null;
  medication_note: string | null;
  sick_leave_scope: string | null;
  sick_leave_days: number | null;
  site_id: number | null;
  diagnoses: Array<{ rank: number; diagnosis_type: string | null }>;
  risk_factors: number;
  /** The patient's medication orders (MedicationStatementRDA entries). */
  medications: number;
}

const blank = (v: string | null | undefined) => v == null || v.trim() === '';

/**
 * What the consultation itself lacks for its RDA: the CUPS code (serviceType 1..1), a main
 * diagnosis with its RIPS type (diagnosis 1..4), the narrative of reason, findings and plan, at
 * least one risk factor (sectionRiskFactors 1..*), the medication (sectionMedications 1..*: the
 * orders, or what the clinician writes, 'Sin medicación'), the days of a sick leave. The sede is
 * optional in the profile (Encounter.location 0..*): listed, not required.
 */
export function teleconsultationGaps(t: TeleconsultationDraft): RdaGap[] {
  const main = t.diagnoses.find((d) => d.rank === 1);
  const checks: Array<[string, boolean, string, boolean?]> = [
    ['cups_code', blank(t.cups_code), 'Falta el código CUPS de la consulta'],
    ['reason', blank(t.reason), 'Falta el motivo de la consulta'],
    ['findings', blank(t.findings), 'Faltan los hallazgos de la consulta'],
    ['diagnoses', !main, 'Falta el diagnóstico principal (CIE-10)'],
    ['diagnoses', !!main && blank(main.diagnosis_type), 'Falta el tipo del diagnóstico principal'],
    ['plan', blank(t.plan), 'Falta el plan de manejo'],
    ['risk_factors', t.risk_factors === 0, 'Registre al menos un factor de riesgo (o «Otro»: sin factores de riesgo identificados)'],
    ['medication_note', t.medications === 0 && blank(t.medication_note), 'Registre la medicación actual del paciente (o «Sin medicación»)'],
    ['sick_leave_days', !blank(t.sick_leave_scope) && t.sick_leave_days == null, 'Faltan los días de incapacidad'],
    ['site_id', t.site_id == null, 'Falta la sede de la atención', false],
  ];
  return checks
    .filter(([, missing]) => missing)
    .map(([field, , message, required = true]) => ({ record: 'encounter', id: t.id, field, message, required }));
}

export interface DiagnosisInput {
  code: string;
  diagnosis_type?: string | null;
}

/**
 * A diagnosis list the encounter can hold, or the first problem with it: no code twice, and the
 * RIPS diagnosis type belongs to the main one only (ExtensionDiagnosisType on MainDiagnosis).
 */
export function diagnosesProblem(list: DiagnosisInput[]): string | null {
  const seen = new Set<string>();
  for (const [i, d] of list.entries()) {
    if (seen.has(d.code)) return `El diagnóstico ${d.code} está repetido`;
    seen.add(d.code);
    if (i > 0 && !blank(d.diagnosis_type)) return 'Solo el diagnóstico principal (el primero) lleva tipo de diagnóstico';
  }
  return null;
}

/** A sick leave is a scope (nueva, prórroga) with its days; days without a scope say nothing. */
export function sickLeaveProblem(scope: string | null, days: number | null): { field: string; message: string } | null {
  if (blank(scope) && days != null && days > 0) {
    return { field: 'sick_leave_scope', message: 'Indique si la incapacidad es nueva o una prórroga' };
  }
  return null;
}

/** The 'Motivo de la aclaración' of a nota aclaratoria needs this many characters (spaces aside at the ends). */
export const CORRECTION_REASON_MIN = 10;
export const CORRECTION_REASON_MAX = 1000;

/**
 * A nota aclaratoria's reason, as kept (trimmed, inner runs of spaces made one), or the Spanish
 * problem the form and the server both show under the field.
 */
export function correctionReasonOf(reason: string | null | undefined): { reason: string } | { problem: string } {
  const text = (reason ?? '').trim().replace(/\s+/g, ' ');
  if (text.length < CORRECTION_REASON_MIN)
    return { problem: `Escriba el motivo de la aclaración: al menos ${CORRECTION_REASON_MIN} caracteres` };
  if (text.length > CORRECTION_REASON_MAX)
    return { problem: `El motivo de la aclaración admite a lo sumo ${CORRECTION_REASON_MAX} caracteres` };
  return { reason: text };
}
