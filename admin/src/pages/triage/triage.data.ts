import { triageSettingBounds, type TriageSettingKey, type TriageWeights } from '@vigia/contract/rules/triage';
import { contractDoc } from '../../crud/contract-doc';

/** What each figure behind a flag is called on the expanded row ('Priorización', issue 21). */
export const FIGURE_NAMES: Record<string, string> = {
  high: 'Alta',
  medium: 'Media',
  low: 'Baja',
  readings: 'Lecturas',
  out_of_range: 'Fuera de rango',
  percent: 'Porcentaje (%)',
  worst: 'Peor valor',
  worst_diastolic: 'Diastólica del peor valor',
  previous_percent: 'En rango, ventana anterior (%)',
  drop: 'Caída (puntos)',
  minimum: 'Mínimo esperado',
  gain: 'Aumento (kg)',
  from: 'Desde (kg)',
  to: 'Hasta (kg)',
  days: 'Días sin lecturas',
  missed: 'No realizadas',
};

/** A figure as the row shows it: Spanish decimal comma, '—' when there is none. */
export const formatFigure = (v: number | null) => (v == null ? '—' : v.toLocaleString('es-CO', { maximumFractionDigits: 1 }));

/** The limits of each threshold and weight, as the contract gives them (the API refuses anything outside). */
const BOUNDS = triageSettingBounds(contractDoc);

/** The settings form: each threshold with its label and unit, in the order docs/triage.md lists them. */
const SETTINGS: Array<{ key: TriageSettingKey; label: string; unit: string; step?: number }> = [
  { key: 'window_days', label: 'Ventana', unit: 'días' },
  { key: 'glucose_low', label: 'Glucosa: límite inferior del rango', unit: 'mg/dL' },
  { key: 'glucose_high', label: 'Glucosa: límite superior del rango', unit: 'mg/dL' },
  { key: 'glucose_very_low', label: 'Glucosa: hipoglucemia de nivel 2', unit: 'mg/dL' },
  { key: 'tir_min_percent', label: 'Glucosa: tiempo en rango mínimo', unit: '%' },
  { key: 'below_low_max_percent', label: 'Glucosa: máximo bajo el límite inferior', unit: '%', step: 0.5 },
  { key: 'below_very_low_max_percent', label: 'Glucosa: máximo bajo la hipoglucemia de nivel 2', unit: '%', step: 0.5 },
  { key: 'tir_drop_points', label: 'Glucosa: caída del tiempo en rango', unit: 'puntos' },
  { key: 'glucose_min_readings', label: 'Glucosa: lecturas mínimas en la ventana', unit: 'lecturas' },
  { key: 'systolic_max', label: 'Presión controlada bajo (sistólica)', unit: 'mmHg' },
  { key: 'diastolic_max', label: 'Presión controlada bajo (diastólica)', unit: 'mmHg' },
  { key: 'spo2_min', label: 'Saturación de oxígeno mínima', unit: '%' },
  { key: 'temperature_max', label: 'Temperatura desde', unit: '°C', step: 0.1 },
  { key: 'out_of_range_percent', label: 'Lecturas fuera de rango: más de', unit: '%' },
  { key: 'weight_gain_kg', label: 'Aumento de peso', unit: 'kg', step: 0.1 },
  { key: 'weight_gain_days', label: 'Aumento de peso en', unit: 'días' },
  { key: 'no_reading_days', label: 'Sin lecturas con orden activa', unit: 'días' },
];
export const SETTING_FIELDS = SETTINGS.map((f) => ({ ...f, ...BOUNDS.settings[f.key] }));

/** The weights, named by what they add points for. */
const WEIGHTS: Array<{ key: keyof TriageWeights; label: string }> = [
  { key: 'open_alert_high', label: 'Cada alerta abierta de prioridad alta' },
  { key: 'open_alert_medium', label: 'Cada alerta abierta de prioridad media' },
  { key: 'open_alert_low', label: 'Cada alerta abierta de prioridad baja' },
  { key: 'glucose_below_54', label: 'Glucosa bajo 54 mg/dL' },
  { key: 'glucose_below_70', label: 'Glucosa bajo 70 mg/dL' },
  { key: 'glucose_tir_low', label: 'Poco tiempo en rango' },
  { key: 'glucose_tir_drop', label: 'Caída del tiempo en rango' },
  { key: 'glucose_little_data', label: 'Glucosa: pocos datos' },
  { key: 'out_of_range', label: 'Cada signo vital fuera de rango' },
  { key: 'weight_gain', label: 'Aumento de peso' },
  { key: 'no_readings', label: 'Sin lecturas con orden activa' },
  { key: 'adherence_low', label: 'Cumplimiento bajo' },
  { key: 'missed_medication', label: 'Medicación no tomada' },
];
export const WEIGHT_FIELDS = WEIGHTS.map((f) => ({ ...f, ...BOUNDS.weights[f.key] }));
