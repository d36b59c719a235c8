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
} from './bulk-orders';

const NOW = new Date('2026-11-21T15:00:00Z'); // 10:00 in Bogotá
const TZ = 'America/Bogota';

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

describe('medicationLoad (issue 19: 168 doses without a word)', () => {
  it("says the default 'Cada 1 Horas' for 7 days is 24 a day and 168 in all, and asks for confirmation", () => {
    const load = medicationLoad(newMedicationCard('2026-11-21'))!;
    expect(load).toEqual({ perDay: 24, total: 168, heavy: true });
    expect(loadText(load)).toBe('24 dosis al día · 168 en total');
  });
  it('leaves every 8 hours for 30 days (3 a day, 90 in all) unconfirmed; 8 a day is still fine, more is not', () => {
    const card = (frecuency: number, time_unit: number, during: number) => ({
      ...newMedicationCard('2026-11-21'),
      frecuency,
      time_unit,
      during,
    });
    expect(medicationLoad(card(8, 0, 30))).toEqual({ perDay: 3, total: 90, heavy: false });
    expect(medicationLoad(card(3, 0, 7))!.heavy).toBe(false);
    expect(medicationLoad(card(2, 0, 1))!.heavy).toBe(true);
    expect(medicationLoad(card(8, 0, 40))).toEqual({ perDay: 3, total: 120, heavy: true });
    expect(medicationLoad(card(1, 1, 7))).toEqual({ perDay: 1, total: 7, heavy: false });
    expect(medicationLoad({ ...card(1, 0, 7), frecuency: undefined })).toBeNull();
  });
});
