import { KNOWN_ADDRESS_MS, SIGN_IN_THROTTLE, isForgotten, remainingSeconds, type FailureCounter } from './throttle.rules.js';

/** Entries kept before the oldest are dropped: a flood of invented e-mails cannot grow memory without bound. */
const MAX_ENTRIES = 100_000;

/**
 * The sign-in throttle's counters, in this process's memory (the rules: throttle.rules.ts).
 *
 * Why memory and not a table: a failed sign-in would otherwise add a write to SQLite's single
 * writer, beside ingestion, and an attacker's stream of failures would be a stream of writes. The
 * cost of memory: a restart forgets the counters (the bcrypt compare still costs every guess ~60
 * ms), and two API processes count apart, which under exponential waits only shifts the wait by
 * one doubling (log2 of the processes), not by a factor.
 */
export class SignInThrottle {
  private readonly counters = new Map<string, FailureCounter>();
  private readonly known = new Map<string, number>();

  /** Seconds before `email` may be tried again from `ip` (0: now). */
  waitSeconds(email: string, ip: string, nowMs: number): number {
    const pair = remainingSeconds(this.counters.get(pairKey(email, ip)), SIGN_IN_THROTTLE.pair, nowMs);
    const address = remainingSeconds(this.counters.get(`a:${ip}`), SIGN_IN_THROTTLE.address, nowMs);
    const knownAt = this.known.get(pairKey(email, ip));
    const fromKnownAddress = knownAt !== undefined && nowMs - knownAt < KNOWN_ADDRESS_MS;
    const account = fromKnownAddress ? 0 : remainingSeconds(this.counters.get(`e:${email}`), SIGN_IN_THROTTLE.account, nowMs);
    return Math.max(pair, address, account);
  }

  failed(email: string, ip: string, nowMs: number): void {
    for (const key of [pairKey(email, ip), `a:${ip}`, `e:${email}`]) {
      const before = this.counters.get(key);
      const failures = before && !isForgotten(before, nowMs) ? before.failures + 1 : 1;
      // Re-inserted so the map's order is the order of last failure (the oldest are dropped first).
      this.counters.delete(key);
      this.counters.set(key, { failures, lastFailureMs: nowMs });
    }
    this.trim(this.counters, (c) => isForgotten(c, nowMs));
  }

  /** The account's own counters start again; the address's do not (it may be spraying others). */
  succeeded(email: string, ip: string, nowMs: number): void {
    this.counters.delete(pairKey(email, ip));
    this.counters.delete(`e:${email}`);
    this.known.delete(pairKey(email, ip));
    this.known.set(pairKey(email, ip), nowMs);
    this.trim(this.known, (at) => nowMs - at >= KNOWN_ADDRESS_MS);
  }

  private trim<V>(map: Map<string, V>, stale: (v: V) => boolean): void {
    if (map.size <= MAX_ENTRIES) return;
    for (const [key, v] of map) if (stale(v)) map.delete(key);
    for (const key of map.keys()) {
      if (map.size <= MAX_ENTRIES * 0.9) break;
      map.delete(key);
    }
  }
}

const pairKey = (email: string, ip: string) => `p:${email}|${ip}`;
