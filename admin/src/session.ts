import { LOGOUT_REASON_STORAGE_KEY, PORTAL_PATHS, REDIRECT_STORAGE_KEY, SESSION_STORAGE_KEY } from './constants';
import type { Profile, Session } from './contract';

/** The staff session as the API answered it, kept in localStorage (03 §3 "User session"). */
export function readSession(): Session | null {
  try {
    const raw = localStorage.getItem(SESSION_STORAGE_KEY);
    if (!raw) return null;
    const session = JSON.parse(raw) as Session;
    return typeof session?.token === 'string' && session.token ? session : null;
  } catch {
    return null;
  }
}

/** The zone staff screens show times in when no patient is involved: the signed-in user's (D5, P71). */
export function staffTimeZone(): string {
  return readSession()?.time_zone || 'America/Bogota';
}

export function readToken(): string | null {
  return readSession()?.token ?? null;
}

/** Set while a deliberate logout runs, so the guard does not remember the page being left. */
let loggingOut = false;

export function saveSession(session: Session): void {
  loggingOut = false;
  localStorage.setItem(SESSION_STORAGE_KEY, JSON.stringify(session));
}

export function markLoggingOut(): void {
  loggingOut = true;
  sessionStorage.removeItem(REDIRECT_STORAGE_KEY);
}

/** Refreshes the profile part (GET /me) and keeps the token. */
export function mergeProfile(profile: Profile): Session | null {
  const current = readSession();
  if (!current) return null;
  const next = { ...current, ...profile };
  saveSession(next);
  return next;
}

export function clearSession(): void {
  localStorage.removeItem(SESSION_STORAGE_KEY);
}

/** A path the app itself may send the user back to after login. */
function isSafeRedirect(path: string | null | undefined): path is string {
  if (!path || !path.startsWith('/') || path.startsWith('//')) return false;
  const pathname = path.split(/[?#]/)[0];
  if (pathname === '/' || pathname === '/login') return false;
  return !PORTAL_PATHS.some((p) => pathname === p || pathname.startsWith(`${p}/`));
}

/** Remembers where a logged-out visitor wanted to go (route guard, 03 §2). */
export function rememberRedirect(path: string): void {
  if (!loggingOut && isSafeRedirect(path)) sessionStorage.setItem(REDIRECT_STORAGE_KEY, path);
}

/** Returns and forgets the remembered target. */
export function takeRedirect(): string | null {
  const path = sessionStorage.getItem(REDIRECT_STORAGE_KEY);
  sessionStorage.removeItem(REDIRECT_STORAGE_KEY);
  return isSafeRedirect(path) ? path : null;
}

/** Why a session ended without the user asking: told on the login page ('ended': closed from elsewhere, issue 38). */
export type LogoutReason = 'expired' | 'inactive' | 'ended';

/** `message`: the API's own words for an ended session ('Su sesión fue cerrada por un administrador…'). */
export function setLogoutReason(reason: LogoutReason, message?: string): void {
  sessionStorage.setItem(LOGOUT_REASON_STORAGE_KEY, reason);
  if (message) sessionStorage.setItem(`${LOGOUT_REASON_STORAGE_KEY}.message`, message);
  else sessionStorage.removeItem(`${LOGOUT_REASON_STORAGE_KEY}.message`);
}

export function peekLogoutReason(): LogoutReason | null {
  const reason = sessionStorage.getItem(LOGOUT_REASON_STORAGE_KEY);
  return reason === 'expired' || reason === 'inactive' || reason === 'ended' ? reason : null;
}

/** The API's message kept with the reason, if any. */
export function peekLogoutMessage(): string | null {
  return sessionStorage.getItem(`${LOGOUT_REASON_STORAGE_KEY}.message`);
}

export function takeLogoutReason(): LogoutReason | null {
  const reason = peekLogoutReason();
  sessionStorage.removeItem(LOGOUT_REASON_STORAGE_KEY);
  sessionStorage.removeItem(`${LOGOUT_REASON_STORAGE_KEY}.message`);
  return reason;
}
