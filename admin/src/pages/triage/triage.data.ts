import { elementName } from '@vigia/contract/rules/alarms';
import { formatWhen } from '@vigia/contract/rules/dates';
import { TRIAGE_FIGURES, TRIAGE_FLAG_DEFS, triageSettingBounds, type TriageSettingKey } from '@vigia/contract/rules/triage';
import { contractDoc } from '../../crud/contract-doc';

/** A figure as the row shows it: Spanish decimal comma, an instant in the staff's zone, an element by name; '—' when there is none. */
export function formatFigure(key: string, v: number | null, timeZone: string): string {
  if (v == null) return '—';
  const kind = TRIAGE_FIGURES[key]?.kind;
  if (kind === 'when') return formatWhen(new Date(v), timeZone);
  if (kind === 'element') return elementName(v);
  return v.toLocaleString('es-CO', { maximumFractionDigits: 1 });
}

/** What a figure is called on the expanded row. */
export const figureName = (key: string) => TRIAGE_FIGURES[key]?.label ?? key;

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

/** The weights, named by what they add points for, in the order of the flag table. */
export const WEIGHT_FIELDS = TRIAGE_FLAG_DEFS.flatMap((d) => d.weights).map((w) => ({
  key: w.key,
  label: w.label,
  ...BOUNDS.weights[w.key],
}));
