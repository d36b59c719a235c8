import {
  DOSE_AMOUNTS,
  HOUR_SLOTS,
  MEDICATION_UNITS,
  ORDER_ELEMENT_NAMES,
  ORDER_ELEMENTS,
  WEEKDAYS,
  minutesOf,
} from '@vigia/contract/rules/activities';
import { localParts, localToUtc } from '@vigia/contract/rules/dates';

/** 02 §4: 0 grey, 1 primary, 2 yellow, 3 red, Completada green (antd Tag colours). */
export const ORDER_STATUS_COLORS: Record<number, string> = { 0: 'default', 1: 'blue', 2: 'gold', 3: 'red', 4: 'green' };
/**
 * 02 §2.13: 0 blue, 1 dark yellow, 2 green, 3 red, 4 grey, 5 black, 6 purple; each dark enough for
 * the white text of its tag and calendar event (4.5:1, issue 19; theme.test.ts measures them).
 */
export const ACTIVITY_STATUS_COLORS: Record<number, string> = {
  0: '#0958d9',
  1: '#946c00',
  2: '#237804',
  3: '#cf1322',
  4: '#6b6b6b',
  5: '#000000',
  6: '#722ed1',
};

export const elementOptions = ORDER_ELEMENTS.map((id) => ({ value: id, label: ORDER_ELEMENT_NAMES[id] }));
export const unitOptions = Object.entries(MEDICATION_UNITS).map(([value, label]) => ({ value: Number(value), label }));
export const amountOptions = DOSE_AMOUNTS.map((a) => ({ value: a, label: a }));
export const timeUnitOptions = [
  { value: 0, label: 'Horas' },
  { value: 1, label: 'Días' },
];
export const frequencyTypeOptions = [
  { value: 0, label: 'Diario' },
  { value: 1, label: 'Semanal' },
];
export const hourOptions = HOUR_SLOTS.map((h) => ({ value: h, label: h }));
export const weekdayOptions = WEEKDAYS.map((label, value) => ({ value, label }));
export const SHORT_DAYS = ['Dom', 'Lun', 'Mar', 'Mié', 'Jue', 'Vie', 'Sáb'];

/** dd/mm/aaaa HH:MM in the patient's zone (D5). */
export function patientDateTime(iso: string | null | undefined, timeZone: string): string | null {
  if (!iso) return null;
  const p = localParts(new Date(iso), timeZone);
  const [y, m, d] = p.date.split('-');
  return `${d}/${m}/${y} ${p.time}`;
}

/** A date ('YYYY-MM-DD') and hour ('HH:MM') typed in the patient's zone, as the UTC instant the API stores. */
export function patientInstant(date: string, hour: string, timeZone: string): string {
  return localToUtc(date, minutesOf(hour), timeZone).toISOString();
}

export const todayIn = (timeZone: string) => localParts(new Date(), timeZone).date;
