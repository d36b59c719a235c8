import { useEffect, useRef } from 'react';
import { INACTIVITY_LOGOUT_MS } from '../constants';
import { createInactivityTimer } from './inactivity';

/**
 * Activity that keeps a session alive. The spec names mouse movement; keys, touches and the wheel
 * count too, so a nurse typing a long note or using a tablet is not logged out mid-task.
 */
const ACTIVITY_EVENTS = ['mousemove', 'pointerdown', 'keydown', 'wheel', 'touchstart'] as const;

/**
 * Logs out after {@link INACTIVITY_LOGOUT_MS} without activity (03 §4). Movement on the home
 * route ('/') is ignored: there is no session to keep there.
 */
export function useInactivityLogout(logout: () => void, pathname: string, timeoutMs = INACTIVITY_LOGOUT_MS) {
  const logoutRef = useRef(logout);
  logoutRef.current = logout;
  const onHome = pathname === '/';

  useEffect(() => {
    if (onHome) return;
    const timer = createInactivityTimer({ onTimeout: () => logoutRef.current(), timeoutMs });
    const onActivity = () => timer.activity();
    ACTIVITY_EVENTS.forEach((name) => window.addEventListener(name, onActivity, { passive: true }));
    return () => {
      timer.stop();
      ACTIVITY_EVENTS.forEach((name) => window.removeEventListener(name, onActivity));
    };
  }, [onHome, timeoutMs]);
}
