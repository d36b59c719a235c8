import { dayStartUtc, localDate, nextDay } from '@vigia/contract/rules/dates';

/** Pure helpers of the measurements module: date ranges in the patient's zone, CSV cells. */

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * A `start_at`/`end_at` bound: a date-time is taken as given; a plain date is a whole day in the
 * patient's zone (D5), so `end_at=2026-11-21` includes the readings of that evening.
 */
export function rangeBound(value: string | undefined, timeZone: string, edge: 'start' | 'end'): Date | null {
  if (!value) return null;
  if (DATE_ONLY.test(value)) {
    // The next day is computed on the calendar, then placed in the zone: adding 24 h would drift on DST days.
    const day = edge === 'start' ? value : nextDay(value);
    return dayStartUtc(day, timeZone);
  }
  const t = Date.parse(value);
  return Number.isNaN(t) ? null : new Date(t);
}

/** Report default (01 §2 Reportes): one month back to today, in the patient's zone. */
export function defaultReportRange(now: Date, timeZone: string): { start: Date; end: Date } {
  const today = localDate(now, timeZone);
  const monthAgo = new Date(`${today}T00:00:00Z`);
  monthAgo.setUTCMonth(monthAgo.getUTCMonth() - 1);
  return { start: dayStartUtc(monthAgo.toISOString().slice(0, 10), timeZone), end: dayStartUtc(nextDay(today), timeZone) };
}

/** The longest period one export covers; a year is what the benchmark asks to stream. */
export const MAX_EXPORT_DAYS = 366;

/**
 * CSV injection (OWASP): a cell a spreadsheet would run as a formula gets a leading apostrophe.
 * Applies to text cells; numbers are written as numbers.
 */
export function neutraliseCell(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

/** A reading's value as people write it: 36.5, 120 (one decimal at most, D6 values). */
export function formatValue(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(1);
}
