import { describe, expect, it } from 'vitest';
import { adherenceBand, adherencePercent } from './adherence';

describe('adherencePercent', () => {
  it.each([
    [0, 0, null],
    [3, 0, null],
    [0, 10, 0],
    [5, 10, 50],
    [2, 3, 67],
    [7, 7, 100],
    [9, 7, 100],
    [-1, 4, 0],
  ])('%i completed of %i due → %s', (completed, due, expected) => {
    expect(adherencePercent(completed, due)).toBe(expected);
  });
});

describe('adherenceBand (03 §4: 50 or less red, above 50 up to 70 amber, above 70 green)', () => {
  it.each([
    [null, 'none'],
    [Number.NaN, 'none'],
    [0, 'low'],
    [49.9, 'low'],
    [50, 'low'],
    [50.1, 'medium'],
    [69, 'medium'],
    [70, 'medium'],
    [70.1, 'good'],
    [100, 'good'],
  ] as const)('%s %% → %s', (percent, band) => {
    expect(adherenceBand(percent)).toBe(band);
  });
});
