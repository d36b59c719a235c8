/**
 * 'Priorización' (issue 21): the flags a patient's last 14 days can raise, their defaults and where
 * each default comes from (docs/triage.md), and the patient-page tab that explains each flag. The
 * API computes the flags (api/src/modules/triage); the staff app filters and links by them.
 */
import type { components } from '../openapi';
import { findPropertySchema, type OpenApiDocument } from './schema';
import { CLINICAL_ELEMENT } from './vitals';

type Schemas = components['schemas'];
export type TriageFlagCode = Schemas['TriageFlagCode'];
/** A client's triage settings (clients.triage_settings); what it leaves out takes the default. */
export type TriageSettings = Schemas['TriageSettings'];
/** Points a flag adds to the score; open alerts count per alert and priority. */
export type TriageWeights = TriageSettings['weights'];
export type TriageTab = Schemas['TriageFlag']['tab'];

/** How the staff app shows a figure: a number, an instant (ms since the epoch) or a clinical element's id. */
export type TriageFigureKind = 'number' | 'when' | 'element';

/**
 * One flag: its code (the contract's TriageFlagCode), its name in the filter, the patient-page tab
 * that explains it, the weights its points come from (with their label in the settings drawer and
 * their default) and what each figure behind it is called. The API, the settings drawer, the list
 * and docs/triage.md read this table; a new flag is its rule plus one row at the end (a row's
 * position is its bit in triage_summaries.flag_mask, so rows are never reordered).
 */
export interface TriageFlagDef {
  code: TriageFlagCode;
  name: string;
  tab: TriageTab;
  weights: ReadonlyArray<{ key: keyof TriageWeights; label: string; default: number }>;
  /** One flag per vital sign: where the flag is shown, its name is followed by the sign's. */
  perElement?: boolean;
  figures: Readonly<Record<string, { label: string; kind?: TriageFigureKind }>>;
}

const PERCENT = { label: 'Porcentaje (%)' };
const READINGS = { label: 'Lecturas' };
const RANGE_FIGURES = {
  readings: READINGS,
  out_of_range: { label: 'Fuera de rango' },
  percent: PERCENT,
  worst: { label: 'Peor valor' },
  worst_diastolic: { label: 'Diastólica del peor valor' },
};

export const TRIAGE_FLAG_DEFS: readonly TriageFlagDef[] = [
  {
    code: 'open_alerts',
    name: 'Alertas abiertas',
    tab: 'alerts',
    weights: [
      { key: 'open_alert_high', label: 'Cada alerta abierta de prioridad alta', default: 30 },
      { key: 'open_alert_medium', label: 'Cada alerta abierta de prioridad media', default: 20 },
      { key: 'open_alert_low', label: 'Cada alerta abierta de prioridad baja', default: 10 },
    ],
    figures: { high: { label: 'Alta' }, medium: { label: 'Media' }, low: { label: 'Baja' } },
  },
  {
    code: 'out_of_range',
    name: 'Lecturas fuera de rango',
    tab: 'signs',
    perElement: true,
    weights: [{ key: 'out_of_range', label: 'Cada signo vital fuera de rango', default: 20 }],
    figures: RANGE_FIGURES,
  },
  {
    code: 'glucose_tir_low',
    name: 'Glucosa: poco tiempo en rango',
    tab: 'signs',
    weights: [{ key: 'glucose_tir_low', label: 'Poco tiempo en rango', default: 25 }],
    figures: { readings: READINGS, percent: PERCENT },
  },
  {
    code: 'glucose_below_70',
    name: 'Glucosa: lecturas bajo 70 mg/dL',
    tab: 'signs',
    weights: [{ key: 'glucose_below_70', label: 'Glucosa bajo 70 mg/dL', default: 30 }],
    figures: { readings: READINGS, percent: PERCENT },
  },
  {
    code: 'glucose_below_54',
    name: 'Glucosa: lecturas bajo 54 mg/dL',
    tab: 'signs',
    weights: [{ key: 'glucose_below_54', label: 'Glucosa bajo 54 mg/dL', default: 40 }],
    figures: { readings: READINGS, percent: PERCENT },
  },
  {
    code: 'glucose_tir_drop',
    name: 'Glucosa: caída del tiempo en rango',
    tab: 'signs',
    weights: [{ key: 'glucose_tir_drop', label: 'Caída del tiempo en rango', default: 20 }],
    figures: { previous_percent: { label: 'En rango, ventana anterior (%)' }, percent: PERCENT, drop: { label: 'Caída (puntos)' } },
  },
  {
    code: 'glucose_little_data',
    name: 'Glucosa: pocos datos',
    tab: 'signs',
    weights: [{ key: 'glucose_little_data', label: 'Glucosa: pocos datos', default: 10 }],
    figures: { readings: READINGS, minimum: { label: 'Mínimo esperado' } },
  },
  {
    code: 'weight_gain',
    name: 'Aumento de peso',
    tab: 'signs',
    weights: [{ key: 'weight_gain', label: 'Aumento de peso', default: 30 }],
    figures: { gain: { label: 'Aumento (kg)' }, from: { label: 'Desde (kg)' }, to: { label: 'Hasta (kg)' } },
  },
  {
    code: 'no_readings',
    name: 'Sin lecturas con orden activa',
    tab: 'orders',
    weights: [{ key: 'no_readings', label: 'Sin lecturas con orden activa', default: 15 }],
    figures: { days: { label: 'Días sin lecturas' } },
  },
  {
    code: 'adherence_low',
    name: 'Cumplimiento bajo',
    tab: 'activities',
    weights: [{ key: 'adherence_low', label: 'Cumplimiento bajo', default: 15 }],
    figures: { percent: PERCENT },
  },
  {
    code: 'missed_medication',
    name: 'Medicación no tomada',
    tab: 'activities',
    weights: [{ key: 'missed_medication', label: 'Medicación no tomada', default: 10 }],
    figures: { missed: { label: 'No realizadas' } },
  },
  {
    code: 'news2_critical',
    name: 'Valor crítico (NEWS2)',
    tab: 'signs',
    perElement: true,
    weights: [{ key: 'news2_critical', label: 'Cada signo vital con un valor crítico (NEWS2)', default: 30 }],
    figures: {
      element: { label: 'Signo vital', kind: 'element' },
      value: { label: 'Valor más extremo' },
      when: { label: 'Cuándo', kind: 'when' },
      readings: { label: 'Lecturas críticas' },
    },
  },
  {
    // Its points are a share of out_of_range's weight (docs/triage.md): no weight of its own.
    code: 'out_of_range_few',
    name: 'Algunas lecturas fuera de rango',
    tab: 'signs',
    perElement: true,
    weights: [],
    figures: { ...RANGE_FIGURES },
  },
];

