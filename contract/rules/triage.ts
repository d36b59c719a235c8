/**
 * 'Priorización' (issue 21): the flags a patient's last 14 days can raise, their defaults and where
 * each default comes from (docs/triage.md), and the patient-page tab that explains each flag. The
 * API computes the flags (api/src/modules/triage); the staff app filters and links by them.
 */
import { findPropertySchema, type OpenApiDocument } from './schema';

export const TRIAGE_FLAGS = [
  'open_alerts',
  'out_of_range',
  'glucose_tir_low',
  'glucose_below_70',
  'glucose_below_54',
  'glucose_tir_drop',
  'glucose_little_data',
  'weight_gain',
  'no_readings',
  'adherence_low',
  'missed_medication',
] as const;
export type TriageFlagCode = (typeof TRIAGE_FLAGS)[number];

/** The flag's name in the filter and its bit in triage_summaries.flag_mask (its position above). */
export const TRIAGE_FLAG_NAMES: Record<TriageFlagCode, string> = {
  open_alerts: 'Alertas abiertas',
  out_of_range: 'Lecturas fuera de rango',
  glucose_tir_low: 'Glucosa: poco tiempo en rango',
  glucose_below_70: 'Glucosa: lecturas bajo 70 mg/dL',
  glucose_below_54: 'Glucosa: lecturas bajo 54 mg/dL',
  glucose_tir_drop: 'Glucosa: caída del tiempo en rango',
  glucose_little_data: 'Glucosa: pocos datos',
  weight_gain: 'Aumento de peso',
  no_readings: 'Sin lecturas con orden activa',
  adherence_low: 'Cumplimiento bajo',
  missed_medication: 'Medicación no tomada',
};

/** The patient page's tab (`/patients/:id?tab=`) that shows what the flag is about. */
export const TRIAGE_FLAG_TABS: Record<TriageFlagCode, 'alerts' | 'signs' | 'orders' | 'activities'> = {
  open_alerts: 'alerts',
  out_of_range: 'signs',
  glucose_tir_low: 'signs',
  glucose_below_70: 'signs',
  glucose_below_54: 'signs',
  glucose_tir_drop: 'signs',
  glucose_little_data: 'signs',
  weight_gain: 'signs',
  no_readings: 'orders',
  adherence_low: 'activities',
  missed_medication: 'activities',
};

export const triageFlagBit = (code: TriageFlagCode): number => 1 << TRIAGE_FLAGS.indexOf(code);

/** Points a flag adds to the score; open alerts count per alert and priority. */
export interface TriageWeights {
  open_alert_high: number;
  open_alert_medium: number;
  open_alert_low: number;
  out_of_range: number;
  glucose_tir_low: number;
  glucose_below_70: number;
  glucose_below_54: number;
  glucose_tir_drop: number;
  glucose_little_data: number;
  weight_gain: number;
  no_readings: number;
  adherence_low: number;
  missed_medication: number;
}

/** A client's triage settings (clients.triage_settings); what it leaves out takes the default. */
export interface TriageSettings {
  /** Days of readings the flags look at (TIDE: the previous 14 days). */
  window_days: number;
  /** Glucose target range, mg/dL (TIDE, international consensus on time in range: 70–180). */
  glucose_low: number;
  glucose_high: number;
  /** Level 2 hypoglycaemia, mg/dL (consensus: below 54). */
  glucose_very_low: number;
  /** TIDE: time in range under 65 %. */
  tir_min_percent: number;
  /** TIDE: time below 70 mg/dL over 4 %. */
  below_low_max_percent: number;
  /** TIDE: time below 54 mg/dL over 1 %. */
  below_very_low_max_percent: number;
  /** TIDE: time in range down by 15 points or more against the previous window. */
  tir_drop_points: number;
  /** Too little data: fewer glucose readings than this in the window (TIDE: CGM worn under 50 % of the time). */
  glucose_min_readings: number;
  /** HEARTS360: controlled under 140/90 mmHg. */
  systolic_max: number;
  diastolic_max: number;
  /** SpO2 under 92 % is out of range. */
  spo2_min: number;
  /** Temperature of 38 °C or more is out of range. */
  temperature_max: number;
  /** A vital sign is flagged when more than this share of its readings is out of range. */
  out_of_range_percent: number;
  /** Weight up this many kg within `weight_gain_days` (heart-failure guidance: 2 kg in 3 days). */
  weight_gain_kg: number;
  weight_gain_days: number;
  /** No reading for this many days while a vital-sign order is running. */
  no_reading_days: number;
  weights: TriageWeights;
}

