/**
 * In-process sliding-window counter for cheap abuse limits (staff login attempts). Durable limits
 * that must survive a restart or span processes (the patient one-time code, D17) live in the
 * database instead.
 */
export class RateLimiter {
  private hits = new Map<string, number[]>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  /** Seconds to wait when `key` is over its limit, else 0. Does not record a hit. */
  retryAfter(key: string, now = Date.now()): number {
    const list = this.prune(key, now);
    if (list.length < this.limit) return 0;
    return Math.ceil((list[0] + this.windowMs - now) / 1000);
  }

  hit(key: string, now = Date.now()): void {
    const list = this.prune(key, now);
    list.push(now);
    this.hits.set(key, list);
    if (this.hits.size > 50_000) this.sweep(now);
  }

  reset(key: string): void {
    this.hits.delete(key);
  }

  private prune(key: string, now: number): number[] {
    const list = (this.hits.get(key) ?? []).filter((t) => t > now - this.windowMs);
    if (list.length) this.hits.set(key, list);
    else this.hits.delete(key);
    return list;
  }

  private sweep(now: number) {
    for (const key of [...this.hits.keys()]) this.prune(key, now);
  }
}
