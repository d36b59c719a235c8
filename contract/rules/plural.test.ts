import { describe, expect, it } from 'vitest';
import { countOf, isOne } from './plural';

describe('countOf', () => {
  it.each([
    [1, 'orden', 'órdenes', '1 orden'],
    [2, 'orden', 'órdenes', '2 órdenes'],
    [0, 'orden', 'órdenes', '0 órdenes'],
    [1, 'segundo', 'segundos', '1 segundo'],
    [5, 'segundo', 'segundos', '5 segundos'],
    [1, 'actividad', 'actividades', '1 actividad'],
    [28, 'actividad', 'actividades', '28 actividades'],
    [1.5, 'hora', 'horas', '1.5 horas'],
    [1, 'año', 'años', '1 año'],
  ])('%j %s/%s → %j', (n, one, many, expected) => {
    expect(countOf(n, one, many)).toBe(expected);
  });
});

describe('isOne', () => {
  it.each([
    [1, true],
    [0, false],
    [2, false],
    [1.0001, false],
  ])('%j → %j', (n, expected) => {
    expect(isOne(n)).toBe(expected);
  });
});
