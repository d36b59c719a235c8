import { describe, expect, it } from 'vitest';
import type { RdaGap } from '@vigia/contract/rules/rda';
import {
  draftChanged,
  gapsOfRefusal,
  gapTarget,
  liveGaps,
  medicationsKnown,
  NO_SICK_LEAVE_CHOICE,
  RDA_POLL_MS,
  rdaPollInterval,
  teleconsultationBody,
} from './teleconsultation-form';

const COMPLETE = {
  reason: ' Alerta de presión ',
  findings: 'PA 158/96',
  plan: 'Control en 7 días',
  main_code: 'I10X',
  main_type: '03',
  related: ['E119', 'I10X', 'J449', 'N189', 'E785'],
  reading_ids: [4, 5],
  risk_factors: [
    { code: '06', text: 'Sin factores de riesgo identificados' },
    { code: '01', text: '  ' },
  ],
  sick_leave_scope: NO_SICK_LEAVE_CHOICE,
  sick_leave_days: 3,
  cups_code: '890301',
  site_id: 2,
  modality: '09',
  environment: '01',
  external_cause: '38',
};

describe('teleconsultationBody', () => {
  it('sends the main diagnosis first with its type, at most 3 related ones, texts trimmed, empty factors left out', () => {
    const body = teleconsultationBody(COMPLETE);
    expect(body.diagnoses).toEqual([{ code: 'I10X', diagnosis_type: '03' }, { code: 'E119' }, { code: 'J449' }, { code: 'N189' }]);
    expect(body.reason).toBe('Alerta de presión');
    expect(body.risk_factors).toEqual([{ code: '06', text: 'Sin factores de riesgo identificados' }]);
  });

  it("sends 'Sin incapacidad' as a null scope without days", () => {
    expect(teleconsultationBody(COMPLETE)).toMatchObject({ sick_leave_scope: null, sick_leave_days: null });
    expect(teleconsultationBody({ ...COMPLETE, sick_leave_scope: '01' })).toMatchObject({ sick_leave_scope: '01', sick_leave_days: 3 });
  });

  it('sends no related diagnosis without a main one', () => {
    expect(teleconsultationBody({ ...COMPLETE, main_code: null }).diagnoses).toEqual([]);
  });
});

describe('liveGaps', () => {
  const party: RdaGap = {
    record: 'organization',
    id: 1,
    field: 'reps_code',
    message: 'Falta el código REPS del prestador',
    required: true,
  };
  const stale: RdaGap = { record: 'encounter', id: 9, field: 'reason', message: 'Falta el motivo de la consulta', required: true };

  it("keeps the server's party gaps and judges the consultation from what the form holds", () => {
    expect(liveGaps([party, stale], 9, COMPLETE, 1)).toEqual([party]);
    const gaps = liveGaps([party], 9, { ...COMPLETE, plan: ' ', risk_factors: [] }, 0);
    expect(gaps.map((g) => g.field)).toEqual(['reps_code', 'plan', 'risk_factors', 'medication_note']);
  });
});

describe('medicationsKnown', () => {
  it('counts medication orders as present when the server does not ask for the note', () => {
    const ask: RdaGap = { record: 'encounter', id: 9, field: 'medication_note', message: 'x', required: true };
    expect(medicationsKnown([], null)).toBe(1);
    expect(medicationsKnown([ask], null)).toBe(0);
    expect(medicationsKnown([], 'Losartán')).toBe(0);
  });
});

describe('gapTarget', () => {
  it('sends each record to where it is fixed', () => {
    expect(gapTarget('patient', 7, 'ethnicity', 'Falta la etnia del paciente')).toMatchObject({ to: '/patients/7?edit=basic' });
    expect(gapTarget('patient', 7, 'city_id', 'Falta el municipio')).toMatchObject({ to: '/patients/7?edit=contact' });
    expect(gapTarget('practitioner', 5, 'profession', 'x')).toMatchObject({ to: '/users/edit/5' });
    expect(gapTarget('site', 11, 'reps_site_code', 'x')).toMatchObject({ to: '/integrations#institucion-rda' });
    expect(gapTarget('encounter', 9, 'diagnoses', 'Falta el tipo del diagnóstico principal')).toMatchObject({ field: 'main_type' });
    expect(gapTarget('encounter', 9, 'diagnoses', 'Falta el diagnóstico principal (CIE-10)')).toMatchObject({ field: 'main_code' });
  });
});

describe('gapsOfRefusal', () => {
  it("reads a 409's record.field into the record to fix", () => {
    const gaps = gapsOfRefusal([{ field: 'organization.reps_code', message: 'Falta el código REPS del prestador' }], {
      patientId: 7,
      userId: 5,
      clientId: 3,
      encounterId: 9,
    });
    expect(gaps).toEqual([
      { record: 'organization', id: 3, field: 'reps_code', message: 'Falta el código REPS del prestador', required: true },
    ]);
  });
});

describe('draftChanged', () => {
  it.each([
    ['the same values', {}, false],
    ['a text only spaced differently (the body trims it)', { reason: 'Alerta de presión' }, false],
    ['a new text', { findings: 'PA 150/90' }, true],
    ['a diagnosis chosen', { main_code: 'E119' }, true],
    ['a sede chosen', { site_id: 3 }, true],
  ])('%s → %s', (_, change, expected) => {
    expect(draftChanged(COMPLETE, { ...COMPLETE, ...change })).toBe(expected);
  });
});

describe('rdaPollInterval', () => {
  it.each([
    ['pendiente', RDA_POLL_MS],
    ['sin_enviar', false],
    ['enviado', false],
    ['rechazado', false],
    ['corregido', false],
    [undefined, false],
  ])('%s → %s', (status, expected) => {
    expect(rdaPollInterval(status)).toBe(expected);
  });
});
