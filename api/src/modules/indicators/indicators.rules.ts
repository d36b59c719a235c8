import { dayStartUtc, localDate } from '@vigia/contract/rules/dates';
import { adherenceBand, adherencePercent } from '@vigia/contract/rules/adherence';

/**
 * Programme indicators (issue 21, after HEARTS360 and TIDE) as pure rules: the months of the
 * trend in the client's zone, and how a month's counts become the figures the card shows.
 */

/** HEARTS360: the last blood pressure of the 3 months (90 days) before the month's end. */
export const INDICATOR_LOOKBACK_DAYS = 90;
/** The trend covers the current month and the 11 before it. */
export const INDICATOR_MONTHS = 12;

export interface IndicatorMonth {
  /** 'YYYY-MM' in the client's zone. */
  month: string;
  start: Date;
  /** The month's next instant after its end (the next month's start). */
  next: Date;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** The `count` months up to the one holding `now`, oldest first, bounded by midnight in `timeZone`. */
export function indicatorMonths(now: Date, timeZone: string, count = INDICATOR_MONTHS): IndicatorMonth[] {
  const [y, m] = localDate(now, timeZone).split('-').map(Number);
  const out: IndicatorMonth[] = [];
  for (let i = count - 1; i >= 0; i--) {
    const index = y * 12 + (m - 1) - i;
    const [year, month] = [Math.floor(index / 12), (index % 12) + 1];
    const [nextYear, nextMonth] = [Math.floor((index + 1) / 12), ((index + 1) % 12) + 1];
    out.push({
      month: `${year}-${pad(month)}`,
      start: dayStartUtc(`${year}-${pad(month)}-01`, timeZone),
      next: dayStartUtc(`${nextYear}-${pad(nextMonth)}-01`, timeZone),
    });
  }
  return out;
}

/** Whole-number share with one decimal, null when there is nobody to count (never 0 of 0 = 0 %). */
export function share(part: number, total: number): number | null {
  return total > 0 ? Math.round((part / total) * 1000) / 10 : null;
}

/**
 * Hypertension control, controlled among eligible: null (the card's 'sin datos', a blank CSV cell)
 * when no eligible patient had a blood pressure in the 90 days, as glucose with no readings is. A
 * month without any reading is a month nobody measured, not one in which control collapsed to 0 %.
 */
export function hypertensionPercent(f: { eligible: number; measured: number; controlled: number }): number | null {
  return f.measured > 0 ? share(f.controlled, f.eligible) : null;
}

/**
 * Patients of each adherence band (contract/rules/adherence.ts) from due and done activities: each
 * entry is `patients` patients (1 when left out) who had that many due and done.
 */
export function adherenceDistribution(
  activePatients: number,
  counts: Array<{ due: number; done: number; patients?: number }>,
): { low: number; medium: number; good: number; none: number; total: number } {
  const bands = { low: 0, medium: 0, good: 0, none: 0 };
  let counted = 0;
  for (const c of counts) {
    const patients = c.patients ?? 1;
    bands[adherenceBand(adherencePercent(c.done, c.due))] += patients;
    counted += patients;
  }
  bands.none += Math.max(0, activePatients - counted);
  return { ...bands, total: activePatients };
}
