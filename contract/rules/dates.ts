/**
 * Time in a patient's or client's zone (D5), the one place it is computed: zone offsets, calendar
 * days and their start instants, and the day/month/year text staff and patients read (01 §1).
 * Intl is in Node and in every browser, so the API, the staff app, the portal and the seeds run the
 * same code with no time-zone library. Formatters are cached per zone: building one costs ~60 µs.
 */

/** A calendar day, 'YYYY-MM-DD'. */
export type CalendarDay = string;

type Instant = string | number | Date;

const partsFormatters = new Map<string, Intl.DateTimeFormat>();

function partsFormatter(timeZone: string): Intl.DateTimeFormat {
  let f = partsFormatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    partsFormatters.set(timeZone, f);
  }
  return f;
}

/** Whether Intl knows the IANA zone (every function here throws a RangeError on one it does not). */
export function isValidTimeZone(timeZone: string): boolean {
  if (partsFormatters.has(timeZone)) return true;
  try {
    partsFormatter(timeZone);
    return true;
  } catch {
    return false;
  }
}

/** The wall clock of an instant in a zone, each part as two digits (four for the year). */
export function zoneParts(at: Instant, timeZone: string) {
  const parts: Record<string, string> = {};
  for (const p of partsFormatter(timeZone).formatToParts(new Date(at))) parts[p.type] = p.value;
  return { year: parts.year, month: parts.month, day: parts.day, hour: parts.hour, minute: parts.minute, second: parts.second };
}

/** How far the zone's wall clock is ahead of UTC at an instant, in ms (Bogotá: -5 h). */
export function zoneOffsetMs(at: Instant, timeZone: string): number {
  const utcMs = new Date(at).getTime();
  const p = zoneParts(utcMs, timeZone);
  const asUtc = Date.UTC(+p.year, +p.month - 1, +p.day, +p.hour, +p.minute, +p.second);
  return asUtc - Math.floor(utcMs / 1000) * 1000;
}

/** The calendar day of an instant in a zone. */
export function localDate(at: Instant, timeZone: string): CalendarDay {
  const p = zoneParts(at, timeZone);
  return `${p.year}-${p.month}-${p.day}`;
}

/** The wall-clock parts of an instant in a zone: day, 'hh:mm' and weekday (0 = Sunday). */
export function localParts(at: Date, timeZone: string): { date: CalendarDay; time: string; weekday: number } {
  const p = zoneParts(at, timeZone);
  const date = `${p.year}-${p.month}-${p.day}`;
  return { date, time: `${p.hour}:${p.minute}`, weekday: weekdayOf(date) };
}

/** 'YYYY-MM-DD hh:mm' in the zone (CSV cells: sortable, unambiguous). */
export function localDateTime(at: Instant, timeZone: string): string {
  const p = zoneParts(at, timeZone);
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}`;
}

const DAY_MS = 86_400_000;

/** The wall clock of an instant read back as if it were UTC, to the minute. */
function wallAsUtc(utcMs: number, timeZone: string): number {
  const p = zoneParts(utcMs, timeZone);
  return Date.UTC(+p.year, +p.month - 1, +p.day, +p.hour, +p.minute);
}

/**
 * A wall-clock time of a calendar day to its UTC instant. A time a fall-back repeats takes its
 * first occurrence; a time a spring-forward skips lands as far after the gap as it was into it
 * (02:30 on a day that jumps from 02:00 to 03:00 is 03:30), so a day whose midnight is skipped
 * (Chile, Cuba) starts at its first real instant, never on the day before.
 */
export function localToUtc(date: CalendarDay, minutesOfDay: number, timeZone: string): Date {
  const [y, m, d] = date.split('-').map(Number);
  const naive = Date.UTC(y, m - 1, d, 0, minutesOfDay);
  const earlier = naive - zoneOffsetMs(naive - DAY_MS, timeZone);
  if (wallAsUtc(earlier, timeZone) === naive) return new Date(earlier);
  const later = naive - zoneOffsetMs(naive + DAY_MS, timeZone);
  if (wallAsUtc(later, timeZone) === naive) return new Date(later);
  return new Date(earlier);
}

/** The instant a calendar day starts in a zone (filters and reports take whole days of the zone, D5). */
export function dayStartUtc(day: CalendarDay, timeZone: string): Date {
  return localToUtc(day, 0, timeZone);
}

export function addDays(date: CalendarDay, days: number): CalendarDay {
  const [y, m, d] = date.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

/** The day after, for an inclusive end date. */
export function nextDay(date: CalendarDay): CalendarDay {
  return addDays(date, 1);
}

/** 0 = Sunday … 6 = Saturday. */
export function weekdayOf(date: CalendarDay): number {
  const [y, m, d] = date.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d)).getUTCDay();
}

/** 'dd/mm/aaaa hh:mm' in `timeZone` (01 §1: day, month, year everywhere). */
export function formatWhen(when: Instant, timeZone: string): string {
  const p = zoneParts(when, timeZone);
  return `${p.day}/${p.month}/${p.year} ${p.hour}:${p.minute}`;
}

/** 'dd/mm/aaaa' in `timeZone`. */
export function formatDate(when: Instant, timeZone: string): string {
  const p = zoneParts(when, timeZone);
  return `${p.day}/${p.month}/${p.year}`;
}

/** 'dd/mm/aaaa' of a calendar day, with no zone to apply. */
export function formatCalendarDay(day: CalendarDay): string {
  const [y, m, d] = day.split('-');
  return `${d}/${m}/${y}`;
}

/** 'hh:mm' (24 h) in `timeZone`. */
export function formatTime(when: Instant, timeZone: string): string {
  const p = zoneParts(when, timeZone);
  return `${p.hour}:${p.minute}`;
}

/** 'dd/mm' in `timeZone` (chart axes). */
export function formatDay(when: Instant, timeZone: string): string {
  const p = zoneParts(when, timeZone);
  return `${p.day}/${p.month}`;
}
