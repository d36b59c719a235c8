import { describe, expect, it } from 'vitest';
import {
  chipsByDay,
  isValidCard,
  loadText,
  medicationLoad,
  newMedicationCard,
  newVitalCard,
  previewOf,
  previewWeeks,
  toBulkItem,
  withFrequencyType,
  type MedicationCard,
} from './bulk-orders';

const NOW = new Date('2026-11-21T15:00:00Z'); // 10:00 in Bogotá
const TZ = 'America/Bogota';
/** Hourly for 7 days from today's first dose (08:00), asked at 10:00: 168 less the 08:00 and 09:00 doses. */
const TODAY_HOURLY_7 = 166;
/** Every 8 hours for 30 days from today's 08:00, asked at 10:00: 90 less the 08:00 dose. */
const TODAY_EVERY_8_30 = 89;

describe('bulk order cards (02 §5)', () => {
  it('medication needs a medicine; the other fields default (02 §9)', () => {
    const c = newMedicationCard('2026-11-22');
    expect(isValidCard(c)).toBe(false);
    expect(isValidCard({ ...c, medicine_id: 17 })).toBe(true);
    expect(isValidCard({ ...c, medicine_id: 17, during: undefined })).toBe(false);
  });
  it('vital signs: weekly needs a day; switching to weekly selects all seven, to daily clears them', () => {
    const c = { ...newVitalCard('2026-11-22'), clinical_element: 6 };
    expect(isValidCard(c)).toBe(true);
    const weekly = withFrequencyType(c, 1);
    expect(weekly.days).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(isValidCard({ ...weekly, days: [] })).toBe(false);
    expect(withFrequencyType(weekly, 0).days).toEqual([]);
  });
  it('sends the day plus T00:00:00Z and daily orders with all seven days', () => {
    expect(toBulkItem({ ...newVitalCard('2026-11-22'), clinical_element: 1 })).toMatchObject({
      start_at: '2026-11-22T00:00:00Z',
      days: [0, 1, 2, 3, 4, 5, 6],
      hours: ['08:00'],
    });
  });
});

describe('summary and preview: the shared generator (D12)', () => {
  it('counts floor(24 / 8 × 7) + 7 × 1 for tomorrow, max duration 7, average 4', () => {
    const cards = [
      { ...newMedicationCard('2026-11-22'), medicine_id: 17, frecuency: 8 },
      { ...newVitalCard('2026-11-22'), clinical_element: 6 },
    ];
    const { summary, chips } = previewOf(cards, TZ, NOW);
    expect(summary).toEqual({ orders: 2, activities: 28, duration: 7, averagePerDay: 4 });
    const { byDay, busiest } = chipsByDay(chips, TZ);
    expect(byDay.get('2026-11-22')).toHaveLength(3); // 08:00 and 16:00 doses, 08:00 glucose
    expect(byDay.get('2026-11-23')).toHaveLength(4);
    expect(busiest).toHaveLength(5);
  });
  it('medication chips carry the medicine name chosen in the card, vital-sign chips the element', () => {
    const cards = [
      { ...newMedicationCard('2026-11-22'), medicine_id: 17, medicine_label: 'Losartán', frecuency: 8 },
      { ...newVitalCard('2026-11-22'), clinical_element: 6 },
    ];
    const labels = new Set(previewOf(cards, TZ, NOW).chips.map((c) => c.label));
    expect([...labels].sort()).toEqual(['Glucosa', 'Losartán']);
  });
  it('a past start date counts from today, without the hours already past', () => {
    const { summary } = previewOf([{ ...newVitalCard('2026-11-01'), clinical_element: 6, hours: ['08:00', '18:00'], during: 1 }], TZ, NOW);
    expect(summary.activities).toBe(1);
  });
  it.each([
    [7, 4],
    [30, 5],
    [200, 12],
  ])('duration %s days → %s weeks (between 4 and 12)', (days, weeks) => {
    expect(previewWeeks('2026-11-22', days)).toHaveLength(weeks);
  });
});

describe('medicationLoad (issue 19: 168 doses without a word; issue 41: one total with the summary)', () => {
  const card = (start: string, frecuency: number, time_unit: number, during: number): MedicationCard => ({
    ...newMedicationCard(start),
    medicine_id: 17,
    frecuency,
    time_unit,
    during,
  });

  it("says the default 'Cada 1 Horas' for 7 days from tomorrow is 24 a day and 168 in all, and asks for confirmation", () => {
    const load = medicationLoad(newMedicationCard('2026-11-22'), TZ, NOW)!;
    expect(load).toEqual({ perDay: 24, total: 168, heavy: true });
    expect(loadText(load)).toBe('24 dosis al día · 168 en total');
  });

  // NOW is 10:00 in Bogotá on 2026-11-21: a card starting today (or earlier) loses the doses before it.
  it.each([
    ['2026-11-22', 1, 0, 7, 24, 168, true],
    ['2026-11-21', 1, 0, 7, 24, TODAY_HOURLY_7, true],
    ['2026-11-01', 1, 0, 7, 24, TODAY_HOURLY_7, true],
    ['2026-11-22', 8, 0, 30, 3, 90, false],
    ['2026-11-21', 8, 0, 30, 3, TODAY_EVERY_8_30, false],
    ['2026-11-22', 8, 0, 40, 3, 120, true],
    ['2026-11-22', 3, 0, 7, 8, 56, false],
    ['2026-11-22', 2, 0, 1, 12, 12, true],
    ['2026-11-22', 1, 1, 7, 1, 7, false],
  ] as const)(
    'start %s, every %s (unit %s) for %s days: %s a day, %s in all, confirm: %s',
    (start, f, unit, during, perDay, total, heavy) => {
      const c = card(start, f, unit, during);
      expect(medicationLoad(c, TZ, NOW)).toEqual({ perDay, total, heavy });
      expect(previewOf([c], TZ, NOW).summary.activities).toBe(total);
    },
  );

  it('is null while the card is incomplete', () => {
    expect(medicationLoad({ ...card('2026-11-22', 1, 0, 7), frecuency: undefined }, TZ, NOW)).toBeNull();
    expect(medicationLoad({ ...card('2026-11-22', 1, 0, 7), start: undefined }, TZ, NOW)).toBeNull();
  });
});
