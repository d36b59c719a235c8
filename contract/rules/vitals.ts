/**
 * Vital-sign readings (D6, 03 §5 'Vitals'): the seven clinical elements with their units, codes
 * and plausible input bounds (from vitals-loinc.json), and the rules a reading must pass before it
 * is stored. Shared by the API (every ingestion path), the admin and the portal.
 */
import { MESSAGES } from './validation';

export interface ClinicalElement {
  id: 1 | 2 | 3 | 4 | 5 | 6 | 7;
  key: string;
  /** Short Spanish name used in charts and reports. */
  name: string;
  unit: string;
  loinc: string;
  ucum: string;
  /** Inclusive plausibility bounds: outside them the value is a typing or device error. */
  min: number;
  max: number;
}

export const CLINICAL_ELEMENTS: readonly ClinicalElement[] = [
  { id: 1, key: 'heart_rate', name: 'Frecuencia cardiaca', unit: 'lpm', loinc: '8867-4', ucum: '/min', min: 20, max: 250 },
  { id: 2, key: 'oxygen_saturation', name: 'Saturación de oxígeno', unit: '%', loinc: '59408-5', ucum: '%', min: 50, max: 100 },
  { id: 3, key: 'systolic_bp', name: 'Presión sistólica', unit: 'mmHg', loinc: '8480-6', ucum: 'mm[Hg]', min: 50, max: 300 },
  { id: 4, key: 'diastolic_bp', name: 'Presión diastólica', unit: 'mmHg', loinc: '8462-4', ucum: 'mm[Hg]', min: 20, max: 200 },
  { id: 5, key: 'body_weight', name: 'Peso', unit: 'kg', loinc: '29463-7', ucum: 'kg', min: 1, max: 500 },
  { id: 6, key: 'blood_glucose', name: 'Glucosa', unit: 'mg/dL', loinc: '2339-0', ucum: 'mg/dL', min: 10, max: 1000 },
  { id: 7, key: 'body_temperature', name: 'Temperatura', unit: '°C', loinc: '8310-5', ucum: 'Cel', min: 30, max: 45 },
];

/** The elements' ids by name, for rules and SQL that single one out (one fact: the table above). */
export const CLINICAL_ELEMENT = {
  heart_rate: 1,
  oxygen_saturation: 2,
  systolic_bp: 3,
  diastolic_bp: 4,
  body_weight: 5,
  blood_glucose: 6,
  body_temperature: 7,
} as const satisfies Record<string, ClinicalElement['id']>;

/** A reading is valid (0) until staff delete it with a reason (1). */
export const MEASUREMENT_STATUS = { valid: 0, deleted: 1 } as const;

/** The blood-pressure panel (systolic 3 + diastolic 4 as components). */
export const BLOOD_PRESSURE_PANEL_LOINC = '85354-9';
/** Code 0 is accepted as a legacy alias of 1 (D6). */
export const LEGACY_HEART_RATE = 0;

const BY_ID = new Map<number, ClinicalElement>(CLINICAL_ELEMENTS.map((e) => [e.id, e]));

export function clinicalElement(id: number): ClinicalElement | undefined {
  return BY_ID.get(id === LEGACY_HEART_RATE ? 1 : id);
}

/** Every number the rules below answer with, quoted once. */
export const VITALS_MESSAGES = {
  format: MESSAGES.vitals,
  required: MESSAGES.required,
  element: 'El elemento clínico no es válido. Use 1 a 7.',
  range: (e: ClinicalElement) => `El valor debe estar entre ${e.min} y ${e.max} ${e.unit}`,
  pressurePair: 'La presión arterial se registra con sistólica y diastólica juntas.',
  pressureOrder: 'La presión sistólica debe ser mayor que la diastólica.',
  future: 'La fecha de la medición no puede ser futura.',
  tooOld: 'La fecha de la medición no puede ser anterior al año 2000.',
} as const;

/**
 * A value as the spec's vitals rule reads it: a non-negative number with at most one decimal and
 * at most 5 characters (e.g. 120, 36.5, 100.5). Accepts numbers and numeric strings.
 */
export function validateVitalNumber(value: unknown): string | null {
  if (value === null || value === undefined || value === '') return VITALS_MESSAGES.required;
  const text = typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '') : typeof value === 'string' ? value.trim() : '';
  if (text.length > 5 || !/^[0-9]+(\.[0-9])?$/.test(text)) return VITALS_MESSAGES.format;
  return null;
}

