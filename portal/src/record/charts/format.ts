/** 'dd/mm/aaaa hh:mm' in the patient's zone (D5); formatters cached per zone. */
const formatters = new Map<string, Intl.DateTimeFormat>();

export function formatWhen(when: number, timeZone: string): string {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('es-CO', { timeZone, day: '2-digit', month: '2-digit', year: 'numeric', hour: '2-digit', minute: '2-digit', hour12: false });
    formatters.set(timeZone, f);
  }
  return f.format(when);
}

/** One decimal at most, decimal comma as Spanish readers expect. */
export function formatReading(value: number): string {
  return (Math.round(value * 10) / 10).toLocaleString('es-CO', { maximumFractionDigits: 1 });
}
