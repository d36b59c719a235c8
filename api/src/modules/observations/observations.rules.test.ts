import { describe, expect, it } from 'vitest';
import { observationTypeName, timespanText } from './observations.rules';

const now = new Date('2026-03-10T12:00:00Z');
const ago = (s: number) => new Date(now.getTime() - s * 1000);

describe('observationTypeName (01 §2: other values render as Otro)', () => {
  it.each([
    [0, 'Nota de enfermería'],
    [1, 'Evolución Médica'],
    [2, 'Admisión'],
    [3, 'Salida/Epicrisis'],
    [4, 'Otro'],
    [5, 'Resumen de conversación (asistente IA)'],
    [9, 'Otro'],
    [-1, 'Otro'],
  ])('%i → %s', (type, name) => expect(observationTypeName(type)).toBe(name));
});

describe('timespanText', () => {
  it.each([
    [0, 'hace un momento'],
    [59, 'hace un momento'],
    [60, 'hace 1 minuto'],
    [150, 'hace 2 minutos'],
    [3600, 'hace 1 hora'],
    [3 * 3600 + 5, 'hace 3 horas'],
    [24 * 3600, 'hace 1 día'],
    [6 * 24 * 3600, 'hace 6 días'],
    [14 * 24 * 3600, 'hace 2 semanas'],
    [40 * 24 * 3600, 'hace 1 mes'],
    [800 * 24 * 3600, 'hace 2 años'],
    [-50, 'hace un momento'],
  ])('%i s → %s', (s, text) => expect(timespanText(ago(s), now)).toBe(text));
});
