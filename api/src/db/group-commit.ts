/**
 * Group commit: work items that arrive while a flush is running wait and go together into the next
 * one, so a burst of N single readings costs one transaction (one BEGIN, one COMMIT, one pass of
 * the hooks) instead of N. The first item of a quiet period is flushed at once, alone: batching
 * adds no latency when there is no queue.
 *
 * With `concurrency` above 1 (PostgreSQL, where writers run side by side on their own
 * connections), up to that many groups are in flight at once, and two of them never share a key
 * (`keysOf`: the patients an item writes for): what one group reads and writes for a patient is
 * never written by another group meanwhile, and a patient's items keep the order they came in.
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
   * the next group goes right away. Only with a concurrency of 1.
   */
  spacingMs?: number;
  /** Groups in flight at once; default 1. Above 1, keysOf is required. */
  concurrency?: number;
  /** What an item writes for (patient ids): groups in flight at once never share one. */
  keysOf?: (item: T) => readonly (number | string)[];
  /**
   * A group starts beside one already in flight only if it is at least this size (default 1): a
   * second transaction pays for itself on a group of many rows, while a few single readings cost
   * less waiting for the next turn, together, than as a transaction of their own.
   */
  minSizeBeside?: number;
}

interface Waiting<T, R> {
  item: T;
  resolve: (r: R) => void;
  reject: (e: unknown) => void;
}

export class GroupCommit<T, R> {
  private queue: Waiting<T, R>[] = [];
  private readonly sizeOf: (item: T) => number;
  private readonly maxSize: number;
  private readonly spacingMs: number;
  private readonly concurrency: number;
  private readonly keysOf: ((item: T) => readonly (number | string)[]) | null;
  private readonly minSizeBeside: number;
  /** Groups flushing (or retrying item by item) now. */
  private inFlight = 0;
  /** The keys of the groups in flight. */
  private readonly busy = new Set<number | string>();
  private lastStartedAt = 0;
  /** Set by flushPending(): no more spacing, the rest goes at once. */
  private hurry = false;
  private paceTimer: ReturnType<typeof setTimeout> | null = null;
  private whenIdle: Array<() => void> = [];

  /** `flush` writes a group and answers one result per item, in order. */
  constructor(
    private readonly flush: (items: T[]) => Promise<R[]>,
    opts: GroupCommitOptions<T> = {},
  ) {
    this.sizeOf = opts.sizeOf ?? (() => 1);
    this.maxSize = opts.maxSize ?? 1000;
    this.spacingMs = opts.spacingMs ?? 0;
    this.concurrency = opts.concurrency ?? 1;
    this.keysOf = opts.keysOf ?? null;
    this.minSizeBeside = opts.minSizeBeside ?? 1;
    if (this.concurrency > 1 && (!this.keysOf || this.spacingMs))
      throw new Error('GroupCommit: a concurrency above 1 needs keysOf and no spacing');
  }

  submit(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      this.pump();
    });
  }

  /**
   * Before closing the database: writes what is queued now, without waiting for the spacing, and
   * resolves once nothing is left to write (the audit trail's last events at shutdown).
   */
  flushPending(): Promise<void> {
    this.hurry = true;
    if (this.paceTimer) {
      clearTimeout(this.paceTimer);
      this.paceTimer = null;
    }
    this.pump();
    if (!this.inFlight && !this.queue.length) return Promise.resolve();
    return new Promise((resolve) => this.whenIdle.push(resolve));
  }

  /** Items waiting for the next flush (for tests and metrics). */
  get waiting(): number {
    return this.queue.length;
  }

  /** Starts groups while a slot is free and some waiting item's keys are not in flight. */
  private pump(): void {
    while (this.inFlight < this.concurrency && this.queue.length && !this.paceTimer) {
      if (this.spacingMs && !this.hurry) {
        const wait = this.lastStartedAt + this.spacingMs - Date.now();
        if (wait > 0) {
          this.paceTimer = setTimeout(() => {
            this.paceTimer = null;
            this.pump();
          }, wait);
          return;
        }
      }
      const group = this.takeGroup();
      if (!group.length) return;
      this.start(group);
    }
  }

  /**
   * The next group: waiting items in order up to maxSize; with keys, only items whose keys are not
   * in flight, and none after an item of the same key that has to wait (a patient's order holds).
   */
  private takeGroup(): Waiting<T, R>[] {
    if (!this.keysOf) {
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
    const taken: number[] = [];
    const held = new Set<number | string>();
    let size = 0;
    for (let i = 0; i < this.queue.length; i++) {
      const keys = this.keysOf(this.queue[i].item);
      const s = this.sizeOf(this.queue[i].item);
      if ((taken.length && size + s > this.maxSize) || keys.some((k) => this.busy.has(k) || held.has(k))) {
        for (const k of keys) held.add(k);
        continue;
      }
      taken.push(i);
      size += s;
    }
    if (this.inFlight && size < this.minSizeBeside) return [];
    const group = taken.map((i) => this.queue[i]);
    const picked = new Set(taken);
    this.queue = this.queue.filter((_, i) => !picked.has(i));
    return group;
  }

  /**
   * Flushes a group. When it is written, the next groups start before its waiters are answered:
   * their transactions are under way while the answers are built, instead of the database waiting
   * for them (bench: batch ingestion had the main thread idle 40% of the time).
   */
  private start(group: Waiting<T, R>[]): void {
    this.inFlight++;
    const keys = this.keysOf ? group.flatMap((w) => this.keysOf!(w.item)) : [];
    for (const k of keys) this.busy.add(k);
    this.lastStartedAt = Date.now();
    const done = () => {
      this.inFlight--;
      for (const k of keys) this.busy.delete(k);
      this.pump();
      if (!this.inFlight && !this.queue.length) {
        const idle = this.whenIdle;
        this.whenIdle = [];
        idle.forEach((resolve) => resolve());
      }
    };
    let flushing: Promise<R[]>;
    try {
      flushing = this.flush(group.map((w) => w.item));
    } catch (err) {
      flushing = Promise.reject(err);
    }
    flushing.then(
      (results) => {
        done();
        group.forEach((w, i) => w.resolve(results[i]));
      },
      (err: unknown) => {
        if (group.length === 1) {
          done();
          group[0].reject(err);
        } else void this.retryAlone(group).then(done);
      },
    );
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
