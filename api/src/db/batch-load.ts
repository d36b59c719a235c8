/**
 * Point lookups that arrive in the same turn of the event loop go to the database together, as one
 * `WHERE key IN (...)`: under load, the session behind every request and the patient behind every
 * reading cost one statement per turn instead of one per request (issue 7: each statement is a
 * round trip to the driver's thread). A lone lookup waits one setImmediate, a few microseconds.
 * Nothing is cached: every lookup reads the database after it was asked for.
 */
export class BatchLoader<K, V> {
  private pending = new Map<K, Array<{ resolve: (v: V | undefined) => void; reject: (e: unknown) => void }>>();
  private scheduled = false;

  /** `loadMany` answers the rows it found by key; a key it leaves out is answered undefined. */
  constructor(
    private readonly loadMany: (keys: K[]) => Promise<Map<K, V>>,
    private readonly maxKeys = 500,
  ) {}

  load(key: K): Promise<V | undefined> {
    return new Promise((resolve, reject) => {
      const waiting = this.pending.get(key);
      if (waiting) waiting.push({ resolve, reject });
      else this.pending.set(key, [{ resolve, reject }]);
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    this.scheduled = false;
    const all = [...this.pending];
    this.pending = new Map();
    for (let i = 0; i < all.length; i += this.maxKeys) {
      const chunk = all.slice(i, i + this.maxKeys);
      this.loadMany(chunk.map(([k]) => k)).then(
        (found) => {
          for (const [k, waiting] of chunk) for (const w of waiting) w.resolve(found.get(k));
        },
        (err) => {
          for (const [, waiting] of chunk) for (const w of waiting) w.reject(err);
        },
      );
    }
  }
}
