import {
  ORDER_ELEMENT_NAMES,
  generateActivityTimes,
  summarise,
  type BulkSummary,
  type OrderSchedule,
  bulkStart,
  medicationActivityCount,
} from '@vigia/contract/rules/activities';
import { localParts, addDays, weekdayOf } from '@vigia/contract/rules/dates';

/** One card of the bulk dialog (02 §2.4, §7 bulk item shapes). */
export interface MedicationCard {
  key: number;
  order_type: 1;
  medicine_id?: number;
  medicine_label?: string;
  frecuency?: number;
  time_unit?: number;
  during?: number;
  amount?: string;
  medication_unit?: number;
  notify: boolean;
  start?: string;
}
export interface VitalCard {
  key: number;
  order_type: 0;
  clinical_element?: number;
  frequency_type?: number;
  days: number[];
  hours: string[];
  during?: number;
  notify: boolean;
  start?: string;
}
export type BulkCard = MedicationCard | VitalCard;

let nextKey = 1;
/** 02 §9 bulk defaults: medication every 1 hour, 7 days, amount '1', unit 3, notify, start today; vital signs daily, 7, notify. */
export const newMedicationCard = (today: string): MedicationCard => ({
  key: nextKey++,
  order_type: 1,
  frecuency: 1,
  time_unit: 0,
  during: 7,
  amount: '1',
  medication_unit: 3,
  notify: true,
  start: today,
});
export const newVitalCard = (today: string): VitalCard => ({
  key: nextKey++,
  order_type: 0,
  frequency_type: 0,
  days: [],
  hours: ['08:00'],
  during: 7,
  notify: true,
  start: today,
});

/** 02 §5 validity of a bulk card. */
export function isValidCard(c: BulkCard): boolean {
  if (c.order_type === 1)
    return [c.medicine_id, c.frecuency, c.time_unit, c.during, c.amount, c.medication_unit, c.start].every((v) => v != null && v !== '');
  if (c.clinical_element == null || c.frequency_type == null || !c.during || !c.start || !c.hours.length) return false;
  return c.frequency_type !== 1 || c.days.length > 0;
}

/** Switching to weekdays with none selected selects all seven; switching to daily clears them (02 §5). */
export function withFrequencyType(c: VitalCard, frequency_type: number): VitalCard {
  if (frequency_type === 1) return { ...c, frequency_type, days: c.days.length ? c.days : [0, 1, 2, 3, 4, 5, 6] };
  return { ...c, frequency_type, days: [] };
}

export const QUICK_DAYS: Array<{ label: string; days: number[] }> = [
  { label: 'Todos', days: [0, 1, 2, 3, 4, 5, 6] },
  { label: 'L-V', days: [1, 2, 3, 4, 5] },
  { label: 'S-D', days: [0, 6] },
  { label: 'Limpiar', days: [] },
];

function scheduleOf(c: BulkCard): OrderSchedule {
  return c.order_type === 1
    ? { order_type: 1, frecuency: c.frecuency!, time_unit: c.time_unit!, during: c.during! }
    : {
        order_type: 0,
        frequency_type: c.frequency_type!,
        days: c.frequency_type === 0 ? [0, 1, 2, 3, 4, 5, 6] : [...c.days].sort((a, b) => a - b),
        hours: c.hours,
        during: c.during!,
      };
}

/** Bulk start dates travel as the day plus T00:00:00Z (02 §5). */
export function toBulkItem(c: BulkCard) {
  const start_at = `${c.start}T00:00:00Z`;
  if (c.order_type === 1) {
    return {
      order_type: 1 as const,
      medicine_id: c.medicine_id,
      dose: 1,
      frecuency: c.frecuency,
      time_unit: c.time_unit,
      during: c.during,
      start_at,
      amount: c.amount,
      medication_unit: c.medication_unit,
      notify: c.notify,
    };
  }
  const s = scheduleOf(c) as { days: number[] };
  return {
    order_type: 0 as const,
    clinical_element: c.clinical_element,
    frequency_type: c.frequency_type,
    during: c.during,
    start_at,
    days: s.days,
    hours: c.hours,
    notify: c.notify,
  };
}

