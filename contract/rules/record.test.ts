import { describe, expect, it } from 'vitest';
import { canSetMultipatientCard, formatDateTime } from './record';

describe('formatDateTime (day/month/year, patient zone)', () => {
  it.each([
    ['2026-03-01T13:05:00Z', 'America/Bogota', '01/03/2026 08:05'],
    ['2026-03-01T03:05:00Z', 'America/Bogota', '28/02/2026 22:05'],
    ['2026-07-01T22:30:00Z', 'Europe/Madrid', '02/07/2026 00:30'],
  ])('%s in %s → %s', (iso, zone, text) => expect(formatDateTime(new Date(iso), zone)).toBe(text));
});

describe('multi-patient card (01 §5)', () => {
  it.each([
    [true, null, true],
    [true, 'GW-1', false],
    [false, null, false],
    [false, 'GW-1', false],
  ])('client multi-patient %s, card_id %s → %s', (multi, card, ok) => expect(canSetMultipatientCard(multi, { card_id: card })).toBe(ok));
});
