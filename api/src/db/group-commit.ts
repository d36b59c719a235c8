/**
 * Group commit: work items that arrive while a flush is running wait and go together into the next
 * one, so a burst of N single readings costs one transaction (one BEGIN, one COMMIT, one pass of
 * the hooks) instead of N. The first item of a quiet period is flushed at once, alone: batching
 * adds no latency when there is no queue.
 *
 * If a flush of several items fails, each item is flushed again on its own, so one bad item (a
 * reading whose patient vanished meanwhile) fails alone and the others are stored.
 */
export interface GroupCommitOptions<T> {
  /** The size of an item (rows it writes); a group stops growing at maxSize. */
  sizeOf?: (item: T) => number;
  maxSize?: number;
  /**
   * A background writer's pace: while items keep arriving, a flush starts no sooner than this many
   * ms after the one before, so each group gathers more items and the writer takes fewer turns from
   * the requests waiting on the database (the audit trail under ingestion load). An item that
   * arrives longer than that after the last flush started is flushed at once. 0 (the default):
   * the next group goes right away.
   */
  spacingMs?: number;
}

interface Waiting<T, R> {
  item: T;
  resolve: (r: R) => void;
  reject: (e: unknown) => void;
}

export class GroupCommit<T, R> {
  private queue: Waiting<T, R>[] = [];
  private running = false;
  private readonly sizeOf: (item: T) => number;
  private readonly maxSize: number;
  private readonly spacingMs: number;
  private lastStartedAt = 0;
  /** Set by flushPending(): no more spacing, the rest goes at once. */
  private hurry = false;
  private wake: (() => void) | null = null;
  private whenIdle: Array<() => void> = [];

  /** `flush` writes a group and answers one result per item, in order. */
  constructor(
    private readonly flush: (items: T[]) => Promise<R[]>,
    opts: GroupCommitOptions<T> = {},
  ) {
    this.sizeOf = opts.sizeOf ?? (() => 1);
    this.maxSize = opts.maxSize ?? 1000;
    this.spacingMs = opts.spacingMs ?? 0;
  }

  submit(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      if (!this.running) void this.drain();
    });
  }

  /**
   * Before closing the database: writes what is queued now, without waiting for the spacing, and
   * resolves once nothing is left to write (the audit trail's last events at shutdown).
   */
  flushPending(): Promise<void> {
    this.hurry = true;
    this.wake?.();
    if (!this.running && !this.queue.length) return Promise.resolve();
    return new Promise((resolve) => this.whenIdle.push(resolve));
  }

  /** Items waiting for the next flush (for tests and metrics). */
  get waiting(): number {
    return this.queue.length;
  }

  private takeGroup(): Waiting<T, R>[] {
    let size = 0;
    let n = 0;
    while (n < this.queue.length) {
      const s = this.sizeOf(this.queue[n].item);
      if (n > 0 && size + s > this.maxSize) break;
      size += s;
      n++;
    }
    return this.queue.splice(0, n);
  }

  private settle(group: Waiting<T, R>[]): Promise<{ ok: true; results: R[] } | { ok: false }> {
    this.lastStartedAt = Date.now();
    return this.flush(group.map((w) => w.item)).then(
      (results) => ({ ok: true as const, results }),
      (err: unknown) => {
        if (group.length === 1) group[0].reject(err);
        return { ok: false as const };
      },
    );
  }

  /**
   * Groups go one after another. The next group's flush starts before the finished group's
   * waiters are answered: its transaction is under way while they build their responses, instead
   * of the database waiting for them (bench: batch ingestion had the main thread idle 40% of the time).
   */
  private async drain(): Promise<void> {
    this.running = true;
    try {
      if (this.spacingMs) await this.paced();
      let group = this.takeGroup();
      let flushing = this.settle(group);
      for (;;) {
        const outcome = await flushing;
        const next = outcome.ok && !this.spacingMs && this.queue.length ? this.takeGroup() : [];
        const nextFlushing = next.length ? this.settle(next) : null;
        if (outcome.ok) group.forEach((w, i) => w.resolve(outcome.results[i]));
        else if (group.length > 1) await this.retryAlone(group);
        if (this.spacingMs && this.queue.length) await this.paced();
        group = next.length ? next : this.takeGroup();
        if (!group.length) break;
        flushing = nextFlushing ?? this.settle(group);
      }
    } finally {
      this.running = false;
      const idle = this.whenIdle;
      this.whenIdle = [];
      idle.forEach((resolve) => resolve());
    }
  }

  /** With a spacing: waits until spacingMs after the last flush started (or flushPending() is called). */
  private async paced(): Promise<void> {
    const wait = this.lastStartedAt + this.spacingMs - Date.now();
    if (wait <= 0 || this.hurry) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, wait);
      this.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    this.wake = null;
  }

  /** A failed group of several: each item again on its own, so only the bad one fails. */
  private async retryAlone(group: Waiting<T, R>[]): Promise<void> {
    for (const w of group) {
      try {
        const [r] = await this.flush([w.item]);
        w.resolve(r);
      } catch (e) {
        w.reject(e);
      }
    }
  }
}
