import { describe, expect, it } from 'vitest';
import { RECORD_TEXT, formatBloodType, formatDate, formatPhone, present } from './record.data';

describe('portal record formatting', () => {
  it.each([
    ['1948-03-09', '09/03/1948'],
    ['2000-12-31', '31/12/2000'],
    ['2000-12-31T00:00:00Z', '31/12/2000'],
    ['', null],
    [null, null],
    ['31/12/2000', null],
  ])('shows birth date %s as %s (dd/mm/yyyy, no time-zone shift)', (input, expected) => {
    expect(formatDate(input)).toBe(expected);
  });

  it.each([
    ['O', '+', 'O+'],
    ['AB', '-', 'AB-'],
    ['A', 'Positivo', 'A Positivo'],
    ['O', null, null],
    [null, '+', null],
  ])('joins blood type %s and factor %s as %s', (type, rh, expected) => {
    expect(formatBloodType(type, rh)).toBe(expected);
  });

  it.each([
    ['+57', '3001234567', '+57 3001234567'],
    ['57', '3001234567', '+57 3001234567'],
    [null, '3001234567', '3001234567'],
    ['+57', null, null],
    ['+57', '  ', null],
  ])('shows prefix %s and phone %s as %s', (prefix, phone, expected) => {
    expect(formatPhone(prefix, phone)).toBe(expected);
  });

  it('treats blank text as missing, so the card shows Dato Incompleto', () => {
    expect(present('   ')).toBeNull();
    expect(present(null)).toBeNull();
    expect(present(' Medellín ')).toBe('Medellín');
  });

  it('greets stored upper-case names in title case', () => {
    expect(RECORD_TEXT.greeting('MARÍA JOSÉ')).toBe('Hola, María José');
  });
});