/** The vitals rule plus the element's plausible bounds (inclusive). */
export function validateVitalValue(elementId: number, value: unknown): string | null {
  const element = clinicalElement(elementId);
  if (!element) return VITALS_MESSAGES.element;
  const format = validateVitalNumber(value);
  if (format) return format;
  const n = Number(value);
  return n < element.min || n > element.max ? VITALS_MESSAGES.range(element) : null;
}

/** One reading as callers send it: a single value, or a blood-pressure pair. */
export interface ReadingInput {
  clinical_element?: number | null;
  value?: unknown;
  systolic?: unknown;
  diastolic?: unknown;
  /** ISO date-time; absent means "now". */
  when?: string | null;
}

/** A reading that passed the rules, ready to store: blood pressure becomes two values (3 and 4). */
export interface ValidReading {
  when: Date;
  values: Array<{ clinical_element: number; value: number }>;
}

export interface ReadingError {
  field: string;
  message: string;
}

/** How far ahead of the server clock a device's clock may run before a reading counts as future. */
export const CLOCK_SKEW_MS = 5 * 60_000;
const EARLIEST = Date.UTC(2000, 0, 1);

const isPresent = (v: unknown) => v !== undefined && v !== null && v !== '';

/**
 * Checks one reading and normalises it: element 0 becomes 1, blood pressure (element 3, or a
 * body with systolic and diastolic) becomes rows 3 and 4 with the same `when`. `now` is injected.
 */
export function parseReading(input: ReadingInput, now: Date): { ok: ValidReading } | { error: ReadingError } {
  const isPressure =
    isPresent(input.systolic) || isPresent(input.diastolic) || input.clinical_element === 3 || input.clinical_element === 4;
  let when = now;
  if (isPresent(input.when)) {
    const t = Date.parse(String(input.when));
    if (Number.isNaN(t)) return { error: { field: 'when', message: 'La fecha y hora no es válida.' } };
    if (t > now.getTime() + CLOCK_SKEW_MS) return { error: { field: 'when', message: VITALS_MESSAGES.future } };
    if (t < EARLIEST) return { error: { field: 'when', message: VITALS_MESSAGES.tooOld } };
    when = new Date(t);
  }
  if (isPressure) {
    if (input.clinical_element === 4 || !isPresent(input.diastolic)) {
      return { error: { field: isPresent(input.diastolic) ? 'systolic' : 'diastolic', message: VITALS_MESSAGES.pressurePair } };
    }
    const systolic = isPresent(input.systolic) ? input.systolic : input.value;
    if (!isPresent(systolic)) return { error: { field: 'systolic', message: VITALS_MESSAGES.pressurePair } };
    const sysError = validateVitalValue(3, systolic);
    if (sysError) return { error: { field: 'systolic', message: sysError } };
    const diaError = validateVitalValue(4, input.diastolic);
    if (diaError) return { error: { field: 'diastolic', message: diaError } };
    if (Number(systolic) <= Number(input.diastolic)) return { error: { field: 'systolic', message: VITALS_MESSAGES.pressureOrder } };
    return {
      ok: {
        when,
        values: [
          { clinical_element: 3, value: Number(systolic) },
          { clinical_element: 4, value: Number(input.diastolic) },
        ],
      },
    };
  }
  if (!isPresent(input.clinical_element)) return { error: { field: 'clinical_element', message: VITALS_MESSAGES.required } };
  const element = clinicalElement(Number(input.clinical_element));
  if (!element || !Number.isInteger(Number(input.clinical_element)))
    return { error: { field: 'clinical_element', message: VITALS_MESSAGES.element } };
  const error = validateVitalValue(element.id, input.value);
  if (error) return { error: { field: 'value', message: error } };
  return { ok: { when, values: [{ clinical_element: element.id, value: Number(input.value) }] } };
}

/** The measurement-deletion reason: 15 to 140 characters inclusive (D15, 01 §5). */
export const DELETION_REASON_MIN = 15;
export const DELETION_REASON_MAX = 140;
export const DELETION_REASON_MESSAGE = 'Debe tener mínimo 15 caracteres y máximo 140';

export function validateDeletionReason(comment: string | null | undefined): string | null {
  const length = (comment ?? '').trim().length;
  return length >= DELETION_REASON_MIN && length <= DELETION_REASON_MAX ? null : DELETION_REASON_MESSAGE;
}
