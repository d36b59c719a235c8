/**
 * The lifecycle's table of cases, in one place: activities.test.ts holds the pure rules
 * (activityStatusAt, orderStatusAt) to it, and tests/api/lifecycle-rule.test.ts runs the API's
 * lifecycle job (orders.lifecycle.ts, SQL over whole tables) over rows built from the same rows and
 * expects what the pure rules answer. Test data only: nothing in the product imports it.
 */

/** Every activity of the activity cases is programmed at this instant. */
export const CASE_PROGRAMMED_AT = '2026-01-01T08:00:00Z';
/** The order cases' first and last activities. */
export const CASE_FIRST_AT = '2026-01-01T08:00:00Z';
export const CASE_LAST_AT = '2026-01-03T08:00:00Z';

/** [activity status, now, status the lifecycle leaves it in]. */
export const ACTIVITY_LIFECYCLE_CASES: ReadonlyArray<readonly [number, string, number]> = [
  [0, '2026-01-01T07:59:00Z', 0],
  [0, '2026-01-01T08:00:00Z', 1],
  [0, '2026-01-01T08:59:59Z', 1],
  [1, '2026-01-01T09:00:00Z', 6],
  [0, '2026-01-01T10:00:00Z', 6],
  [2, '2026-01-01T10:00:00Z', 2],
  [3, '2026-01-01T10:00:00Z', 3],
  [5, '2026-01-01T10:00:00Z', 5],
];

/** [order status, now, permanent, status the lifecycle leaves it in]. */
export const ORDER_LIFECYCLE_CASES: ReadonlyArray<readonly [number, string, boolean, number]> = [
  [1, '2026-01-01T07:00:00Z', false, 1],
  [1, '2026-01-01T08:00:00Z', false, 2],
  [2, '2026-01-03T09:00:00Z', false, 4],
  [2, '2026-01-03T09:00:00Z', true, 2],
  [0, '2026-01-03T09:00:00Z', false, 0],
  [3, '2026-01-03T09:00:00Z', false, 3],
];