export const TRIAGE_DEFAULTS: TriageSettings = {
  window_days: 14,
  glucose_low: 70,
  glucose_high: 180,
  glucose_very_low: 54,
  tir_min_percent: 65,
  below_low_max_percent: 4,
  below_very_low_max_percent: 1,
  tir_drop_points: 15,
  glucose_min_readings: 14,
  systolic_max: 140,
  diastolic_max: 90,
  spo2_min: 92,
  temperature_max: 38,
  out_of_range_percent: 25,
  weight_gain_kg: 2,
  weight_gain_days: 3,
  no_reading_days: 3,
  weights: {
    open_alert_high: 30,
    open_alert_medium: 20,
    open_alert_low: 10,
    out_of_range: 20,
    glucose_tir_low: 25,
    glucose_below_70: 30,
    glucose_below_54: 40,
    glucose_tir_drop: 20,
    glucose_little_data: 10,
    weight_gain: 30,
    no_readings: 15,
    adherence_low: 15,
    missed_medication: 10,
  },
};

/** The stored settings over the defaults: a client that saved some keeps the defaults of the rest. */
export function triageSettingsOf(stored: unknown): TriageSettings {
  const s = (stored && typeof stored === 'object' ? stored : {}) as Partial<TriageSettings>;
  const pick = <T extends object>(defaults: T, given: Partial<T> | undefined): T => {
    const out = { ...defaults };
    for (const key of Object.keys(defaults) as Array<keyof T>) {
      const v = given?.[key];
      if (typeof v === 'number' && Number.isFinite(v)) out[key] = v as T[keyof T];
    }
    return out;
  };
  return { ...pick(TRIAGE_DEFAULTS, s), weights: pick(TRIAGE_DEFAULTS.weights, s.weights) };
}

/** A threshold of the settings (every number of TriageSettings but the weights). */
export type TriageSettingKey = Exclude<keyof TriageSettings, 'weights'>;
export type TriageBounds = { min: number; max: number };

/**
 * The limits openapi.yaml's TriageSettingsInput puts on each threshold and weight, which the API
 * enforces: the settings form reads them here instead of writing the numbers again. A setting the
 * contract leaves without a minimum and a maximum is an error in the contract.
 */
export function triageSettingBounds(doc: OpenApiDocument): {
  settings: Record<TriageSettingKey, TriageBounds>;
  weights: Record<keyof TriageWeights, TriageBounds>;
} {
  const input = { $ref: '#/components/schemas/TriageSettingsInput' };
  const boundsOf = <K extends string>(keys: K[], path: (key: K) => string[]) => {
    const out = {} as Record<K, TriageBounds>;
    for (const key of keys) {
      const { minimum, maximum } = findPropertySchema(doc, input, path(key)) ?? {};
      if (minimum === undefined || maximum === undefined) throw new Error(`El contrato no da los límites de ${key} en TriageSettingsInput`);
      out[key] = { min: minimum, max: maximum };
    }
    return out;
  };
  const { weights, ...thresholds } = TRIAGE_DEFAULTS;
  return {
    settings: boundsOf(Object.keys(thresholds) as TriageSettingKey[], (key) => [key]),
    weights: boundsOf(Object.keys(weights) as Array<keyof TriageWeights>, (key) => ['weights', key]),
  };
}

/** The tag that puts a patient in the hypertension indicator (with a blood-pressure order), as tags are stored (upper case). */
export const HYPERTENSION_TAGS = ['HIPERTENSIÓN', 'HIPERTENSION'] as const;
