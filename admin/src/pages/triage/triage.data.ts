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
