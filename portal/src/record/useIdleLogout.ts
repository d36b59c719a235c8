import { useEffect } from 'react';

/** 03 §4 and §9: the session ends after 3 hours without activity. */
const INACTIVITY_LOGOUT_MS = 10_800_000;

const ACTIVITY_EVENTS = ['mousemove', 'pointerdown', 'keydown', 'touchstart', 'scroll'] as const;
const CHECK_EVERY_MS = 60_000;

/**
 * Compares timestamps instead of arming one long timer, so a phone that slept through the limit
 * logs out as soon as it wakes.
 */
export function useIdleLogout(logout: () => void, timeoutMs = INACTIVITY_LOGOUT_MS): void {
  useEffect(() => {
    let lastActivity = Date.now();
    let done = false;
    const touch = () => {
      lastActivity = Date.now();
    };
    const check = () => {
      if (!done && Date.now() - lastActivity >= timeoutMs) {
        done = true;
        logout();
      }
    };
    for (const name of ACTIVITY_EVENTS) window.addEventListener(name, touch, { passive: true });
    document.addEventListener('visibilitychange', check);
    const timer = window.setInterval(check, Math.min(CHECK_EVERY_MS, timeoutMs));
    return () => {
      for (const name of ACTIVITY_EVENTS) window.removeEventListener(name, touch);
      document.removeEventListener('visibilitychange', check);
      window.clearInterval(timer);
    };
  }, [logout, timeoutMs]);
}
