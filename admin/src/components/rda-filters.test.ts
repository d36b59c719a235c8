import { describe, expect, it } from 'vitest';
import { isCalendarDay, rdaFilterParams, rdaListPath, readRdaFilters } from './rda-filters';

describe('readRdaFilters', () => {
  it.each([
    ['', {}],
    ['status=rechazado', { status: 'rechazado' }],
    ['status=sin_enviar&kind=paciente&patient_id=12', { status: 'sin_enviar', kind: 'paciente', patient_id: 12 }],
    ['status=borrado&kind=otro&patient_id=-3', {}],
    ['patient_id=1.5', {}],
    ['patient_id=abc', {}],
    ['from=2026-12-01&to=2026-12-31', { from: '2026-12-01', to: '2026-12-31' }],
    ['from=2026-12-01&to=2026-12-01', { from: '2026-12-01', to: '2026-12-01' }],
    ['from=2026-02-30&to=ayer', {}],
    ['from=2026-12-05&to=2026-12-01', { from: '2026-12-05' }],
    ['status=pendiente&from=2026-12-01', { status: 'pendiente', from: '2026-12-01' }],
  ])('reads %s', (query, expected) => {
    expect(readRdaFilters(new URLSearchParams(query))).toEqual(expected);
  });

  it('writes back what it reads', () => {
    const query = 'status=rechazado&kind=consulta&patient_id=7&from=2026-12-01&to=2026-12-03';
    const params = rdaFilterParams(readRdaFilters(new URLSearchParams(query)));
    expect(new URLSearchParams(params as Record<string, string>).toString()).toBe(query);
    expect(rdaFilterParams({})).toEqual({ status: undefined, kind: undefined, patient_id: undefined, from: undefined, to: undefined });
  });
});

describe('isCalendarDay', () => {
  it.each([
    ['2026-12-01', true],
    ['2028-02-29', true],
    ['2026-02-29', false],
    ['2026-13-01', false],
    ['01/12/2026', false],
    ['2026-12-1', false],
  ])('%s → %s', (v, expected) => expect(isCalendarDay(v)).toBe(expected));
});

describe('rdaListPath', () => {
  it.each([
    ['rechazado', '/rdas?status=rechazado'],
    ['pendiente', '/rdas?status=pendiente'],
    [undefined, '/rdas'],
  ] as const)('%s → %s', (status, path) => expect(rdaListPath(status)).toBe(path));
});
