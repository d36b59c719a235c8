/** Periods offered for the portal's downloads; the first is the default (one month back, as 01 §9 and 03 §9 say). */
export const DOWNLOAD_PERIODS = [
  { days: 30, label: 'Último mes' },
  { days: 90, label: 'Últimos 3 meses' },
  { days: 365, label: 'Último año' },
] as const;

/** ISO bounds from `days` ago until now. */
export function downloadRange(now: Date, days: number): { start_at: string; end_at: string } {
  return { start_at: new Date(now.getTime() - days * 86_400_000).toISOString(), end_at: now.toISOString() };
}
