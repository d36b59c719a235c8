import { describe, it, expect } from 'vitest';
import { periodOf } from './list-periods.rules';

describe('periodOf: the period a typed beginning of a date names', () => {
  it.each([
    ['2027', 'date', { from: '2027-01-01', to: '2028-01-01' }],
    ['2027-06', 'date', { from: '2027-06-01', to: '2027-07-01' }],
    ['2027-12', 'date', { from: '2027-12-01', to: '2028-01-01' }],
    ['2027-06-30', 'date', { from: '2027-06-30', to: '2027-07-01' }],
    ['2028-02-29', 'date', { from: '2028-02-29', to: '2028-03-01' }],
    [' 2027-06 ', 'date', { from: '2027-06-01', to: '2027-07-01' }],
    ['2026-11-21', 'datetime', { from: '2026-11-21T00:00:00.000Z', to: '2026-11-22T00:00:00.000Z' }],
    ['2026-11-21T15', 'datetime', { from: '2026-11-21T15:00:00.000Z', to: '2026-11-21T16:00:00.000Z' }],
    ['2026-11-21 23:59', 'datetime', { from: '2026-11-21T23:59:00.000Z', to: '2026-11-22T00:00:00.000Z' }],
    ['2026-12-31T23:59:59', 'datetime', { from: '2026-12-31T23:59:59.000Z', to: '2027-01-01T00:00:00.000Z' }],
    ['2026', 'datetime', { from: '2026-01-01T00:00:00.000Z', to: '2027-01-01T00:00:00.000Z' }],
  ] as const)('%s on a %s field', (text, kind, period) => {
    expect(periodOf(text, kind)).toEqual(period);
  });

  it.each([
    ['', 'date'],
    ['27', 'date'],
    ['06/2027', 'date'],
    ['2027-6', 'date'],
    ['2027-13', 'date'],
    ['2027-02-30', 'date'],
    ['2027-02-29', 'date'],
    ['2027-06-30T10', 'date'],
    ['2026-11-21T24', 'datetime'],
    ['2026-11-21T10:60', 'datetime'],
    ["2026' OR 1=1", 'datetime'],
    ['0000', 'date'],
  ] as const)('refuses %j on a %s field', (text, kind) => {
    expect(periodOf(text, kind)).toBeNull();
  });
});
