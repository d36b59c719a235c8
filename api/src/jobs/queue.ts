import type { Sequelize, Transaction } from 'sequelize';
import { BACKGROUND, execute, select } from '../db/sql.js';
import { retryDelayMs } from './jobs.rules.js';
import { databaseFailureOf } from '../db/unavailable.rules.js';

/**
 * Durable background work. A job is a row in `jobs`; it is claimed by one process at a time
 * (`FOR UPDATE SKIP LOCKED` on PostgreSQL; SQLite has a single writer), retried with exponential
 * back-off when its handler throws, and marked `failed` after `max_attempts`. A job whose process
 * died while running it is claimed again once its lock (`locked_until`) has passed, so work is
 * never lost; handlers must therefore be idempotent (check before acting, or use conditional
 * UPDATEs), which also makes two API processes on one PostgreSQL safe.
 */

export interface JobRow {
  id: number;
  kind: string;
  key: string | null;
  client_id: number | null;
  payload: unknown;
  attempts: number;
  max_attempts: number;
  run_at: Date;
}

export interface EnqueueInput {
  kind: string;
  payload: unknown;
  /** When to run (default: now). */
  runAt?: Date;
  /** Idempotency key: a second job with the same key is ignored (answers false). */
  key?: string;
  clientId?: number | null;
  maxAttempts?: number;
}

interface JobContext {
  now: Date;
  sequelize: Sequelize;
  /**
   * Aborted when the process stops (SIGTERM). A long handler (a Bulk export) may then end what is in
   * flight and throw JobYielded: its job goes back at once, for the next process to take up.
   */
  stopping: AbortSignal;
}

/** Thrown by a handler that gives its job back because the process stops: due again now, the attempt not counted. */
export class JobYielded extends Error {
  constructor() {
    super('La tarea se devolvió a la cola: el proceso se detiene');
  }
}

/** The signal of runs that are not stopped from outside (runDue, drain). */
const NEVER_STOPPING = new AbortController().signal;

/** A handler finishes normally (done), or throws (retried later, or failed after max_attempts). */
type JobHandler = (job: JobRow, ctx: JobContext) => Promise<void>;

interface JobKind {
  handler: JobHandler;
  /** Called once when the job gives up (after max_attempts failures). */
  onFailed?: (job: JobRow, error: string, ctx: JobContext) => Promise<void>;
  /**
   * Jobs of this kind run in a pool of their own, this many at once, beside the other work (which
   * runs one job at a time): a send that waits on a slow peer then holds one place of its pool,
   * not the queue (issue 41).
   */
  concurrency?: number;
  /**
   * How long a claim of this kind holds before another process may take the job again; longer
   * than anything the handler may wait on, or a slow run would be run twice. Default LOCK_MS.
   */
  lockMs?: number;
}

/** A recurring task: one job per time slot, keyed by slot, so two processes run each slot once. */
interface RecurringTask {
  kind: string;
  everyMs: number;
  handler: (ctx: JobContext) => Promise<void>;
}

export const LOCK_MS = 5 * 60_000;

/** Queues a job; inside `transaction` it exists only if that transaction commits. */
export async function enqueueJob(sequelize: Sequelize, input: EnqueueInput, transaction?: Transaction, now = new Date()): Promise<boolean> {
  const affected = await execute(
    sequelize,
    `INSERT INTO jobs (kind, key, client_id, payload, status, run_at, attempts, max_attempts, created_at, updated_at)
     VALUES (:kind, :key, :clientId, :payload, 'pending', :runAt, 0, :max, :now, :now)
     ON CONFLICT (key) DO NOTHING`,
    {
      kind: input.kind,
      key: input.key ?? null,
      clientId: input.clientId ?? null,
      payload: JSON.stringify(input.payload ?? null),
      runAt: input.runAt ?? now,
      max: input.maxAttempts ?? 8,
      now,
    },
    transaction,
  );
  return affected > 0;
}

/**
 * Renews a running job's claim (a long job, e.g. a FHIR export, calls it as it goes), so another
 * process takes it over only once this one has stopped renewing: it died.
 */
export async function extendJobLock(sequelize: Sequelize, jobId: number, until: Date): Promise<void> {
  await execute(sequelize, "UPDATE jobs SET locked_until = :until WHERE id = :id AND status = 'running'", { id: jobId, until });
}