export interface PreviewChip {
  at: Date;
  label: string;
  type: 0 | 1;
}

/**
 * The same generator the server runs (D12): a past start date is replaced by today and times
 * already past are left out, so the summary's counts are the ones the server will create.
 */
export function previewOf(cards: BulkCard[], timeZone: string, now: Date): { summary: BulkSummary; chips: PreviewChip[] } {
  const valid = cards.filter(isValidCard);
  const times = valid.map((c) => cardTimes(c, timeZone, now));
  const chips = valid.flatMap((c, i) =>
    times[i].map((at) => ({
      at,
      type: c.order_type,
      label: c.order_type === 1 ? (c.medicine_label ?? 'Medicamento') : (ORDER_ELEMENT_NAMES[c.clinical_element!] ?? 'Signo vital'),
    })),
  );
  return { summary: summarise(times, valid.map(scheduleOf)), chips };
}

/** The activities the server will create for one card: its schedule from its start (today if past), none already past. */
function cardTimes(c: BulkCard, timeZone: string, now: Date): Date[] {
  return generateActivityTimes(scheduleOf(c), bulkStart(`${c.start}T00:00:00Z`, now, timeZone), timeZone, { notBefore: now });
}

/** Calendar preview grid (02 §9): whole weeks from the Sunday before the first day, at least 4 and at most 12. */
export function previewWeeks(firstDay: string, durationDays: number): string[][] {
  const sunday = addDays(firstDay, -weekdayOf(firstDay));
  const weeks = Math.min(12, Math.max(4, Math.ceil((durationDays + weekdayOf(firstDay)) / 7)));
  return Array.from({ length: weeks }, (_, w) => Array.from({ length: 7 }, (_, d) => addDays(sunday, w * 7 + d)));
}

/** Chips per local day, and the 5 busiest days. */
export function chipsByDay(chips: PreviewChip[], timeZone: string) {
  const byDay = new Map<string, Array<PreviewChip & { time: string }>>();
  for (const c of chips) {
    const p = localParts(c.at, timeZone);
    const list = byDay.get(p.date) ?? [];
    list.push({ ...c, time: p.time });
    byDay.set(p.date, list);
  }
  const busiest = [...byDay.entries()]
    .sort((a, b) => b[1].length - a[1].length || a[0].localeCompare(b[0]))
    .slice(0, 5)
    .map(([day, list]) => ({ day, count: list.length }));
  return { byDay, busiest };
}

/**
 * Above these a medication card asks for confirmation before the orders are created (issue 19,
 * P155): more than 8 doses a day (more often than every 3 hours) or more than 100 in the order.
 */
export const HEAVY_DOSES_PER_DAY = 8;
export const HEAVY_DOSES_TOTAL = 100;

/**
 * A medication card's doses: a day, by 02 §9's rate, and in all, counted by the generator the
 * summary uses (previewOf), so the card's warning and the summary never name two totals (issue 41:
 * 168 in the warning, 165 in the summary, a start of today leaving out the hours already past).
 * Null while incomplete.
 */
export function medicationLoad(c: MedicationCard, timeZone: string, now: Date): { perDay: number; total: number; heavy: boolean } | null {
  if (!c.frecuency || c.time_unit == null || !c.during || !c.start) return null;
  const rate = medicationActivityCount({ frecuency: c.frecuency, time_unit: c.time_unit, during: c.during });
  const perDay = Math.round((rate / c.during) * 10) / 10;
  const total = cardTimes(c, timeZone, now).length;
  return { perDay, total, heavy: perDay > HEAVY_DOSES_PER_DAY || total > HEAVY_DOSES_TOTAL };
}

const decimal = (n: number) => n.toLocaleString('es-CO', { maximumFractionDigits: 1 });

/** 'Cada 1 Horas, 7 días' → '24 dosis al día · 168 en total'. */
export function loadText(load: { perDay: number; total: number }): string {
  return `${decimal(load.perDay)} dosis al día · ${load.total} en total`;
}
