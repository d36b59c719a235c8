/**
 * What the activities calendar opens on and how it groups a phone's week (issue 50): the working
 * day rather than midnight, and the week as a list of days whose titles are never cut.
 */

/** The hour a time-grid view starts at when nothing is earlier: the start of a working day. */
export const WORKDAY_START_HOUR = 7;

/**
 * The first hour a week or day view shows: 07:00, or the hour of the earliest activity shown when
 * it is earlier (a 05:30 dose is never left out). `times` are the activities' wall-clock
 * 'hh:mm' in the patient's zone.
 */
export function openingTime(times: readonly string[], workdayStart = WORKDAY_START_HOUR): string {
  const hours = times.map((t) => Number(t.slice(0, 2))).filter((h) => Number.isInteger(h) && h >= 0 && h < 24);
  const hour = Math.min(workdayStart, ...hours);
  return `${String(hour).padStart(2, '0')}:00:00`;
}

export interface AgendaItem {
  id: number;
  /** The patient's wall-clock day and time: 'YYYY-MM-DD', 'hh:mm'. */
  date: string;
  time: string;
}

/**
 * A phone's week: each day of [first, first + days) with its activities by time, empty days kept
 * (an empty Tuesday is news too). `first` is 'YYYY-MM-DD'.
 */
export function agendaDays<T extends AgendaItem>(first: string, days: number, items: readonly T[]): Array<{ date: string; items: T[] }> {
  const start = Date.parse(`${first}T00:00:00Z`);
  return Array.from({ length: days }, (_, i) => {
    const date = new Date(start + i * 86_400_000).toISOString().slice(0, 10);
    const of = items.filter((a) => a.date === date).sort((a, b) => a.time.localeCompare(b.time) || a.id - b.id);
    return { date, items: of };
  });
}
