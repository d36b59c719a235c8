import { describe, expect, it } from 'vitest';
import { fileNameOf } from './downloads.data';

describe('fileNameOf', () => {
  it.each([
    [`inline; filename="signos-vitales-1020304050.pdf"; filename*=UTF-8''signos-vitales-1020304050.pdf`, 'signos-vitales-1020304050.pdf'],
    [`attachment; filename="Informe Nunez.pdf"; filename*=UTF-8''Informe%20N%C3%BA%C3%B1ez.pdf`, 'Informe Núñez.pdf'],
    ['attachment; filename="mediciones.csv"', 'mediciones.csv'],
    ['attachment; filename=mediciones.csv', 'mediciones.csv'],
    ['inline', null],
    [null, null],
  ])('reads the name of %s as %s', (header, name) => {
    expect(fileNameOf(header)).toBe(name);
  });
});
