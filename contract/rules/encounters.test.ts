import { describe, it, expect } from 'vitest';
import { elementById, firstMissing, logEntry, validateElementValue, vaccinationProblem } from './encounters';
import { MESSAGES } from './validation';

describe('validateElementValue', () => {
  it.each([
    [1, '72', null],
    [1, '', MESSAGES.required],
    [1, '72.55', MESSAGES.vitals],
    [1, '-3', MESSAGES.vitals],
    [5, '', null],
    [101, 'Íntegra', null],
    [101, 'Rota', 'Seleccione una opción: Íntegra, Lesión leve, Lesión moderada, Lesión severa.'],
    [102, '', MESSAGES.required],
    [103, 'true', null],
    [103, 'quizá', 'Seleccione Sí o No.'],
    [104, 'ab', MESSAGES.textMin],
    [104, 'x'.repeat(201), MESSAGES.textMax(200)],
    [105, 'x'.repeat(600), null],
    [105, 'x'.repeat(601), MESSAGES.textMax(600)],
  ])('element %i with %j', (id, value, expected) => {
    expect(validateElementValue(elementById(id)!, value)).toBe(expected);
  });
});

describe('firstMissing', () => {
  it('names the first required element without a value', () => {
    expect(firstMissing(new Map())?.id).toBe(1);
    const all = new Map([
      [1, '70'],
      [2, '95'],
      [3, '120'],
      [4, '80'],
      [7, '36.5'],
      [101, 'Íntegra'],
      [102, 'Bueno'],
      [104, 'Control'],
    ]);
    expect(firstMissing(all)?.name).toBe('Evolución y plan');
    all.set(105, 'Estable');
    expect(firstMissing(all)).toBeNull();
  });
});

describe('vaccinationProblem', () => {
  it.each([
    [{ biological_type: null, medication_id: 1, dose: 'Refuerzo' }, 'biological_type'],
    [{ biological_type: 'INFLUENZA', medication_id: null, dose: 'Refuerzo' }, 'medication_id'],
    [{ biological_type: 'INFLUENZA', medication_id: 1, dose: null }, 'dose'],
  ])('%j lacks %s', (fields, field) => {
    expect(vaccinationProblem(fields)).toEqual({ field, message: MESSAGES.required });
  });
  it('accepts a complete vaccination', () => {
    expect(vaccinationProblem({ biological_type: 'INFLUENZA', medication_id: 1, dose: 'Dosis anual' })).toBeNull();
  });
});

describe('logEntry', () => {
  it('keeps before, after and the local time', () => {
    expect(logEntry('70', '72', new Date('2026-11-22T13:05:00Z'), 'America/Bogota')).toEqual({
      date: '2026-11-22T13:05:00.000Z',
      datef: '22/11/2026 08:05',
      before: '70',
      after: '72',
    });
  });
});
