/** Back-off for a failed job: 30 s, 1 min, 2 min, ... doubling, at most 6 hours. */
export function retryDelayMs(attempts: number): number {
  const base = 30_000 * 2 ** Math.max(0, attempts - 1);
  return Math.min(base, 6 * 3600_000);
}
