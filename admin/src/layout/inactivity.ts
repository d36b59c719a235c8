import { INACTIVITY_LOGOUT_MS } from '../constants';

/** Re-arming the timer on every mouse event is wasteful; once a second is plenty. */
const ACTIVITY_THROTTLE_MS = 1000;

/**
 * The inactivity rule of 03 §4 without the DOM: `onTimeout` fires once `timeoutMs` pass without
 * a call to `activity()`. Timers are injectable so the rule is tested with fake time.
 */
export function createInactivityTimer({
  onTimeout,
  timeoutMs = INACTIVITY_LOGOUT_MS,
  now = Date.now,
  schedule = (fn: () => void, ms: number) => setTimeout(fn, ms),
  cancel = (handle: ReturnType<typeof setTimeout>) => clearTimeout(handle),
}: {
  onTimeout: () => void;
  timeoutMs?: number;
  now?: () => number;
  schedule?: (fn: () => void, ms: number) => ReturnType<typeof setTimeout>;
  cancel?: (handle: ReturnType<typeof setTimeout>) => void;
}) {
  let last = now();
  let handle = schedule(onTimeout, timeoutMs);
  return {
    activity() {
      const at = now();
      if (at - last < ACTIVITY_THROTTLE_MS) return;
      last = at;
      cancel(handle);
      handle = schedule(onTimeout, timeoutMs);
    },
    stop() {
      cancel(handle);
    },
  };
}