export interface JobRunner {
  /** Registers what a kind of job does (once per kind). */
  register(kind: string, definition: JobKind | JobHandler): void;
  /** Registers a task that runs every `everyMs` (at most once per slot across processes). */
  every(task: RecurringTask): void;
  /** Claims and runs the jobs due at `now` (tests call this with an injected clock). Answers how many ran. */
  runDue(opts?: { now?: Date; limit?: number; kinds?: string[] }): Promise<number>;
  /** Runs due jobs until none are left (bounded), for tests and shutdown. */
  drain(opts?: { now?: Date; kinds?: string[] }): Promise<number>;
  /** Polls in the background; answers a stop function. */
  start(intervalMs?: number): () => Promise<void>;
  enqueue(input: EnqueueInput, transaction?: Transaction): Promise<boolean>;
  /**
   * Moves the pending jobs of `kind` keyed `key` (or `key:…`, follow-ups of the same work) to
   * `runAt`; a job already running or done is left as it is. Answers how many moved.
   */
  reschedule(kind: string, key: string, runAt: Date, transaction?: Transaction): Promise<number>;
}

/** Polls while the database cannot be reached: the interval doubling up to this (issue 49). */
export const OUTAGE_MAX_DELAY_MS = 30_000;

/** Lines of the runner's own life (info) and of each job run (debug, LOG_LEVEL=debug); both optional. */
interface RunnerLines {
  info(fields: object, msg: string): void;
  debug(fields: object, msg: string): void;
  isLevelEnabled?(level: string): boolean;
}

