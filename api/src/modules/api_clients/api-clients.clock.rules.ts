/**
 * When a client assertion may be used (issue 49), pure, `now` passed in: SMART App Launch 2.2
 * 'Backend Services' §'Authenticating to the token endpoint': `exp` "SHALL be no more than five
 * minutes in the future"; RFC 7519 §4.1.4-6 (`exp`, `nbf`, `iat`), whose checks "MAY provide for
 * some small leeway, usually no more than a few minutes, to account for clock skew".
 *
 * The client's clock and ours never agree to the second: the official SMART Bulk Data client sends
 * `exp = Math.round(Date.now() / 1000) + 300`, which half the time is 301 seconds ahead of our
 * floored second. So each time claim may be off by up to CLOCK_SKEW_S either way, inclusive.
 */

/** How far ahead of now an assertion's `exp` may be (SMART Backend Services: five minutes). */
export const MAX_ASSERTION_LIFETIME_S = 300;
/** The allowance for clock skew, either way, on `exp`, `iat` and `nbf`. */
export const CLOCK_SKEW_S = 60;

export interface AssertionTimes {
  exp?: unknown;
  iat?: unknown;
  nbf?: unknown;
}

const isTime = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/**
 * Why the assertion's time claims refuse it at `nowSeconds` (null: accepted). `exp` is required;
 * `iat` and `nbf` are optional, and checked when present. The reason is for the log only.
 */
export function assertionTimeProblem(claims: AssertionTimes, nowSeconds: number): string | null {
  if (!isTime(claims.exp)) return 'exp missing';
  if (claims.iat !== undefined && !isTime(claims.iat)) return 'iat not a number';
  if (claims.nbf !== undefined && !isTime(claims.nbf)) return 'nbf not a number';
  if (claims.exp < nowSeconds - CLOCK_SKEW_S) return 'expired';
  if (claims.exp > nowSeconds + MAX_ASSERTION_LIFETIME_S + CLOCK_SKEW_S) return 'exp too far ahead';
  if (isTime(claims.iat) && claims.iat > nowSeconds + CLOCK_SKEW_S) return 'iat in the future';
  if (isTime(claims.nbf) && claims.nbf > nowSeconds + CLOCK_SKEW_S) return 'not yet valid';
  return null;
}

/**
 * Until when (seconds) an accepted assertion's `jti` must be remembered: as long as the same
 * assertion could still be accepted, its `exp` plus the allowance. Remembered only until `exp`, an
 * assertion sent again within the allowance would pass as new.
 */
export function jtiKeptUntil(exp: number): number {
  return exp + CLOCK_SKEW_S;
}
