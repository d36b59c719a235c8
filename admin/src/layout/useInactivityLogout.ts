import { useEffect, useRef } from 'react';
import { INACTIVITY_LOGOUT_MS } from '../constants';

/** Activity that keeps a session alive. The spec names mouse movement; keys and touches count too. */
const ACTIVITY_EVENTS = ['mousemove', 'pointerdown', 'keydown', 'wheel', 'touchstart'] as const;
/** Re-arming the timer on every mouse event is wasteful; once a second is plenty. */
const THROTTLE_MS = 1000;

/**
 * Logs out after {@link INACTIVITY_LOGOUT_MS} without activity (03 §4). Movement on the home
 * route ('/') is ignored: there is no session to keep there.
 */
export function useInactivityLogout(logout: () => void, pathname: string, timeoutMs = INACTIVITY_LOGOUT_MS) {
  const logoutRef = useRef(logout);
  logoutRef.current = logout;

  useEffect(() => {
    if (pathname === '/') return;
    let timer = window.setTimeout(() => logoutRef.current(), timeoutMs);
    let last = Date.now();

    const onActivity = () => {
      const now = Date.now();
      if (now - last < THROTTLE_MS) return;
      last = now;
      window.clearTimeout(timer);
      timer = window.setTimeout(() => logoutRef.current(), timeoutMs);
    };

    ACTIVITY_EVENTS.forEach((name) => window.addEventListener(name, onActivity, { passive: true }));
    return () => {
      window.clearTimeout(timer);
      ACTIVITY_EVENTS.forEach((name) => window.removeEventListener(name, onActivity));
    };
  }, [pathname === '/', timeoutMs]); // eslint-disable-line react-hooks/exhaustive-deps
}
