import { describe, expect, it } from 'vitest';
import { displayName } from './names';

describe('displayName', () => {
  it.each([
    ['ANA LUCÍA', 'Ana Lucía'],
    ['MEJÍA TORRES', 'Mejía Torres'],
    ['  maría  DE LA cruz ', 'María de la Cruz'],
    ['ANA-LUCÍA ÑUÑEZ', 'Ana-Lucía Ñuñez'],
    ['DE LA CRUZ', 'De la Cruz'],
    ['ÑUSTA', 'Ñusta'],
    ['', ''],
    [null, ''],
  ])('%j → %j', (input, expected) => {
    expect(displayName(input)).toBe(expected);
  });
});
