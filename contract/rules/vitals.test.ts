import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  CLINICAL_ELEMENTS,
  clinicalElement,
  parseReading,
  validateDeletionReason,
  validateVitalNumber,
  validateVitalValue,
  VITALS_MESSAGES,
} from './vitals';

const now = new Date('2026-11-21T15:00:00Z');
const FORMAT = '¡Ingrese solo números enteros o con un decimal (ej: 5.5)';

describe('clinical elements (D6)', () => {
  it('match the shared catalogue built from vitals-loinc.json (codes, units, bounds)', () => {
    const file = path.resolve(__dirname, '../../seeds/catalogues/clinical_elements.json');
    const items = JSON.parse(fs.readFileSync(file, 'utf8')).items as Array<Record<string, unknown>>;
    for (const item of items) {
      const e = clinicalElement(item.id as number)!;
      expect({ loinc: e.loinc, ucum: e.ucum, unit: e.unit, min: e.min, max: e.max }).toEqual({
        loinc: item.loinc,
        ucum: item.ucum,
        unit: item.unit,
        min: item.input_min,
        max: item.input_max,
      });
    }
    expect(CLINICAL_ELEMENTS).toHaveLength(items.length);
  });

  it('reads code 0 as the legacy alias of heart rate', () => {
    expect(clinicalElement(0)?.id).toBe(1);
    expect(clinicalElement(8)).toBeUndefined();
  });
});

describe('validateVitalNumber (03 §5 Vitals)', () => {
  it.each([
    [120, null],
    [36.5, null],
    ['36.5', null],
    [0, null],
    [100.5, null],
    [-1, FORMAT],
    [36.55, FORMAT],
    ['1e2', FORMAT],
    ['12a', FORMAT],
    [123456, FORMAT],
    ['1000.5', FORMAT],
    [Number.NaN, FORMAT],
    [null, '¡El campo es requerido!'],
    ['', '¡El campo es requerido!'],
  ])('%j → %j', (value, message) => {
    expect(validateVitalNumber(value)).toBe(message);
  });
});

describe('validateVitalValue: plausible bounds, inclusive', () => {
  it.each([
    [1, 20, null],
    [1, 250, null],
    [1, 19, 'El valor debe estar entre 20 y 250 lpm'],
    [1, 251, 'El valor debe estar entre 20 y 250 lpm'],
    [0, 72, null],
    [2, 100, null],
    [2, 49.9, 'El valor debe estar entre 50 y 100 %'],
    [5, 0.9, 'El valor debe estar entre 1 y 500 kg'],
    [5, 70.5, null],
    [6, 1000, null],
    [6, 9, 'El valor debe estar entre 10 y 1000 mg/dL'],
    [7, 36.6, null],
    [7, 45.1, 'El valor debe estar entre 30 y 45 °C'],
    [7, 29.9, 'El valor debe estar entre 30 y 45 °C'],
    [9, 10, VITALS_MESSAGES.element],
  ])('element %i value %j → %j', (element, value, message) => {
    expect(validateVitalValue(element, value)).toBe(message);
  });
});

describe('parseReading', () => {
  it('stores blood pressure as two rows, 3 and 4, with the same when', () => {
    const r = parseReading({ systolic: 120, diastolic: 80, when: '2026-11-21T14:00:00Z' }, now);
    expect(r).toEqual({
      ok: {
        when: new Date('2026-11-21T14:00:00Z'),
        values: [
          { clinical_element: 3, value: 120 },
          { clinical_element: 4, value: 80 },
        ],
      },
    });
  });

  it('normalises element 0 to 1 and defaults when to now', () => {
    expect(parseReading({ clinical_element: 0, value: 72 }, now)).toEqual({
      ok: { when: now, values: [{ clinical_element: 1, value: 72 }] },
    });
  });

  it.each([
    [{ clinical_element: 4, value: 80 }, 'diastolic', VITALS_MESSAGES.pressurePair],
    [{ clinical_element: 3, value: 120 }, 'diastolic', VITALS_MESSAGES.pressurePair],
    [{ systolic: 120 }, 'diastolic', VITALS_MESSAGES.pressurePair],
    [{ diastolic: 80 }, 'systolic', VITALS_MESSAGES.pressurePair],
    [{ systolic: 80, diastolic: 80 }, 'systolic', VITALS_MESSAGES.pressureOrder],
    [{ systolic: 350, diastolic: 80 }, 'systolic', 'El valor debe estar entre 50 y 300 mmHg'],
    [{ systolic: 120, diastolic: 80.25 }, 'diastolic', FORMAT],
    [{ value: 72 }, 'clinical_element', '¡El campo es requerido!'],
    [{ clinical_element: 8, value: 72 }, 'clinical_element', VITALS_MESSAGES.element],
    [{ clinical_element: 1, value: -5 }, 'value', FORMAT],
    [{ clinical_element: 1 }, 'value', '¡El campo es requerido!'],
    [{ clinical_element: 1, value: 72, when: '2026-11-21T15:06:00Z' }, 'when', VITALS_MESSAGES.future],
    [{ clinical_element: 1, value: 72, when: '1999-12-31T23:00:00Z' }, 'when', VITALS_MESSAGES.tooOld],
    [{ clinical_element: 1, value: 72, when: 'ayer' }, 'when', 'La fecha y hora no es válida.'],
  ])('refuses %j on %s', (input, field, message) => {
    expect(parseReading(input, now)).toEqual({ error: { field, message } });
  });

  it('accepts a device clock up to 5 minutes ahead', () => {
    expect('ok' in parseReading({ clinical_element: 1, value: 72, when: '2026-11-21T15:04:59Z' }, now)).toBe(true);
  });
});

describe('validateDeletionReason (D15)', () => {
  it.each([
    ['x'.repeat(14), 'Debe tener mínimo 15 caracteres y máximo 140'],
    ['x'.repeat(15), null],
    ['x'.repeat(140), null],
    ['x'.repeat(141), 'Debe tener mínimo 15 caracteres y máximo 140'],
    [`  ${'x'.repeat(14)}  `, 'Debe tener mínimo 15 caracteres y máximo 140'],
    [null, 'Debe tener mínimo 15 caracteres y máximo 140'],
  ])('%j → %j', (comment, message) => {
    expect(validateDeletionReason(comment)).toBe(message);
  });
});
