import { describe, it, expect } from 'vitest';
import { likeSafe } from './catalogues.service';
import { toSearchKey } from '@vigia/contract/rules/names';

describe('search keys', () => {
  it.each([
    ['  Bogotá,  D.C. ', 'bogota, d.c.'],
    ['ÑUÑEZ Peña', 'nunez pena'],
  ])('toSearchKey(%j) → %j', (input, expected) => {
    expect(toSearchKey(input)).toBe(expected);
  });
  it.each([
    ['50%', '50'],
    ['a_b', 'ab'],
    ['c\\d', 'cd'],
    ['plain', 'plain'],
  ])('likeSafe(%j) → %j', (input, expected) => {
    expect(likeSafe(input)).toBe(expected);
  });
});
