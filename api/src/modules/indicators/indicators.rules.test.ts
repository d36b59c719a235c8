import { describe, expect, it } from 'vitest';
import { adherenceDistribution, hypertensionPercent, indicatorMonths, share } from './indicators.rules';

describe('indicator months (12, in the client zone)', () => {
  it('ends with the month that holds now in Bogotá, not in UTC', () => {
    // 1 December 2026 02:00 UTC is still 30 November in Bogotá (UTC-5).
    const months = indicatorMonths(new Date('2026-12-01T02:00:00Z'), 'America/Bogota');
    expect(months).toHaveLength(12);
    expect(months[11]).toEqual({
      month: '2026-11',
      start: new Date('2026-11-01T05:00:00Z'),
      next: new Date('2026-12-01T05:00:00Z'),
    });
    expect(months[0].month).toBe('2025-12');
    expect(months.map((m) => m.month)).toContain('2026-01');
  });
});

describe('share and adherence bands (50 % or less red, over 70 % green)', () => {
  it('answers null for nobody counted, one decimal otherwise', () => {
    expect(share(0, 0)).toBeNull();
    expect(share(2, 3)).toBe(66.7);
  });
  it('puts each patient in its band; patients with nothing due are none', () => {
    expect(
      adherenceDistribution(6, [
        { due: 2, done: 1 },
        { due: 10, done: 6 },
        { due: 10, done: 7 },
        { due: 10, done: 8 },
      ]),
    ).toEqual({ low: 1, medium: 2, good: 1, none: 2, total: 6 });
  });
  it.each([
    [
      'one entry per patient',
      [
        { due: 10, done: 6 },
        { due: 10, done: 6 },
        { due: 4, done: 4 },
      ],
      { low: 0, medium: 2, good: 1, none: 7 },
    ],
    [
      'patients sharing a count',
      [
        { due: 10, done: 6, patients: 2 },
        { due: 4, done: 4 },
      ],
      { low: 0, medium: 2, good: 1, none: 7 },
    ],
    ['every active patient counted', [{ due: 3, done: 0, patients: 10 }], { low: 10, medium: 0, good: 0, none: 0 }],
  ])('counts entries that stand for several patients (%s)', (_name, counts, bands) => {
    expect(adherenceDistribution(10, counts)).toEqual({ ...bands, total: 10 });
  });
});

describe("hypertension control: controlled among eligible, 'sin datos' (null) when nobody was measured", () => {
  const cases: Array<[string, number, number, number, number | null]> = [
    // [case, eligible, measured, controlled, percent]
    ['2 eligible, none with a blood pressure in 90 days', 2, 0, 0, null],
    ['nobody eligible', 0, 0, 0, null],
    ['3 eligible, 2 measured, 1 under 140/90', 3, 2, 1, 33.3],
    ['2 measured, none controlled: a real 0 %', 2, 2, 0, 0],
  ];
  it.each(cases)('%s', (_name, eligible, measured, controlled, percent) => {
    expect(hypertensionPercent({ eligible, measured, controlled })).toBe(percent);
  });
});
