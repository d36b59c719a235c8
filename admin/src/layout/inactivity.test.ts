import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { INACTIVITY_LOGOUT_MS } from '../constants';
import { createInactivityTimer } from './inactivity';

describe('inactivity logout (03 §4, §9)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('is 3 hours: 10 800 000 ms', () => {
    expect(INACTIVITY_LOGOUT_MS).toBe(10_800_000);
  });

  it.each([
    ['logs out 3 h after the last movement', [], INACTIVITY_LOGOUT_MS, 1],
    ['does not log out a moment before', [], INACTIVITY_LOGOUT_MS - 1, 0],
    ['a movement restarts the count', [INACTIVITY_LOGOUT_MS - 60_000], INACTIVITY_LOGOUT_MS + 60_000, 0],
    ['and 3 h after that movement it logs out', [60_000], INACTIVITY_LOGOUT_MS + 60_000, 1],
    ['movements within a second count once (throttled)', [500], INACTIVITY_LOGOUT_MS, 1],
  ])('%s', (_title, movesAt, elapsed, expectedLogouts) => {
    const onTimeout = vi.fn();
    const start = Date.now();
    const timer = createInactivityTimer({ onTimeout, now: () => Date.now() - start });
    for (const at of movesAt) {
      vi.advanceTimersByTime(at - (Date.now() - start));
      timer.activity();
    }
    vi.advanceTimersByTime(elapsed - (Date.now() - start));
    expect(onTimeout).toHaveBeenCalledTimes(expectedLogouts);
    timer.stop();
  });

  it('stop() cancels the pending logout', () => {
    const onTimeout = vi.fn();
    const timer = createInactivityTimer({ onTimeout });
    timer.stop();
    vi.advanceTimersByTime(INACTIVITY_LOGOUT_MS * 2);
    expect(onTimeout).not.toHaveBeenCalled();
  });
});