export const TRIAGE_FLAGS: readonly TriageFlagCode[] = TRIAGE_FLAG_DEFS.map((d) => d.code);

const DEF_OF = new Map<TriageFlagCode, TriageFlagDef>(TRIAGE_FLAG_DEFS.map((d) => [d.code, d]));
export const triageFlagDef = (code: TriageFlagCode): TriageFlagDef => DEF_OF.get(code)!;

const byCode = <T>(pick: (d: TriageFlagDef) => T) =>
  Object.fromEntries(TRIAGE_FLAG_DEFS.map((d) => [d.code, pick(d)])) as Record<TriageFlagCode, T>;

/** The flag's name in the filter. */
export const TRIAGE_FLAG_NAMES = byCode((d) => d.name);
/** The patient page's tab (`/patients/:id?tab=`) that shows what the flag is about. */
export const TRIAGE_FLAG_TABS = byCode((d) => d.tab);

/** The flag's bit in triage_summaries.flag_mask: its row's position in TRIAGE_FLAG_DEFS. */
export const triageFlagBit = (code: TriageFlagCode): number => 1 << TRIAGE_FLAGS.indexOf(code);

/** What a figure is called and how it is shown, whatever flag it belongs to. */
export const TRIAGE_FIGURES: Readonly<Record<string, { label: string; kind?: TriageFigureKind }>> = Object.assign(
  {},
  ...TRIAGE_FLAG_DEFS.map((d) => d.figures),
);

/**
 * The levels NEWS2 (Royal College of Physicians, 2017) scores 3 on their own, a single reading
 * being enough: SpO2 (scale 1) 91 % or less, systolic 90 mmHg or less or 220 or more, heart rate 40/min
 * or less or 131 or more, temperature 35.0 °C or less. Temperature 39.1 or more scores 2 only.
 */
export const NEWS2_SCORE_3: ReadonlyArray<{ element: number; atMost?: number; atLeast?: number }> = [
  { element: CLINICAL_ELEMENT.oxygen_saturation, atMost: 91 },
  { element: CLINICAL_ELEMENT.systolic_bp, atMost: 90, atLeast: 220 },
  { element: CLINICAL_ELEMENT.heart_rate, atMost: 40, atLeast: 131 },
  { element: CLINICAL_ELEMENT.body_temperature, atMost: 35 },
];

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
  weights: Object.fromEntries(TRIAGE_FLAG_DEFS.flatMap((d) => d.weights.map((w) => [w.key, w.default]))) as TriageWeights,
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
/** A setting's limits and the contract's message (x-message) for a value outside them. */
export type TriageBounds = { min: number; max: number; message: string; integer: boolean };

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
      const { minimum, maximum, 'x-message': message, type } = findPropertySchema(doc, input, path(key)) ?? {};
      if (minimum === undefined || maximum === undefined) throw new Error(`El contrato no da los límites de ${key} en TriageSettingsInput`);
      const integer = type === 'integer';
      out[key] = { min: minimum, max: maximum, message: message ?? `Debe estar entre ${minimum} y ${maximum}`, integer };
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
