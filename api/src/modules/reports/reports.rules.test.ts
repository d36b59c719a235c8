import { describe, expect, it } from 'vitest';
import { isVitalSignGroup, REPORT_MESSAGES, validateStatusChangeRange, VITAL_SIGN_GROUPS } from './reports.rules';

describe('reports rules', () => {
  it.each([
    [undefined, undefined, { field: 'start_date', message: REPORT_MESSAGES.dates }],
    ['2026-11-01', undefined, null],
    [undefined, '2026-11-01', null],
    ['2026-11-01', '2026-11-01', null],
    ['2026-11-02', '2026-11-01', { field: 'end_date', message: REPORT_MESSAGES.order }],
  ])('status-change range %s..%s', (start, end, expected) => {
    expect(validateStatusChangeRange(start, end)).toEqual(expected);
  });

  it.each([
    ['cardiovascular', true],
    ['oxygenation', true],
    ['toString', false],
    ['', false],
    [undefined, false],
  ])('group %s is a vital-sign group: %s', (group, ok) => {
    expect(isVitalSignGroup(group)).toBe(ok);
  });

  it('cardiovascular is heart rate, systolic and diastolic (03 §3)', () => {
    expect(VITAL_SIGN_GROUPS.cardiovascular).toEqual([1, 3, 4]);
  });
});
