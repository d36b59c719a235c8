/**
 * SQLite: each connection keeps its statements prepared (issue 22). node-sqlite3's `db.all(sql)`
 * parses and plans the text, runs it and throws the plan away; the hot path sends the same texts
 * thousands of times a second (the session read, the patient lookup, the group's INSERT, the
 * hooks' reads). Measured on the benchmark's data set, one statement at a time: 110-170 µs of CPU
 * freshly prepared against 45-85 µs prepared once, for each of the ingestion path's reads.
 *
 * - Statements run one at a time per connection, in the order sent, each after the one before
 *   answered: what node-sqlite3's serialize() gave them (a transaction's statements rely on it).
 *   A prepared statement does not go through that queue, so this one replaces it.
 * - At most MAX_PREPARED texts per connection (IN lists make one text per length), the least
 *   recently used finalized first.
 * - `run` steps a statement once: one that answers rows (`RETURNING`, a PRAGMA, a SELECT) would
 *   stay open after its first row, holding its transaction or the write lock. Only writes without
 *   RETURNING and transaction control are kept; the rest are prepared, run and finalized each
 *   time, as before.
 * - Before the connection closes, its statements are finalized (SQLite refuses to close otherwise).
 */
export interface SqliteStatement {
  all(params: unknown[], cb: (err: Error | null, rows: unknown[]) => void): void;
  run(params: unknown[], cb: (this: RunInfo, err: Error | null) => void): void;
  finalize(cb?: (err: Error | null) => void): void;
}
export interface RunInfo {
  changes: number;
  lastID: number;
}
/** The part of node-sqlite3's Database used here. */
export interface SqliteDatabase {
  prepare(sql: string, cb?: (err: Error | null) => void): SqliteStatement;
  run(sql: string, params: unknown[], cb: (this: RunInfo, err: Error | null) => void): void;
  close(cb?: (err: Error | null) => void): void;
}

export const MAX_PREPARED = 200;
/** Writes and transaction control that answer no rows: run steps them to the end. */
const KEPT_BY_RUN = /^\s*(INSERT|UPDATE|DELETE|REPLACE|BEGIN|COMMIT|END|ROLLBACK|SAVEPOINT|RELEASE)\b/i;
const RETURNS_ROWS = /\bRETURNING\b/i;
const keptByRun = (text: string) => KEPT_BY_RUN.test(text) && !RETURNS_ROWS.test(text);

type Job = (done: () => void) => void;

export class PreparedStatements {
  private readonly statements = new Map<string, SqliteStatement>();
  private readonly queue: Job[] = [];
  private busy = false;

  constructor(private readonly db: SqliteDatabase) {
    const close = db.close.bind(db);
    db.close = (cb?: (err: Error | null) => void) => {
      const open = [...this.statements.values()];
      this.statements.clear();
      let left = open.length;
      if (!left) return close(cb);
      for (const s of open) s.finalize(() => --left || close(cb));
    };
  }

  /**
   * The text's statement, prepared on first use; the most recently used go last (LRU order). A
   * text that does not prepare (bad SQL, a table not there yet) answers the error and is not kept:
   * node-sqlite3 drops the calls queued on such a statement without answering them.
   */
  private withStatement(text: string, use: (err: Error | null, s?: SqliteStatement) => void): void {
    const cached = this.statements.get(text);
    if (cached) {
      this.statements.delete(text);
      this.statements.set(text, cached);
      return use(null, cached);
    }
    const s = this.db.prepare(text, (err) => {
      if (err) return use(err);
      if (this.statements.size >= MAX_PREPARED) {
        const [oldest, stale] = this.statements.entries().next().value as [string, SqliteStatement];
        this.statements.delete(oldest);
        stale.finalize();
      }
      this.statements.set(text, s);
      use(null, s);
    });
  }

  private enqueue(job: Job): void {
    this.queue.push(job);
    if (!this.busy) this.next();
  }

  private next(): void {
    const job = this.queue.shift();
    this.busy = !!job;
    if (job) job(() => this.next());
  }

  all(text: string, params: unknown[], cb: (err: Error | null, rows: unknown[]) => void): void {
    this.enqueue((done) =>
      this.withStatement(text, (prepareError, s) => {
        if (!s) {
          done();
          return cb(prepareError, []);
        }
        s.all(params, (err, rows) => {
          if (err) this.forget(text, s);
          done();
          cb(err, rows);
        });
      }),
    );
  }

  run(text: string, params: unknown[], cb: (err: Error | null, info?: RunInfo) => void): void {
    this.enqueue((done) => {
      const answer = function (this: RunInfo, err: Error | null) {
        done();
        cb(err, err ? undefined : { changes: this.changes, lastID: this.lastID });
      };
      if (!keptByRun(text)) return this.db.run(text, params, answer);
      this.withStatement(text, (prepareError, s) => {
        if (!s) {
          done();
          return cb(prepareError);
        }
        const forget = () => this.forget(text, s);
        s.run(params, function (err) {
          if (err) forget();
          answer.call(this, err);
        });
      });
    });
  }

  /** A statement whose run failed (a constraint, a busy database) is prepared again next time. */
  private forget(text: string, s: SqliteStatement): void {
    if (this.statements.get(text) !== s) return;
    this.statements.delete(text);
    s.finalize();
  }

  /** Statements sent to this connection and not yet answered. */
  get waiting(): number {
    return this.queue.length + (this.busy ? 1 : 0);
  }

  get size(): number {
    return this.statements.size;
  }
}

const byConnection = new WeakMap<SqliteDatabase, PreparedStatements>();

/** The connection's prepared statements and their queue, set up on first use. */
export function preparedStatements(db: SqliteDatabase): PreparedStatements {
  let p = byConnection.get(db);
  if (!p) byConnection.set(db, (p = new PreparedStatements(db)));
  return p;
}
