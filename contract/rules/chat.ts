/** The patient chat's display rules (01 §2 'Messaging chat', §9): one place for the admin and its tests. */

import { addDays, formatDate, formatTime, localDate } from './dates';

export const CHAT_PAGE_SIZE = 3;
/** Older messages load when the list is scrolled within this many pixels of its top. */
export const LOAD_OLDER_WITHIN_PX = 100;
export const AUDIO_FILENAME_MAX = 20;
export const CHAT_TEXTS = {
  title: 'Chat',
  welcomeSubtitle: 'Mensaje de Bienvenida',
  empty: 'No hay mensajes aún',
  sendWelcome: 'Enviar Bienvenida',
  welcomeSent: 'Mensaje de bienvenida enviado exitosamente',
  welcomeFailed: 'Error al enviar mensaje de bienvenida',
  today: 'Hoy',
  yesterday: 'Ayer',
} as const;

/** Audio file names longer than 20 characters are cut with an ellipsis. */
export function shortFilename(name: string): string {
  return name.length > AUDIO_FILENAME_MAX ? `${name.slice(0, AUDIO_FILENAME_MAX)}...` : name;
}

/** Estimated audio duration: bytes / 1000 seconds (01 §9). */
export function estimatedSeconds(byteSize: number): number {
  return Math.max(0, Math.round((byteSize || 0) / 1000));
}

export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/** Separator label of a message's day in the patient's zone (D5): Hoy, Ayer or the date. */
export function dayLabel(date: Date, now: Date, timeZone: string): string {
  const day = localDate(date, timeZone);
  const today = localDate(now, timeZone);
  if (day === today) return CHAT_TEXTS.today;
  if (day === addDays(today, -1)) return CHAT_TEXTS.yesterday;
  return formatDate(date, timeZone);
}

export function timeOfDay(date: Date, timeZone: string): string {
  return formatTime(date, timeZone);
}

/** Subtitle under 'Chat': the welcome hint while empty, else the last activity. */
export function chatSubtitle(lastMessageAt: Date | null, now: Date, timeZone: string): string {
  if (!lastMessageAt) return CHAT_TEXTS.welcomeSubtitle;
  const label = dayLabel(lastMessageAt, now, timeZone);
  return `Última actividad: ${label === CHAT_TEXTS.today || label === CHAT_TEXTS.yesterday ? label.toLowerCase() : label} ${timeOfDay(lastMessageAt, timeZone)}`;
}

/** Merges a page into the loaded messages (by id), oldest first, as the list shows them. */
export function mergeMessages<T extends { id: number; created_at: string }>(loaded: T[], page: T[]): T[] {
  const byId = new Map(loaded.map((m) => [m.id, m]));
  for (const m of page) byId.set(m.id, m);
  return [...byId.values()].sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id - b.id);
}
