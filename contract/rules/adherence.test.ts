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

describe('adherenceBand (bands at 50 and 70)', () => {
  it.each([
    [null, 'none'],
    [0, 'low'],
    [49, 'low'],
    [49.9, 'low'],
    [50, 'medium'],
    [69, 'medium'],
    [70, 'good'],
    [100, 'good'],
  ] as const)('%s %% → %s', (percent, band) => {
    expect(adherenceBand(percent)).toBe(band);
  });
});
