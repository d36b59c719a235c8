/**
 * Sign-in throttling (issue 38, ASVS 5.0 V6.3.1): failed sign-ins slow the next attempt
 * exponentially, up to a cap, so guessing gets slower and slower but nobody can shut another person
 * out for good. Three counters, each with its own free allowance:
 * - the pair (account, address): one browser guessing one password;
 * - the address: one address trying many accounts (password spraying); an office's shared address
 *   gets more free failures;
 * - the account, from anywhere: a password guessed from many addresses. This one is skipped from an
 *   address the account signed in from before, so an attacker who keeps failing on someone's
 *   account does not keep its owner out at the usual desk; a new address waits at most its cap.
 * The answer does not depend on whether the account exists: the counters are keyed by the e-mail
 * as typed, known or not.
 */

export interface ThrottlePolicy {
  /** Failures allowed before any wait. */
  free: number;
  /** The first wait; each further failure doubles it. */
  baseSeconds: number;
  /** The longest wait, whatever the failures. */
  capSeconds: number;
}

export const SIGN_IN_THROTTLE = {
  pair: { free: 3, baseSeconds: 1, capSeconds: 15 * 60 },
  address: { free: 20, baseSeconds: 1, capSeconds: 15 * 60 },
  account: { free: 10, baseSeconds: 1, capSeconds: 5 * 60 },
} as const satisfies Record<string, ThrottlePolicy>;

/** A counter with no failure for this long starts again from zero. */
export const FORGET_FAILURES_AFTER_MS = 60 * 60_000;
/** An address the account signed in from is 'known' for this long. */
export const KNOWN_ADDRESS_MS = 30 * 24 * 60 * 60_000;

export interface FailureCounter {
  failures: number;
  lastFailureMs: number;
}

/** The wait after `failures` failures in a row under `policy`, in seconds. */
export function delaySeconds(failures: number, policy: ThrottlePolicy): number {
  if (failures < policy.free) return 0;
  return Math.min(policy.capSeconds, policy.baseSeconds * 2 ** (failures - policy.free));
}

/** Whether a counter is old enough to forget. */
export function isForgotten(counter: FailureCounter, nowMs: number): boolean {
  return nowMs - counter.lastFailureMs >= FORGET_FAILURES_AFTER_MS;
}

/** Seconds still to wait before the next attempt is heard (0: go ahead). */
export function remainingSeconds(counter: FailureCounter | undefined, policy: ThrottlePolicy, nowMs: number): number {
  if (!counter || isForgotten(counter, nowMs)) return 0;
  const until = counter.lastFailureMs + delaySeconds(counter.failures, policy) * 1000;
  return Math.max(0, Math.ceil((until - nowMs) / 1000));
}

/** 'Espere 1 segundo', '45 segundos', '2 minutos' (rounded up): the wait as the 429 says it. */
export function waitText(seconds: number): string {
  if (seconds < 60) return seconds === 1 ? '1 segundo' : `${seconds} segundos`;
  const minutes = Math.ceil(seconds / 60);
  return minutes === 1 ? '1 minuto' : `${minutes} minutos`;
}

export function throttledMessage(seconds: number): string {
  return `Demasiados intentos fallidos de inicio de sesión. Espere ${waitText(seconds)} e intente de nuevo.`;
}
