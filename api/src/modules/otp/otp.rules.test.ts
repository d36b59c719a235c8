import { describe, it, expect } from 'vitest';
import * as r from './otp.rules';

const now = new Date('2026-11-21T12:00:00Z');
const minutes = (m: number) => new Date(now.getTime() + m * 60_000);

describe('one-time code rules (D17)', () => {
  it.each([
    [undefined, 4],
    ['6', 6],
    ['3', 4],
    ['x', 4],
  ])('length setting %j → %i digits', (setting, expected) => {
    expect(r.otpLength(setting)).toBe(expected);
  });

  it('builds a code of the requested length from the random source', () => {
    const seq = [1, 2, 3, 4, 5, 6];
    let i = 0;
    expect(r.generateCode(4, () => seq[i++])).toBe('1234');
    expect(r.generateCode(6, (max) => max - 1)).toBe('999999');
  });

  it.each([
    [{ nidRequestsInWindow: 0, ipRequestsInWindow: 0, lockedUntil: null }, true, undefined],
    [{ nidRequestsInWindow: 2, ipRequestsInWindow: 19, lockedUntil: null }, true, undefined],
    [{ nidRequestsInWindow: 3, ipRequestsInWindow: 0, lockedUntil: null }, false, 'rate'],
    [{ nidRequestsInWindow: 0, ipRequestsInWindow: 20, lockedUntil: null }, false, 'rate'],
    [{ nidRequestsInWindow: 0, ipRequestsInWindow: 0, lockedUntil: minutes(60) }, false, 'locked'],
    [{ nidRequestsInWindow: 0, ipRequestsInWindow: 0, lockedUntil: minutes(-1) }, true, undefined],
  ])('request with %j → ok %j (%j)', (counts, ok, reason) => {
    const d = r.decideRequest(counts, now, { nid: minutes(-10), ip: minutes(-30) });
    expect(d.ok).toBe(ok);
    if (!d.ok) {
      expect(d.reason).toBe(reason);
      expect(d.retryAfterMs).toBeGreaterThan(0);
    }
  });

  it('asks a rate-limited document to wait until its oldest request leaves the 15-minute window', () => {
    const d = r.decideRequest({ nidRequestsInWindow: 3, ipRequestsInWindow: 0, lockedUntil: null }, now, { nid: minutes(-10), ip: null });
    expect(d).toEqual({ ok: false, reason: 'rate', retryAfterMs: 5 * 60_000 });
  });

  it.each([
    [{ expiresAt: minutes(5), attempts: 0, usedAt: null }, true],
    [{ expiresAt: minutes(5), attempts: 4, usedAt: null }, true],
    [{ expiresAt: minutes(5), attempts: 5, usedAt: null }, false],
    [{ expiresAt: minutes(-0.01), attempts: 0, usedAt: null }, false],
    [{ expiresAt: minutes(5), attempts: 0, usedAt: now }, false],
    [null, false],
  ])('challenge %j open: %j', (ch, expected) => {
    expect(r.isChallengeOpen(ch, now)).toBe(expected);
  });

  it.each([
    [9, null],
    [10, new Date(now.getTime() + 24 * 3600_000)],
    [15, new Date(now.getTime() + 24 * 3600_000)],
  ])('%i failures in 24 h → lock until %j', (failures, expected) => {
    expect(r.lockAfterFailure(failures, now)).toEqual(expected);
  });
});
