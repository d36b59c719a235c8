/**
 * Alarm rules and alerts (02 §2.7–2.10, D6, D8, D10, D16) as pure functions shared by the API and
 * the admin: one place for the range check, the priority names and the entry length.
 */

import { CLINICAL_ELEMENTS, LEGACY_HEART_RATE } from './vitals';

/** 02 §3: 1 Alta, 2 Media, 3 Baja. */
export const PRIORITY_NAMES: Record<number, string> = { 1: 'Alta', 2: 'Media', 3: 'Baja' };
/** Dashboard bars (02 §2.12) and the metrics' keys. */
export const PRIORITY_KEYS: Record<number, 'high' | 'medium' | 'low'> = { 1: 'high', 2: 'medium', 3: 'low' };

/** D8. */
export const ALERT_TYPE_NAMES: Record<number, string> = {
  0: 'Medición fuera de rango',
  1: 'Cumplimiento de mediciones',
  2: 'Cumplimiento de medicación',
  3: 'Alerta del asistente IA',
};
export const ALERT_STATUS = { open: 1, closed: 2 } as const;
/** An alarm rule is written 'Activa' (1); the contract has no other value. */
export const ALARM_STATUS = { active: 1 } as const;
/** 02 §3: status 1 is 'Activa'; any other value counts as closed. */
export const alertStatusName = (status: number) => (status === ALERT_STATUS.open ? 'Activa' : 'Cerrada');
export const CLOSE_TYPE_NAMES: Record<string, string> = { true_alert: 'Alerta verdadera', false_alert: 'Alerta falsa' };

/** D6: names and units of the clinical elements, from the one table in vitals.ts; 0 is a legacy alias of 1. */
export const CLINICAL_ELEMENT_NAMES: Record<number, string> = Object.fromEntries(CLINICAL_ELEMENTS.map((e) => [e.id, e.name]));
export const CLINICAL_ELEMENT_UNITS: Record<number, string> = Object.fromEntries(CLINICAL_ELEMENTS.map((e) => [e.id, e.unit]));

export function canonicalElement(code: number): number {
  return code === LEGACY_HEART_RATE ? 1 : code;
}
export const elementName = (code: number | null | undefined) =>
  code == null ? '' : (CLINICAL_ELEMENT_NAMES[canonicalElement(code)] ?? '');
export const elementUnit = (code: number | null | undefined) =>
  code == null ? '' : (CLINICAL_ELEMENT_UNITS[canonicalElement(code)] ?? '');

export const RANGE_MESSAGE = 'Asegúrese de que el valor inicial sea menor al valor final.';
export const ENTRY_MIN_LENGTH = 10;
export const ENTRY_MESSAGE = 'Debe tener mínimo 10 caracteres';

/** D16: the minimum must not exceed the maximum. */
export function validateRange(minimum: number | null | undefined, maximum: number | null | undefined): string | null {
  if (minimum == null || maximum == null) return null;
  return minimum > maximum ? RANGE_MESSAGE : null;
}

/** 02 §5: an entry needs at least 10 characters (surrounding spaces do not count). */
export function validateEntry(description: string | null | undefined): string | null {
  return (description ?? '').trim().length >= ENTRY_MIN_LENGTH ? null : ENTRY_MESSAGE;
}

/** D10: equal to a bound is in range. */
export function isOutOfRange(value: number, minimum: number, maximum: number): boolean {
  return value < minimum || value > maximum;
}

export interface RuleForCheck {
  id: number;
  clinical_element: number;
  minimum_condition: number;
  maximum_condition: number;
}

/**
 * The rule elements readings of `elements` can break (brokenRules: 0 = 1), sorted: what the
 * ingestion reads of a patient's rules, instead of all of them (issue 52).
 */
export function ruleElements(elements: readonly number[]): number[] {
  const out = new Set<number>();
  for (const e of elements) {
    const c = canonicalElement(e);
    out.add(c);
    if (c === canonicalElement(LEGACY_HEART_RATE)) out.add(LEGACY_HEART_RATE);
  }
  return [...out].sort((a, b) => a - b);
}

/** Rules a reading breaks: same element (0 = 1) and a value outside [min, max]. */
export function brokenRules<R extends RuleForCheck>(reading: { clinical_element: number; value: number }, rules: R[]): R[] {
  const element = canonicalElement(reading.clinical_element);
  return rules.filter(
    (r) => canonicalElement(r.clinical_element) === element && isOutOfRange(reading.value, r.minimum_condition, r.maximum_condition),
  );
}

/** 02 §2.8: time an alert has been open, in whole days, hours and minutes. */
export function elapsedParts(from: Date, now: Date): { days: number; hours: number; minutes: number } {
  const total = Math.max(0, Math.floor((now.getTime() - from.getTime()) / 60_000));
  return { days: Math.floor(total / 1440), hours: Math.floor((total % 1440) / 60), minutes: total % 60 };
}

export function formatElapsed(from: Date, now: Date): string {
  const { days, hours, minutes } = elapsedParts(from, now);
  return `${days} ${days === 1 ? 'día' : 'días'}, ${hours} ${hours === 1 ? 'hora' : 'horas'} y ${minutes} ${minutes === 1 ? 'minuto' : 'minutos'}`;
}