export function createJobRunner(deps: {
  sequelize: Sequelize;
  now: () => Date;
  log: (msg: string, err?: unknown) => void;
  lines?: RunnerLines;
}): JobRunner {
  const kinds = new Map<string, JobKind>();
  const recurring: RecurringTask[] = [];
  const { sequelize } = deps;
  const postgres = sequelize.getDialect() === 'postgres';

  // The slot each recurring task was last queued for by this process (issue 52): the poll asked the
  // database to queue every task each second, one write each, which on SQLite took the one writer's
  // lock from the readings twenty times a second to be told the slot was queued already.
  const queuedSlots = new Map<string, number>();
  async function scheduleRecurring(now: Date) {
    for (const task of recurring) {
      const slot = Math.floor(now.getTime() / task.everyMs);
      if (queuedSlots.get(task.kind) === slot) continue;
      await enqueueJob(
        sequelize,
        { kind: task.kind, payload: null, key: `${task.kind}:${slot}`, runAt: new Date(slot * task.everyMs), maxAttempts: 1 },
        undefined,
        now,
      );
      queuedSlots.set(task.kind, slot);
    }
  }

  /** The kinds that run in pools of their own. */
  const pooled = () => [...kinds].filter(([, k]) => (k.concurrency ?? 0) > 0).map(([name]) => name);

  async function claim(now: Date, limit: number, filter: { only?: string[]; except?: string[]; lockMs?: number }): Promise<JobRow[]> {
    const { only, except } = filter;
    const kindFilter = `${only?.length ? 'AND kind IN (:only)' : ''} ${except?.length ? 'AND kind NOT IN (:except)' : ''}`;
    const dueWhere = `((status = 'pending' AND run_at <= :now) OR (status = 'running' AND locked_until < :now)) ${kindFilter}`;
    // SQLite: the pending and the expired apart, each in its order and limited, then the first of
    // both (migration 0043's jobs_pending index walks a kind's pending jobs by run_at and stops). As
    // one OR, SQLite read every job of the kind, done ones included, and sorted the due ones: with an
    // RDA backlog of 10,000 each claim of its pool took 20-80 ms inside the writer's turn, and the
    // readings queued behind it (issue 51).
    const sqliteDue = (n: string) =>
      `SELECT id FROM (
         SELECT * FROM (SELECT id, run_at FROM jobs WHERE status = 'pending' AND run_at <= :now ${kindFilter} ORDER BY run_at, id LIMIT ${n})
         UNION ALL
         SELECT * FROM (SELECT id, run_at FROM jobs WHERE status = 'running' AND locked_until < :now ${kindFilter} ORDER BY run_at, id LIMIT ${n})
       ) ORDER BY run_at, id LIMIT ${n}`;
    const due = postgres
      ? `SELECT id FROM jobs WHERE ${dueWhere} ORDER BY run_at, id LIMIT :limit FOR UPDATE SKIP LOCKED`
      : sqliteDue(':limit');
    const replacements = { now, limit, only: only ?? [], except: except ?? [] };
    // SQLite: asked on a reader first (issue 52). The claim is an UPDATE, a write even when nothing
    // is due, and the serial poll and each pool claimed every second on the one writer connection.
    if (!postgres && !(await select(sequelize, `SELECT 1 AS due FROM (${sqliteDue('1')})`, replacements, BACKGROUND)).length) return [];
    const rows = await select<JobRow & { payload: string }>(
      sequelize,
      `UPDATE jobs SET status = 'running', locked_until = :lock, attempts = attempts + 1, updated_at = :now
       WHERE id IN (${due}) RETURNING id, kind, key, client_id, payload, attempts, max_attempts, run_at`,
      { ...replacements, lock: new Date(now.getTime() + (filter.lockMs ?? LOCK_MS)) },
    );
    return rows
      .map((r) => ({
        ...r,
        id: Number(r.id),
        attempts: Number(r.attempts),
        max_attempts: Number(r.max_attempts),
        payload: JSON.parse(r.payload) as unknown,
      }))
      .sort((a, b) => a.id - b.id);
  }

  const debugRuns = deps.lines?.isLevelEnabled?.('debug') ?? false;
  /** LOG_LEVEL=debug: each run's kind, id, attempt, outcome and time; never its payload (it may name a patient). */
  const logRun = (job: JobRow, start: number, outcome: string) =>
    deps.lines?.debug(
      { kind: job.kind, jobId: job.id, attempt: job.attempts, outcome, ms: Math.round((performance.now() - start) * 10) / 10 },
      'tarea',
    );

  async function runOne(job: JobRow, now: Date, stopping = NEVER_STOPPING) {
    const ctx: JobContext = { now, sequelize, stopping };
    const kind = kinds.get(job.kind);
    const start = debugRuns ? performance.now() : 0;
    try {
      if (!kind) throw new Error(`Tipo de tarea desconocido: ${job.kind}`);
      await kind.handler(job, ctx);
      if (debugRuns) logRun(job, start, 'done');
      await execute(
        sequelize,
        "UPDATE jobs SET status = 'done', locked_until = NULL, last_error = NULL, updated_at = :now WHERE id = :id",
        { id: job.id, now },
      );
    } catch (err) {
      if (err instanceof JobYielded) return releaseJob(job);
      if (debugRuns) logRun(job, start, job.attempts >= job.max_attempts ? 'failed' : 'retry');
      const message = err instanceof Error ? err.message : String(err);
      if (job.attempts >= job.max_attempts) {
        await execute(
          sequelize,
          "UPDATE jobs SET status = 'failed', locked_until = NULL, last_error = :message, updated_at = :now WHERE id = :id",
          { id: job.id, message, now },
        );
        try {
          await kind?.onFailed?.(job, message, ctx);
        } catch (e) {
          deps.log(`tarea ${job.kind} #${job.id}: onFailed falló`, e);
        }
      } else {
        // The back-off counts from the failure, not from the claim: a try that waited 30 s on a
        // peer must not be retried at once (issue 41).
        const failedAt = Math.max(now.getTime(), deps.now().getTime());
        const runAt = new Date(failedAt + retryDelayMs(job.attempts));
        await execute(
          sequelize,
          "UPDATE jobs SET status = 'pending', run_at = :runAt, locked_until = NULL, last_error = :message, updated_at = :now WHERE id = :id",
          { id: job.id, runAt, message, now },
        );
      }
    }
  }

  /** Gives back a claim never run (or yielded): due again now, its attempt not counted. */
  async function releaseJob(job: JobRow) {
    await execute(
      sequelize,
      "UPDATE jobs SET status = 'pending', locked_until = NULL, attempts = attempts - 1 WHERE id = :id AND status = 'running'",
      { id: job.id },
    );
  }

  const runner: JobRunner = {
    register(kind, definition) {
      kinds.set(kind, typeof definition === 'function' ? { handler: definition } : definition);
    },
    every(task) {
      recurring.push(task);
      kinds.set(task.kind, { handler: (_job, ctx) => task.handler(ctx) });
    },
    async runDue(opts = {}) {
      const now = opts.now ?? deps.now();
      await scheduleRecurring(now);
      const limit = opts.limit ?? 50;
      const pools = pooled().filter((k) => !opts.kinds?.length || opts.kinds.includes(k));
      const onlyPooled = Boolean(opts.kinds?.length) && opts.kinds!.every((k) => pools.includes(k));
      const serial = onlyPooled ? [] : await claim(now, limit, { only: opts.kinds?.filter((k) => !pools.includes(k)), except: pools });
      for (const job of serial) await runOne(job, now);
      let total = serial.length;
      // Each pool's jobs run side by side, at most its concurrency at once.
      await Promise.all(
        pools.map(async (kind) => {
          const jobs = await claim(now, limit, { only: [kind], lockMs: kinds.get(kind)!.lockMs });
          total += jobs.length;
          const width = kinds.get(kind)!.concurrency!;
          await Promise.all(
            Array.from({ length: Math.min(width, jobs.length) }, async () => {
              for (let job = jobs.shift(); job; job = jobs.shift()) await runOne(job, now);
            }),
          );
        }),
      );
      return total;
    },
    async drain(opts = {}) {
      let total = 0;
      for (let i = 0; i < 100; i++) {
        const n = await runner.runDue({ ...opts, limit: 200 });
        total += n;
        if (n === 0) break;
      }
      return total;
    },
    start(intervalMs = 1000) {
      let stopped = false;
      const stopping = new AbortController();
      // The other work runs one batch at a time; each pool takes what its free places allow, and a
      // job of a pool runs on without holding the next poll (issue 41: one hanging send delayed
      // every other message by 34 s).
      let serialRun: Promise<unknown> | null = null;
      const inFlight = new Map<string, number>();
      const claiming = new Set<string>();
      const running = new Set<Promise<unknown>>();
      // Issue 49: with the database unreachable every poll failed, four error lines with stack
      // traces a second. One line when it goes; then only the serial poll probes, the wait between
      // probes doubling up to OUTAGE_MAX_DELAY_MS; one line when it answers again.
      let outage: { since: number; delayMs: number; retryAt: number } | null = null;
      const failed = (e: unknown) => {
        if (databaseFailureOf(e) !== 'unreachable') return deps.log('cola de tareas', e);
        const at = Date.now();
        if (!outage) {
          outage = { since: at, delayMs: intervalMs, retryAt: at + intervalMs };
          deps.log('la base de datos no responde: la cola de tareas espera y lo vuelve a intentar cada vez más espaciado');
        } else if (at >= outage.retryAt) {
          // Only a probe's failure lengthens the wait: the work that was in flight when the database
          // went fails within the same moment and must not push the next probe out to 30 s.
          outage.delayMs = Math.min(outage.delayMs * 2, OUTAGE_MAX_DELAY_MS);
          outage.retryAt = at + outage.delayMs;
        }
      };
      const answered = () => {
        if (!outage) return;
        deps.lines?.info({ downMs: Date.now() - outage.since }, 'la base de datos responde de nuevo: la cola de tareas sigue');
        outage = null;
      };
      const track = (p: Promise<unknown>) => {
        const tracked = p.catch(failed).finally(() => running.delete(tracked));
        running.add(tracked);
        return tracked;
      };
      const poll = () => {
        if (stopped) return;
        if (outage && (serialRun || Date.now() < outage.retryAt)) return;
        const pools = outage ? [] : pooled();
        if (!serialRun)
          serialRun = track(
            (async () => {
              const now = deps.now();
              await scheduleRecurring(now);
              // Stopping (SIGTERM): the claimed jobs not begun go back at once, for another process (issue 39).
              const jobs = await claim(now, 50, { except: pooled() });
              answered();
              for (const job of jobs) await (stopped ? releaseJob(job) : runOne(job, now, stopping.signal));
            })(),
          ).finally(() => (serialRun = null));
        for (const kind of pools) fillPool(kind);
      };
      // A pool takes what its free places allow; a place that frees takes the next due job at once
      // (issue 51's bench: a backlog of RDA sends drained at 4 a second, a pool of 4 refilled only by
      // the one-second poll).
      const fillPool = (kind: string) => {
        const free = kinds.get(kind)!.concurrency! - (inFlight.get(kind) ?? 0);
        if (stopped || outage || free <= 0 || claiming.has(kind)) return;
        claiming.add(kind);
        track(
          (async () => {
            const now = deps.now();
            const jobs = await claim(now, free, { only: [kind], lockMs: kinds.get(kind)!.lockMs }).finally(() => claiming.delete(kind));
            for (const job of jobs) {
              inFlight.set(kind, (inFlight.get(kind) ?? 0) + 1);
              track(
                runOne(job, now, stopping.signal).finally(() => {
                  inFlight.set(kind, (inFlight.get(kind) ?? 1) - 1);
                  fillPool(kind);
                }),
              );
            }
          })(),
        );
      };
      const timer = setInterval(poll, intervalMs);
      return async () => {
        stopped = true;
        stopping.abort();
        clearInterval(timer);
        while (running.size) await Promise.all([...running]);
      };
    },
    enqueue(input, transaction) {
      return enqueueJob(sequelize, input, transaction, deps.now());
    },
    reschedule(kind, key, runAt, transaction) {
      return execute(
        sequelize,
        `UPDATE jobs SET run_at = :runAt, updated_at = :now
         WHERE kind = :kind AND (key = :key OR key LIKE :follow) AND status = 'pending'`,
        { kind, key, follow: `${key.replace(/[%_\\]/g, '')}:%`, runAt, now: deps.now() },
        transaction,
      );
    },
  };
  return runner;
}
