import { describe, expect, it } from 'vitest';
import { ACTIVITY_STATUS_OPTIONS, activitySubject, dayTitle, relativeDay } from './activities-day';

describe('relativeDay and dayTitle (days in the client zone)', () => {
  it.each([
    ['2026-11-21', '2026-11-21', 'Hoy', 'Sábado 21/11/2026 · Hoy'],
    ['2026-11-20', '2026-11-21', 'Ayer', 'Viernes 20/11/2026 · Ayer'],
    ['2026-11-22', '2026-11-21', 'Mañana', 'Domingo 22/11/2026 · Mañana'],
    ['2026-11-24', '2026-11-21', null, 'Martes 24/11/2026'],
    ['2026-12-31', '2027-01-01', 'Ayer', 'Jueves 31/12/2026 · Ayer'],
    ['2028-02-29', '2028-03-01', 'Ayer', 'Martes 29/02/2028 · Ayer'],
  ])('%s seen on %s → %s / %s', (date, today, relative, title) => {
    expect(relativeDay(date, today)).toBe(relative);
    expect(dayTitle(date, today)).toBe(title);
  });
});

describe('activitySubject', () => {
  it.each([
    [{ order_type: 1, medicine_name: 'Losartán Tableta 50 mg', clinical_element_name: null }, 'Losartán Tableta 50 mg'],
    [{ order_type: 0, medicine_name: null, clinical_element_name: 'Glucosa' }, 'Glucosa'],
    [{ order_type: 1, medicine_name: null, clinical_element_name: null }, null],
  ])('%j → %s', (activity, expected) => {
    expect(activitySubject(activity)).toBe(expected);
  });
});

it('offers the seven statuses of D11 in order', () => {
  expect(ACTIVITY_STATUS_OPTIONS.map((o) => o.label)).toEqual([
    'Programada',
    'En proceso',
    'Completada',
    'Cancelada',
    'Fallida',
    'Suspendida',
    'No reportada',
  ]);
});
