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

/** The file name a `Content-Disposition` header gives (its UTF-8 `filename*` first, RFC 6266), or null. */
export function fileNameOf(header: string | null): string | null {
  if (!header) return null;
  const extended = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(header);
  if (extended) {
    try {
      return decodeURIComponent(extended[1].trim());
    } catch {
      // A malformed escape falls back to the plain name.
    }
  }
  const plain = /filename\s*=\s*"([^"]*)"|filename\s*=\s*([^;]+)/i.exec(header);
  const name = (plain?.[1] ?? plain?.[2] ?? '').trim();
  return name || null;
}
