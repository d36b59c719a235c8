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
    ['ANA--LUCÍA -PAZ', 'Ana--Lucía -Paz'],
    ["O'NEIL 2DA ÉLIDA", "O'neil 2da Élida"],
    ['ÁLVARO-', 'Álvaro-'],
    ['', ''],
    [null, ''],
  ])('%j → %j', (input, expected) => {
    expect(displayName(input)).toBe(expected);
  });
});
