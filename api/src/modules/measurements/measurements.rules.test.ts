import { describe, expect, it } from 'vitest';
import { localDateTime } from '@vigia/contract/rules/dates';
import { defaultReportRange, formatValue, neutraliseCell, rangeBound } from './measurements.rules';

describe("rangeBound: a plain date is a whole day in the patient's zone (D5)", () => {
  it.each([
    ['2026-11-21', 'America/Bogota', 'start', '2026-11-21T05:00:00.000Z'],
    ['2026-11-21', 'America/Bogota', 'end', '2026-11-22T05:00:00.000Z'],
    // Madrid moves to summer time on 2026-03-29: that day has 23 hours.
    ['2026-03-29', 'Europe/Madrid', 'start', '2026-03-28T23:00:00.000Z'],
    ['2026-03-29', 'Europe/Madrid', 'end', '2026-03-29T22:00:00.000Z'],
    ['2026-11-21T10:30:00Z', 'America/Bogota', 'end', '2026-11-21T10:30:00.000Z'],
  ] as const)('%s in %s (%s) → %s', (value, zone, edge, expected) => {
    expect(rangeBound(value, zone, edge)?.toISOString()).toBe(expected);
  });

  it('answers null for no value', () => {
    expect(rangeBound(undefined, 'America/Bogota', 'start')).toBeNull();
  });
});

describe('defaultReportRange (01 §2: one month back to today)', () => {
  it('covers from the same day last month to the end of today, in the zone', () => {
    const r = defaultReportRange(new Date('2026-11-22T02:00:00Z'), 'America/Bogota');
    expect([r.start.toISOString(), r.end.toISOString()]).toEqual(['2026-10-21T05:00:00.000Z', '2026-11-22T05:00:00.000Z']);
  });
});

describe('neutraliseCell (CSV injection)', () => {
  it.each([
    ['=SUM(A1)', "'=SUM(A1)"],
    ['+57', "'+57"],
    ['-3', "'-3"],
    ['@cmd', "'@cmd"],
    ['\tx', "'\tx"],
    ['\rx', "'\rx"],
    ['MARÍA', 'MARÍA'],
    ['1020304050', '1020304050'],
    ['a=b', 'a=b'],
  ])('%j → %j', (cell, expected) => {
    expect(neutraliseCell(cell)).toBe(expected);
  });
});

describe('formatting', () => {
  it('writes local wall-clock times and one decimal at most', () => {
    expect(localDateTime(new Date('2026-11-21T13:05:00Z'), 'America/Bogota')).toBe('2026-11-21 08:05');
    expect([formatValue(72), formatValue(36.5), formatValue(36.55)]).toEqual(['72', '36.5', '36.5']);
  });
});
