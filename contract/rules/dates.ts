/** Dates shown to staff and patients in the patient's zone (D5); one formatter per zone, cached. */
const formatters = new Map<string, Intl.DateTimeFormat>();

/** 'dd/mm/aaaa hh:mm' in `timeZone`. */
export function formatWhen(when: string | number | Date, timeZone: string): string {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('es-CO', {
      timeZone,
      day: '2-digit',
      month: '2-digit',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(timeZone, f);
  }
  const parts = Object.fromEntries(f.formatToParts(new Date(when)).map((p) => [p.type, p.value]));
  return `${parts.day}/${parts.month}/${parts.year} ${parts.hour}:${parts.minute}`;
}

/** 'dd/mm' in `timeZone` (chart axes). */
export function formatDay(when: number, timeZone: string): string {
  return formatWhen(when, timeZone).slice(0, 5);
}
