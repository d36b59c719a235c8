import { describe, expect, it } from 'vitest';
import { formatedDate, parseVariableValue } from './variables.rules';

describe('parseVariableValue', () => {
  it.each([
    ['numeric', 7.2, { ok: true, number: 7.2, text: null }],
    ['numeric', '6,8', { ok: true, number: 6.8, text: null }],
    ['numeric', ' 120 ', { ok: true, number: 120, text: null }],
    ['numeric', 'alto', { ok: false, message: 'Debe ser un número.' }],
    ['numeric', '', { ok: false, message: 'Debe ser un número.' }],
    ['text', ' Fuma 5 cigarrillos al día ', { ok: true, number: null, text: 'Fuma 5 cigarrillos al día' }],
    ['text', 42, { ok: true, number: null, text: '42' }],
    ['text', '  ', { ok: false, message: '¡El campo es requerido!' }],
    ['text', 'x'.repeat(601), { ok: false, message: 'Debe tener máximo de 600 caracteres' }],
  ] as const)('%s %j', (type, raw, out) => expect(parseVariableValue(type, raw)).toEqual(out));
});

describe('formatedDate (day/month/year in the patient zone)', () => {
  it.each([
    ['2026-03-01T13:05:00Z', 'America/Bogota', '01/03/2026 08:05'],
    ['2026-03-01T03:05:00Z', 'America/Bogota', '28/02/2026 22:05'],
    ['2026-07-01T22:30:00Z', 'Europe/Madrid', '02/07/2026 00:30'],
  ])('%s in %s → %s', (iso, zone, text) => expect(formatedDate(new Date(iso), zone)).toBe(text));
});
