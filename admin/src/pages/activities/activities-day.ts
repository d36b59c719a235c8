import { ACTIVITY_STATUS_NAMES, WEEKDAYS } from '@vigia/contract/rules/activities';
import { addDays, weekdayOf } from '@vigia/contract/rules/dates';

/** 'Hoy', 'Ayer' or 'Mañana' for a day next to `today` (both 'YYYY-MM-DD' in the client's zone), else null. */
export function relativeDay(date: string, today: string): string | null {
  if (date === today) return 'Hoy';
  if (date === addDays(today, -1)) return 'Ayer';
  if (date === addDays(today, 1)) return 'Mañana';
  return null;
}

/** 'Sábado 21/11/2026', with ' · Hoy' (Ayer, Mañana) next to today: the title of the worklist's day. */
export function dayTitle(date: string, today: string): string {
  const [y, m, d] = date.split('-');
  const relative = relativeDay(date, today);
  return `${WEEKDAYS[weekdayOf(date)]} ${d}/${m}/${y}${relative ? ` · ${relative}` : ''}`;
}

/** The 'Estado' filter's choices: D11's activity statuses in their order. */
export const ACTIVITY_STATUS_OPTIONS = Object.entries(ACTIVITY_STATUS_NAMES).map(([value, label]) => ({ value: Number(value), label }));

/** What an activity is about: the medicine of a medication order, else the vital sign. */
export function activitySubject(a: {
  order_type: number;
  medicine_name?: string | null;
  clinical_element_name?: string | null;
}): string | null {
  return (a.order_type === 1 ? a.medicine_name : a.clinical_element_name) ?? null;
}
