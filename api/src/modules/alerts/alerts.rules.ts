function offsetMs(instant: Date, timeZone: string): number {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    })
      .formatToParts(instant)
      .map((p) => [p.type, p.value]),
  );
  const asUtc = Date.UTC(
    Number(parts.year),
    Number(parts.month) - 1,
    Number(parts.day),
    Number(parts.hour),
    Number(parts.minute),
    Number(parts.second),
  );
  return asUtc - (instant.getTime() - instant.getMilliseconds());
}

/** The UTC instant a calendar day (YYYY-MM-DD) starts in a zone (D5: filters are days of the user's zone). */
export function dayStartUtc(day: string, timeZone: string): Date {
  const [y, m, d] = day.split('-').map(Number);
  const guess = Date.UTC(y, m - 1, d);
  const first = offsetMs(new Date(guess), timeZone);
  return new Date(guess - offsetMs(new Date(guess - first), timeZone));
}

/** The day after, for an inclusive end date. */
export function nextDay(day: string): string {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d + 1)).toISOString().slice(0, 10);
}

/** page/per_page (02 §7) or simple-rest _start/_end (D3), whichever the caller sent. */
export function pageWindow(
  q: { page?: unknown; per_page?: unknown; _start?: unknown; _end?: unknown },
  defaultSize = 10,
): { offset: number; limit: number } {
  if (q.page != null || q.per_page != null) {
    const perPage = Math.min(100, Math.max(1, Number(q.per_page ?? defaultSize) || defaultSize));
    const page = Math.max(1, Number(q.page ?? 1) || 1);
    return { offset: (page - 1) * perPage, limit: perPage };
  }
  const offset = Math.max(0, Number(q._start ?? 0) || 0);
  const end = q._end != null ? Number(q._end) : offset + defaultSize;
  return { offset, limit: Math.max(0, Math.min(100, end - offset)) };
}
