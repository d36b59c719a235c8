import { describe, expect, it } from 'vitest';
import { failedReadText, offlineText, readPhase, staleText } from './reads';

describe('readPhase', () => {
  it.each([
    // hasData, empty, failed, offline → phase
    [false, false, false, false, 'loading'],
    [true, true, false, false, 'empty'],
    [true, false, false, false, 'ready'],
    // Issue 50: a failed read is never 'empty'.
    [false, false, true, false, 'failed'],
    [false, true, true, false, 'failed'],
    [false, false, false, true, 'failed'],
    // The last data is kept, marked as not refreshed.
    [true, false, true, false, 'stale'],
    // An empty answer kept would read as 'no hay…': it is not shown.
    [true, true, true, false, 'failed'],
    [true, true, false, true, 'failed'],
    [true, false, false, true, 'stale'],
  ] as const)('hasData %j empty %j failed %j offline %j → %s', (hasData, empty, failed, offline, phase) => {
    expect(readPhase({ hasData, empty, failed, offline })).toBe(phase);
  });
});

describe('staleText', () => {
  const tz = 'America/Bogota';
  const readAt = Date.parse('2026-12-05T15:42:00Z'); // 10:42 in Bogotá
  it('gives the time alone on the same day', () => {
    expect(staleText(readAt, readAt + 60_000, tz)).toBe('Datos de las 10:42; no fue posible actualizarlos.');
  });
  it('gives the day when the data is from another day', () => {
    expect(staleText(readAt, readAt + 86_400_000, tz)).toBe('Datos del 05/12/2026 a las 10:42; no fue posible actualizarlos.');
  });
  it('says when the cause is the network', () => {
    expect(staleText(readAt, readAt, tz, true)).toBe('Datos de las 10:42; sin conexión, no fue posible actualizarlos.');
  });
});

describe('failedReadText', () => {
  it.each([
    ['failed', false, 'No fue posible cargar las alertas abiertas.'],
    ['failed', true, 'Sin conexión: no fue posible cargar las alertas abiertas.'],
    ['stale', false, 'Datos de las 10:42; no fue posible actualizarlos.'],
  ] as const)('%s offline %j → %j', (phase, offline, text) => {
    const at = Date.parse('2026-12-05T15:42:00Z');
    expect(failedReadText(phase, 'las alertas abiertas', at, at, 'America/Bogota', offline)).toBe(text);
  });
});

describe('offlineText', () => {
  const tz = 'America/Bogota';
  const at = Date.parse('2026-12-05T15:42:00Z');
  it.each([
    [at, at + 60_000, 'Sin conexión: los datos pueden no estar al día. Última lectura correcta: 10:42.'],
    [at, at + 86_400_000, 'Sin conexión: los datos pueden no estar al día. Última lectura correcta: 05/12/2026 10:42.'],
    [0, at, 'Sin conexión: los datos pueden no estar al día.'],
  ])('read at %j, now %j → %j', (readAt, now, text) => {
    expect(offlineText(readAt, now, tz)).toBe(text);
  });
});
