import { brokenRules } from '@vigia/contract/rules/alarms';
import { CHARTS, type AlarmRange } from '@vigia/contract/rules/charts';
import { formatWhen, localParts } from '@vigia/contract/rules/dates';
import type { Patient } from '../types';
import { formatReading } from './charts/format';

/**
 * What the patient opens the portal for (issue 50): the latest reading of each sign with the range
 * it is judged against, and what is coming next. Pure, so the words and the range check are tested
 * without a browser.
 */

export interface LatestRow {
  clinical_element: number;
  value: number;
  when: string;
}

export type RangeStatus = 'in' | 'out' | 'none';

export interface LatestReading {
  key: string;
  title: string;
  /** '128/84 mmHg'. */
  value: string;
  /** 'dd/mm/aaaa hh:mm' in the patient's zone. */
  when: string;
  /** 'Rango: 90–140 mmHg', or that no range is assigned. */
  range: string;
  status: RangeStatus;
  /** The status in words: never shown by colour alone. */
  statusText: string;
}

export const STATUS_TEXT: Record<RangeStatus, string> = {
  in: 'Dentro del rango',
  out: 'Fuera del rango',
  none: 'Sin rango asignado',
};

const end = (v: number) => formatReading(v);

/**
 * The range where no alarm rule of the element fires: the tightest minimum and maximum of its rules
 * (a reading outside it breaks at least one rule, D10). Null when the element has no rule.
 */
export function rangeOf(alarms: readonly AlarmRange[], element: number): { min: number; max: number } | null {
  const rules = alarms.filter((a) => Number(a.clinical_element ?? a.clinical_element_id) === element);
  if (!rules.length) return null;
  return {
    min: Math.max(...rules.map((r) => Math.min(r.minimum_condition, r.maximum_condition))),
    max: Math.min(...rules.map((r) => Math.max(r.minimum_condition, r.maximum_condition))),
  };
}

function isBroken(row: LatestRow, alarms: readonly AlarmRange[]): boolean {
  const rules = alarms
    .filter((a) => Number(a.clinical_element ?? a.clinical_element_id) === row.clinical_element)
    .map((a, i) => ({ ...a, id: a.id ?? i, clinical_element: row.clinical_element }));
  return brokenRules(row, rules).length > 0;
}

/**
 * One entry per chart that has a reading, in the charts' order. `latest` holds the newest reading
 * of each element (blood pressure: 3 and 4, shown together as systolic/diastolic).
 */
export function latestReadings(latest: readonly LatestRow[], alarms: readonly AlarmRange[], timeZone: string): LatestReading[] {
  const byElement = new Map(latest.map((r) => [r.clinical_element, r]));
  const out: LatestReading[] = [];
  for (const chart of CHARTS) {
    const rows = chart.elements.map((e) => byElement.get(e));
    if (!rows[0] || rows.some((r) => !r)) continue;
    const present = rows as LatestRow[];
    const ranges = chart.elements.map((e) => rangeOf(alarms, e));
    const hasRange = ranges.some((r) => r !== null);
    const status: RangeStatus = !hasRange ? 'none' : present.some((r) => isBroken(r, alarms)) ? 'out' : 'in';
    const rangeText = ranges.every((r) => r !== null)
      ? `Rango: ${ranges.map((r) => `${end(r!.min)}–${end(r!.max)}`).join(' / ')} ${chart.unit}`
      : hasRange
        ? `Rango: ${ranges.map((r) => (r ? `${end(r.min)}–${end(r.max)}` : 'sin rango')).join(' / ')} ${chart.unit}`
        : STATUS_TEXT.none;
    out.push({
      key: chart.key,
      title: chart.title,
      value: `${present.map((r) => end(r.value)).join('/')} ${chart.unit}`,
      when: formatWhen(present[0].when, timeZone),
      range: rangeText,
      status,
      statusText: STATUS_TEXT[status],
    });
  }
  return out;
}

const WEEKDAYS = ['domingo', 'lunes', 'martes', 'miércoles', 'jueves', 'viernes', 'sábado'];

/** 'Hoy', 'Mañana' or the weekday of the next of `days` (0 Sunday … 6 Saturday), from `today`'s weekday. */
export function nextDayText(days: readonly number[], today: number): string | null {
  for (let ahead = 0; ahead < 7; ahead++) {
    const day = (today + ahead) % 7;
    if (!days.includes(day)) continue;
    if (ahead === 0) return 'Hoy';
    if (ahead === 1) return 'Mañana';
    return `El ${WEEKDAYS[day]}`;
  }
  return null;
}

export interface NextActivity {
  key: string;
  what: string;
  when: string;
}

/** The orders in course, from the record (the patient reads no calendar): signs by their next day, medicines by their frequency. */
export function nextActivities(
  patient: Pick<Patient, 'vitals_prescription' | 'medications_prescription' | 'time_zone'>,
  now: Date,
): NextActivity[] {
  const today = localParts(now, patient.time_zone).weekday;
  const signs = patient.vitals_prescription
    .map((v) => ({ key: `vital-${v.id}`, what: `Tomar ${v.clinical_element_name ?? 'signo vital'}`, when: nextDayText(v.days, today) }))
    .filter((a): a is NextActivity => a.when !== null);
  const medicines = patient.medications_prescription.map((m) => ({
    key: `medicine-${m.id}`,
    what: m.medication ?? 'Medicamento',
    when: m.frecuency ?? 'Según la indicación',
  }));
  return [...signs, ...medicines];
}
