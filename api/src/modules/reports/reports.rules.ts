import { validateDate } from '@vigia/contract/rules/validation';

/** 03 §3 'Vital sign groups': the clinical elements (D6) each group reports, in column order. */
export const VITAL_SIGN_GROUPS = {
  cardiovascular: [1, 3, 4],
  oxygenation: [2],
  weight: [5],
  glucose: [6],
  temperature: [7],
} as const;
export type VitalSignGroup = keyof typeof VITAL_SIGN_GROUPS;

export const REPORT_MESSAGES = {
  group: 'Seleccione un grupo de signos vitales',
  dates: 'Seleccione al menos una fecha de inicio o de fin.',
  order: 'La fecha final debe ser posterior a la inicial.',
} as const;

export function isVitalSignGroup(value: unknown): value is VitalSignGroup {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(VITAL_SIGN_GROUPS, value);
}

/** The status-change report needs at least a start or an end date (03 §5); end before start is refused. */
export function validateStatusChangeRange(start: string | undefined, end: string | undefined): { field: string; message: string } | null {
  if (!start && !end) return { field: 'start_date', message: REPORT_MESSAGES.dates };
  for (const [field, value] of [
    ['start_date', start],
    ['end_date', end],
  ] as const) {
    const msg = value ? validateDate(value, 'any', value) : null;
    if (msg) return { field, message: msg };
  }
  if (start && end && end < start) return { field: 'end_date', message: REPORT_MESSAGES.order };
  return null;
}
