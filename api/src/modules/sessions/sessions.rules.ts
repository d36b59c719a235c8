import UAParser from 'ua-parser-js';

/** Pure rules of the sessions a user can see and end (issue 38). */

/** Why a session ended, kept in `sessions.ended_reason`. */
export type EndedReason = 'sign_out' | 'ended_by_user' | 'ended_by_admin' | 'password_reset';

/**
 * What the next request with an ended session's token is told (401 `session_ended`), so the staff
 * app's login can say why. A logout, an expired or a disabled user's token keeps the plain 401.
 */
export const SESSION_ENDED_MESSAGES: Record<Exclude<EndedReason, 'sign_out'>, string> = {
  ended_by_user: 'Su sesión fue cerrada desde otra sesión de su cuenta. Inicie sesión de nuevo.',
  ended_by_admin: 'Su sesión fue cerrada por un administrador de su institución. Inicie sesión de nuevo.',
  password_reset: 'Su sesión fue cerrada porque se cambió la contraseña de su cuenta. Inicie sesión de nuevo.',
};

/** The message for a refused token whose session ended, or null when it gets the plain 401. */
export function sessionEndedMessage(reason: string | null | undefined): string | null {
  return reason && Object.hasOwn(SESSION_ENDED_MESSAGES, reason)
    ? SESSION_ENDED_MESSAGES[reason as keyof typeof SESSION_ENDED_MESSAGES]
    : null;
}

/** The audit summary of a refused token, by why its session ended. */
export const TOKEN_REFUSED_SUMMARIES: Record<keyof typeof SESSION_ENDED_MESSAGES, string> = {
  ended_by_user: 'Se rechazó el token de una sesión que el usuario cerró',
  ended_by_admin: 'Se rechazó el token de una sesión que cerró un administrador',
  password_reset: 'Se rechazó el token de una sesión cerrada al restablecer la contraseña',
};

/**
 * 'Sesiones activas' shows when a session was last used; writing it on every request would put a
 * write beside every read (the patient list under load). It is written when it is older than this.
 */
export const LAST_USED_STEP_MS = 5 * 60_000;

export function lastUsedIsStale(lastUsedMs: number | null, nowMs: number): boolean {
  return lastUsedMs === null || nowMs - lastUsedMs >= LAST_USED_STEP_MS;
}

/** The user agent as people say it: 'Chrome en Linux', 'Mobile Safari en iOS'. */
export function browserLabel(userAgent: string | null | undefined): string {
  if (!userAgent) return 'Navegador desconocido';
  const { browser, os } = UAParser(userAgent);
  const name = browser.name ?? 'Navegador desconocido';
  return os.name ? `${name} en ${os.name}` : name;
}

/** A session list's order: the current session first, then the most recently started. */
export function sortSessions<T extends { current: boolean; created_at: string }>(sessions: T[]): T[] {
  return [...sessions].sort((a, b) => Number(b.current) - Number(a.current) || b.created_at.localeCompare(a.created_at));
}
