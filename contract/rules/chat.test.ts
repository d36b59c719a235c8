import { describe, it, expect } from 'vitest';
import { shortFilename, estimatedSeconds, formatDuration, dayLabel, chatSubtitle, mergeMessages } from './chat';

describe('chat display rules', () => {
  it.each([
    ['nota.ogg', 'nota.ogg'],
    ['12345678901234567890', '12345678901234567890'],
    ['nota-de-voz-del-paciente.ogg', 'nota-de-voz-del-paci...'],
  ])('shortFilename(%s)', (name, out) => expect(shortFilename(name)).toBe(out));

  it.each([
    [0, 0, '0:00'],
    [12_345, 12, '0:12'],
    [75_400, 75, '1:15'],
    [999, 1, '0:01'],
  ])('%i bytes ≈ %i s (%s)', (bytes, s, text) => {
    expect(estimatedSeconds(bytes)).toBe(s);
    expect(formatDuration(estimatedSeconds(bytes))).toBe(text);
  });

  const now = new Date('2026-03-02T04:30:00Z'); // 23:30 of March 1st in Bogotá
  it.each([
    ['2026-03-02T04:00:00Z', 'America/Bogota', 'Hoy'],
    ['2026-03-01T04:00:00Z', 'America/Bogota', 'Ayer'],
    ['2026-02-28T04:00:00Z', 'America/Bogota', '27/02/2026'],
    ['2026-03-02T01:00:00Z', 'UTC', 'Hoy'],
    ['2026-03-01T23:00:00Z', 'UTC', 'Ayer'],
  ])('dayLabel(%s, %s) = %s', (at, zone, label) => expect(dayLabel(new Date(at), now, zone)).toBe(label));

  it('knows yesterday across a daylight-saving change', () => {
    // Madrid moves to summer time on 29 March 2026.
    expect(dayLabel(new Date('2026-03-29T00:30:00Z'), new Date('2026-03-30T00:30:00Z'), 'Europe/Madrid')).toBe('Ayer');
  });

  it.each([
    [null, 'Mensaje de Bienvenida'],
    ['2026-03-02T04:00:00Z', 'Última actividad: hoy 23:00'],
    ['2026-02-20T15:00:00Z', 'Última actividad: 20/02/2026 10:00'],
  ])('subtitle for %s', (at, text) => expect(chatSubtitle(at ? new Date(at) : null, now, 'America/Bogota')).toBe(text));

  it('merges pages without duplicates, oldest first', () => {
    const m = (id: number, at: string) => ({ id, created_at: at });
    expect(mergeMessages([m(3, 'c'), m(2, 'b')], [m(2, 'b'), m(1, 'a')]).map((x) => x.id)).toEqual([1, 2, 3]);
  });
});
