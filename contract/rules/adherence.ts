/**
 * Adherence ('Tu cumplimiento', 03 §2, bands at 50 and 70 per 03 §4 and §9): the share of a patient's
 * activities that were due and got done. The server computes it from real activities; the portal
 * and the patient page only show it.
 */

export const ADHERENCE_WINDOW_DAYS = 30;
export const ADHERENCE_BANDS = { low: 50, good: 70 } as const;

export type AdherenceBand = 'none' | 'low' | 'medium' | 'good';

/** Whole percentage of completed over due activities; null when nothing was due (no orders yet). */
export function adherencePercent(completed: number, due: number): number | null {
  if (!Number.isFinite(due) || due <= 0) return null;
  const done = Math.min(Math.max(completed, 0), due);
  return Math.round((done / due) * 100);
}

/** 03 §4: 50 or less low (red), above 50 up to 70 medium (amber), above 70 good (green). */
export function adherenceBand(percent: number | null | undefined): AdherenceBand {
  if (percent === null || percent === undefined || !Number.isFinite(percent)) return 'none';
  if (percent <= ADHERENCE_BANDS.low) return 'low';
  if (percent <= ADHERENCE_BANDS.good) return 'medium';
  return 'good';
}

export const ADHERENCE_TEXT: Record<AdherenceBand, string> = {
  none: 'Aún no tiene actividades programadas en los últimos 30 días.',
  low: 'Su cumplimiento es bajo: intente registrar sus mediciones y tomar sus medicamentos a la hora indicada.',
  medium: 'Va por buen camino; aún puede mejorar su cumplimiento.',
  good: '¡Excelente! Está cumpliendo con su plan de cuidado.',
};
