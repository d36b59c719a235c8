import { describe, it, expect } from 'vitest';
import { dayStartUtc, nextDay } from '@vigia/contract/rules/dates';
import { pageWindow } from './alerts.rules';
import { validateEntry, validateRange, formatElapsed } from '@vigia/contract/rules/alarms';

const at = (minute: number) => new Date(Date.UTC(2026, 10, 22, 8, minute));

describe('alert entries and D16', () => {
  it.each([
    ['corto', 'Debe tener mínimo 10 caracteres'],
    ['   nueve9   ', 'Debe tener mínimo 10 caracteres'],
    ['diez chars', null],
  ])('entry %j → %s', (text, message) => {
    expect(validateEntry(text)).toBe(message);
  });

  it.each([
    [10, 20, null],
    [20, 20, null],
    [21, 20, 'Asegúrese de que el valor inicial sea menor al valor final.'],
  ])('range %s–%s → %s', (min, max, message) => {
    expect(validateRange(min, max)).toBe(message);
  });
});

describe('dates and pages', () => {
  it('finds the UTC start of a day in a zone, across DST', () => {
    expect(dayStartUtc('2026-11-22', 'America/Bogota').toISOString()).toBe('2026-11-22T05:00:00.000Z');
    expect(dayStartUtc('2026-03-29', 'Europe/Madrid').toISOString()).toBe('2026-03-28T23:00:00.000Z');
    expect(dayStartUtc('2026-03-30', 'Europe/Madrid').toISOString()).toBe('2026-03-29T22:00:00.000Z');
    expect(nextDay('2026-12-31')).toBe('2027-01-01');
  });

  it('reads page/per_page or _start/_end', () => {
    expect(pageWindow({ page: '3', per_page: '10' })).toEqual({ offset: 20, limit: 10 });
    expect(pageWindow({ _start: '5', _end: '25' })).toEqual({ offset: 5, limit: 20 });
    expect(pageWindow({ per_page: '1000' })).toEqual({ offset: 0, limit: 100 });
  });

  it('formats elapsed time in days, hours and minutes', () => {
    expect(formatElapsed(at(0), new Date(at(0).getTime() + (26 * 60 + 5) * 60_000))).toBe('1 día, 2 horas y 5 minutos');
  });
});
