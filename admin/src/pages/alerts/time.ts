/** Date and time as the patient lives it (D5): dd/mm/aaaa hh:mm in the patient's zone. */
export function localTime(iso: string, timeZone: string): string {
  try {
    return new Intl.DateTimeFormat('es-CO', {
      timeZone,
      day: '2-digit',
      month: '2-digit',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      hour12: false,
    }).format(new Date(iso));
  } catch {
    return new Date(iso).toLocaleString('es-CO');
  }
}
