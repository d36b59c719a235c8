/**
 * Refine's `contains` on a date field (`expiration_date_like=2027-06`, `created_at_like=2026-11-21`):
 * the text the list shows starts with what was typed, so the value is the beginning of an ISO date
 * or date-time and means the period it names (a year, a month, a day, an hour, a minute, a second).
 * A period is a half-open range on the column, so the condition is the same on both databases
 * (a date's text form is not: SQLite stores text, PostgreSQL a date or a timestamp) and can use
 * the column's index. Date-times are read in UTC, as the answers show them.
 */

export interface Period {
  /** First instant (date-time) or day (date, 'YYYY-MM-DD') of the period. */
  from: string;
  /** The first one after it. */
  to: string;
}

const PREFIX = /^(\d{4})(?:-(\d{2})(?:-(\d{2})(?:[T ](\d{2})(?::(\d{2})(?::(\d{2}))?)?)?)?)?$/;

/** The period a typed beginning names, or null when it is not the beginning of a valid date (or date-time). */
export function periodOf(text: string, kind: 'date' | 'datetime'): Period | null {
  const m = PREFIX.exec(text.trim());
  if (!m) return null;
  const [, y, mo, d, h, mi, s] = m;
  if (kind === 'date' && h !== undefined) return null;
  const parts = [
    Number(y),
    mo === undefined ? 1 : Number(mo),
    d === undefined ? 1 : Number(d),
    Number(h ?? 0),
    Number(mi ?? 0),
    Number(s ?? 0),
  ];
  const start = new Date(Date.UTC(parts[0], parts[1] - 1, parts[2], parts[3], parts[4], parts[5]));
  // 2026-02-30 or 25:00 would roll over into another period: refused, not reinterpreted.
  const back = [
    start.getUTCFullYear(),
    start.getUTCMonth() + 1,
    start.getUTCDate(),
    start.getUTCHours(),
    start.getUTCMinutes(),
    start.getUTCSeconds(),
  ];
  if (back.some((v, i) => v !== parts[i]) || parts[0] < 1) return null;
  const end = new Date(start);
  if (s !== undefined) end.setUTCSeconds(end.getUTCSeconds() + 1);
  else if (mi !== undefined) end.setUTCMinutes(end.getUTCMinutes() + 1);
  else if (h !== undefined) end.setUTCHours(end.getUTCHours() + 1);
  else if (d !== undefined) end.setUTCDate(end.getUTCDate() + 1);
  else if (mo !== undefined) end.setUTCMonth(end.getUTCMonth() + 1);
  else end.setUTCFullYear(end.getUTCFullYear() + 1);
  const show = (at: Date) => (kind === 'date' ? at.toISOString().slice(0, 10) : at.toISOString());
  return { from: show(start), to: show(end) };
}

export const PERIOD_MESSAGE = 'Escriba el comienzo de una fecha como AAAA, AAAA-MM o AAAA-MM-DD.';
