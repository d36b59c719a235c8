import { describe, expect, it } from 'vitest';
import { SIGN_IN_THROTTLE, delaySeconds, remainingSeconds, throttledMessage, waitText } from './throttle.rules';
import { SignInThrottle } from './throttle';

const { pair, address, account } = SIGN_IN_THROTTLE;
const T0 = Date.UTC(2026, 3, 6, 14);

describe('delaySeconds: exponential after the free failures, capped', () => {
  it.each([
    ['pair', pair, 0, 0],
    ['pair', pair, 2, 0],
    ['pair', pair, 3, 1],
    ['pair', pair, 4, 2],
    ['pair', pair, 8, 32],
    ['pair', pair, 12, 512],
    ['pair', pair, 13, 900],
    ['pair', pair, 1000, 900],
    ['address', address, 19, 0],
    ['address', address, 20, 1],
    ['address', address, 30, 900],
    ['account', account, 9, 0],
    ['account', account, 10, 1],
    ['account', account, 18, 256],
    ['account', account, 19, 300],
  ])('%s after %i... failures %i waits %i s', (_name, policy, failures, seconds) => {
    expect(delaySeconds(failures, policy)).toBe(seconds);
  });
});

describe('remainingSeconds', () => {
  it.each([
    ['no counter', undefined, T0, 0],
    ['under the allowance', { failures: 2, lastFailureMs: T0 }, T0, 0],
    ['right after the 4th failure', { failures: 4, lastFailureMs: T0 }, T0, 2],
    ['half a second later', { failures: 4, lastFailureMs: T0 }, T0 + 500, 2],
    ['once the wait is over', { failures: 4, lastFailureMs: T0 }, T0 + 2000, 0],
    ['at the cap, 14 minutes later', { failures: 50, lastFailureMs: T0 }, T0 + 14 * 60_000, 60],
    ['an hour without failures forgets them', { failures: 50, lastFailureMs: T0 }, T0 + 60 * 60_000, 0],
  ])('%s', (_what, counter, now, seconds) => {
    expect(remainingSeconds(counter, pair, now)).toBe(seconds);
  });
});

describe('the 429 message', () => {
  it.each([
    [1, '1 segundo'],
    [45, '45 segundos'],
    [60, '1 minuto'],
    [61, '2 minutos'],
    [900, '15 minutos'],
  ])('%i s reads %s', (seconds, text) => {
    expect(waitText(seconds)).toBe(text);
    expect(throttledMessage(seconds)).toBe(`Demasiados intentos fallidos de inicio de sesión. Espere ${text} e intente de nuevo.`);
  });
});

describe('SignInThrottle', () => {
  const fail = (t: SignInThrottle, email: string, ip: string, times: number, at = T0) => {
    for (let i = 0; i < times; i++) t.failed(email, ip, at);
  };

  it('slows one address guessing one account, and only that pair', () => {
    const t = new SignInThrottle();
    fail(t, 'ana@x.co', '10.0.0.1', 3);
    expect(t.waitSeconds('ana@x.co', '10.0.0.1', T0)).toBe(1);
    expect(t.waitSeconds('ana@x.co', '10.0.0.2', T0)).toBe(0);
    expect(t.waitSeconds('luis@x.co', '10.0.0.1', T0)).toBe(0);
  });

  it('treats an unknown e-mail exactly as a known one (counters by the e-mail as typed)', () => {
    const t = new SignInThrottle();
    fail(t, 'nadie@x.co', '10.0.0.1', 5);
    fail(t, 'ana@x.co', '10.0.0.3', 5);
    expect(t.waitSeconds('nadie@x.co', '10.0.0.1', T0)).toBe(t.waitSeconds('ana@x.co', '10.0.0.3', T0));
  });

  it('slows an address spraying many accounts', () => {
    const t = new SignInThrottle();
    for (let i = 0; i < 22; i++) t.failed(`u${i}@x.co`, '10.0.0.9', T0);
    expect(t.waitSeconds('otra@x.co', '10.0.0.9', T0)).toBe(4);
  });

  it('slows an account guessed from many addresses, but not from an address it signed in from before', () => {
    const t = new SignInThrottle();
    t.succeeded('ana@x.co', '10.1.1.1', T0 - 86_400_000);
    for (let i = 0; i < 12; i++) t.failed('ana@x.co', `172.16.0.${i}`, T0);
    expect(t.waitSeconds('ana@x.co', '172.16.1.1', T0)).toBe(4);
    expect(t.waitSeconds('ana@x.co', '10.1.1.1', T0)).toBe(0);
  });

  it('never waits longer than the cap, however long the attack', () => {
    const t = new SignInThrottle();
    fail(t, 'ana@x.co', '10.0.0.1', 500);
    expect(t.waitSeconds('ana@x.co', '10.0.0.1', T0)).toBe(15 * 60);
    expect(t.waitSeconds('ana@x.co', '10.0.0.1', T0 + 15 * 60_000)).toBe(0);
  });

  it("starts the account's counters again after a success, not the address's", () => {
    const t = new SignInThrottle();
    fail(t, 'ana@x.co', '10.0.0.1', 3);
    for (let i = 0; i < 20; i++) t.failed(`u${i}@x.co`, '10.0.0.1', T0);
    t.succeeded('ana@x.co', '10.0.0.1', T0 + 5000);
    expect(t.waitSeconds('ana@x.co', '10.0.0.2', T0 + 5000)).toBe(0);
    expect(t.waitSeconds('luis@x.co', '10.0.0.1', T0 + 5000)).toBeGreaterThan(0);
  });
});
