import { describe, expect, it } from 'vitest';
import { rdaComplete } from './rda';
import {
  correctionReasonOf,
  diagnosesProblem,
  sickLeaveProblem,
  teleconsultationGaps,
  type TeleconsultationDraft,
} from './teleconsultations';

const complete: TeleconsultationDraft = {
  id: 9,
  cups_code: '890301',
  reason: 'Alerta de presión arterial',
  findings: 'PA 158/96',
  plan: 'Ajustar losartán',
  medication_note: null,
  sick_leave_scope: null,
  sick_leave_days: null,
  site_id: 3,
  diagnoses: [{ rank: 1, diagnosis_type: '03' }],
  risk_factors: 1,
  medications: 1,
};

describe('teleconsultationGaps', () => {
  it('finds nothing in a complete consultation', () => {
    expect(teleconsultationGaps(complete)).toEqual([]);
  });

  // Each row: what is missing → the field named and whether it blocks the close.
  it.each<[string, Partial<TeleconsultationDraft>, string, boolean]>([
    ['no CUPS code (serviceType 1..1)', { cups_code: null }, 'cups_code', true],
    ['a blank reason', { reason: '  ' }, 'reason', true],
    ['no findings', { findings: null }, 'findings', true],
    ['no plan', { plan: '' }, 'plan', true],
    ['no diagnosis (diagnosis 1..4)', { diagnoses: [] }, 'diagnoses', true],
    ['a main diagnosis without its RIPS type', { diagnoses: [{ rank: 1, diagnosis_type: null }] }, 'diagnoses', true],
    ['no risk factor (sectionRiskFactors 1..*)', { risk_factors: 0 }, 'risk_factors', true],
    ['no medication order and no note (sectionMedications 1..*)', { medications: 0 }, 'medication_note', true],
    ['a sick leave without days', { sick_leave_scope: '01' }, 'sick_leave_days', true],
    ['no sede (Encounter.location 0..*: listed only)', { site_id: null }, 'site_id', false],
  ])('%s', (_, change, field, required) => {
    const gaps = teleconsultationGaps({ ...complete, ...change });
    expect(gaps).toEqual([expect.objectContaining({ record: 'encounter', id: 9, field, required })]);
    expect(rdaComplete(gaps)).toBe(!required);
  });

  it('takes the medication note when the patient has no orders', () => {
    expect(teleconsultationGaps({ ...complete, medications: 0, medication_note: 'Sin medicación' })).toEqual([]);
  });
});

describe('diagnosesProblem', () => {
  it.each([
    [[{ code: 'I10X', diagnosis_type: '01' }, { code: 'E119' }], null],
    [[{ code: 'I10X' }, { code: 'I10X' }], 'El diagnóstico I10X está repetido'],
    [[{ code: 'I10X' }, { code: 'E119', diagnosis_type: '02' }], 'Solo el diagnóstico principal (el primero) lleva tipo de diagnóstico'],
  ])('%j → %s', (list, problem) => {
    expect(diagnosesProblem(list)).toBe(problem);
  });
});

describe('sickLeaveProblem', () => {
  it.each([
    [null, null, null],
    [null, 0, null],
    ['01', 3, null],
    [null, 3, 'sick_leave_scope'],
  ])('scope %s, %s days → %s', (scope, days, field) => {
    expect(sickLeaveProblem(scope, days)?.field ?? null).toBe(field);
  });
});

describe('correctionReasonOf', () => {
  // Each row: what the clinician typed → what is kept, or that it is refused.
  it.each<[string, string | null, string | null]>([
    ['ten characters exactly', 'Dosis 50mg', 'Dosis 50mg'],
    ['trimmed and inner spaces made one', '  Corrige   la dosis  ', 'Corrige la dosis'],
    ['nine characters', 'Dosis 5mg', null],
    ['ten spaces', '          ', null],
    ['nothing', null, null],
    ['1000 characters', 'a'.repeat(1000), 'a'.repeat(1000)],
    ['1001 characters', 'a'.repeat(1001), null],
  ])('%s', (_, typed, kept) => {
    const out = correctionReasonOf(typed);
    if (kept === null) expect(out).toHaveProperty('problem', expect.stringMatching(/motivo de la aclaración/));
    else expect(out).toEqual({ reason: kept });
  });
});
