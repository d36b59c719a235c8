import { formatDate, formatTime } from './dates';

/**
 * The four states of a read, decided once for the staff app and the portal (P212; issue 50): a
 * failed read is never shown as an empty list, and a read that could not be refreshed keeps its
 * last data, marked with when it was read. Each app draws it with its own component (admin:
 * ui/ReadState.tsx; portal: ReadNotice.tsx) from what this decides.
 */

export type ReadPhase = 'loading' | 'failed' | 'stale' | 'empty' | 'ready';

export interface ReadFacts {
  /** The last answer of the read (or of every read of a group) is at hand. */
  hasData: boolean;
  /** That answer holds nothing to show. */
  empty: boolean;
  /** The last attempt failed (a server error, or no network). */
  failed: boolean;
  /** The browser is offline: a read cannot be made now, whatever the last one said. */
  offline: boolean;
}

/**
 * What a screen shows for a read: its data, its empty state, its loading, or that it could not be
 * read. Data kept from before a failure is shown only when it has something in it: an empty answer
 * kept would read as 'no hay…' after a failed read, so that is 'failed'.
 */
export function readPhase({ hasData, empty, failed, offline }: ReadFacts): ReadPhase {
  if (failed || offline) return hasData && !empty ? 'stale' : 'failed';
  if (!hasData) return 'loading';
  return empty ? 'empty' : 'ready';
}

export const READ_TEXT = {
  retry: 'Reintentar',
  /** `what` with its article: 'las alertas abiertas'. */
  failed: (what: string) => `No fue posible cargar ${what}.`,
  offline: (what: string) => `Sin conexión: no fue posible cargar ${what}.`,
} as const;

/**
 * The mark on data that could not be refreshed: 'Datos de las 10:42; no fue posible actualizarlos.'
 * (another day: 'Datos del 04/12/2026 a las 10:42; …'). Times in the reader's own zone.
 */
export function staleText(readAt: number, now: number, timeZone: string, offline = false): string {
  const time = formatTime(new Date(readAt), timeZone);
  const sameDay = formatDate(new Date(readAt), timeZone) === formatDate(new Date(now), timeZone);
  const when = sameDay ? `de las ${time}` : `del ${formatDate(new Date(readAt), timeZone)} a las ${time}`;
  return `Datos ${when}; ${offline ? 'sin conexión, ' : ''}no fue posible actualizarlos.`;
}

/** The message of a read in the 'failed' or 'stale' phase. */
export function failedReadText(
  phase: 'failed' | 'stale',
  what: string,
  readAt: number,
  now: number,
  timeZone: string,
  offline: boolean,
): string {
  if (phase === 'stale') return staleText(readAt, now, timeZone, offline);
  return offline ? READ_TEXT.offline(what) : READ_TEXT.failed(what);
}

/**
 * The banner of an app without network (issue 50), said once for the whole screen: 'Sin conexión:
 * los datos pueden no estar al día. Última lectura correcta: 10:42.' (none yet: without the time).
 */
export function offlineText(lastReadAt: number, now: number, timeZone: string): string {
  const base = 'Sin conexión: los datos pueden no estar al día.';
  if (!lastReadAt) return base;
  const time = formatTime(new Date(lastReadAt), timeZone);
  const sameDay = formatDate(new Date(lastReadAt), timeZone) === formatDate(new Date(now), timeZone);
  return `${base} Última lectura correcta: ${sameDay ? time : `${formatDate(new Date(lastReadAt), timeZone)} ${time}`}.`;
}
