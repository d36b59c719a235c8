/**
 * Password hashing, the one place that calls bcrypt: bcryptjs at cost 10 (the hashes every database
 * already holds, `$2a$`/`$2b$`), run on worker threads so a sign-in never holds the API's main
 * thread for the ~60 ms a cost-10 hash takes (issue 22: 9.5 sign-ins/s took the patient list's p95
 * from 13 to 513 ms).
 *
 * Why our own threads and not native `bcrypt`: native bcrypt 6.0.0 measured no faster here (61.6
 * against 62.8 ms per compare), and it hashes on libuv's thread pool, where node-sqlite3 runs every
 * statement: four sign-ins at once would stall every query for a hash's time. These threads are
 * separate from that pool and there are at most cores - 1 of them, so hashing leaves a core to the
 * event loop and SQLite; extra requests wait in a queue here. On Linux they also run at nice 10,
 * so when the cores are short, request handling goes first and a sign-in waits a little longer. Same bcryptjs as before, so hashes are
 * byte for byte what they were.
 *
 * The worker is a few lines of plain JavaScript evaluated from a string: it runs unchanged under
 * tsx, vitest and the esbuild bundle (api/build.ts), which a worker file in TypeScript would not.
 */
import os from 'node:os';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** bcrypt's cost factor for new hashes; a stored hash carries its own cost when compared. */
export const PASSWORD_COST = 10;

/**
 * A cost-10 hash of a password no one has, compared when the e-mail is unknown so that the answer
 * takes as long as for a real user (no hint of which e-mails exist). Fixed, not computed at start-up.
 */
export const DUMMY_PASSWORD_HASH = '$2b$10$2SEpQlpeERG3GFu81JwewulHV3NQF3fD9znqH9urbKAr43nL0BPvu';

type Task = { op: 'hash'; password: string; cost: number } | { op: 'compare'; password: string; hash: string };

interface Job {
  task: Task;
  resolve(value: unknown): void;
  reject(err: Error): void;
}

/** The hashing threads' nice value on Linux: below request handling, so they take the cores it leaves. */
export const PASSWORD_THREAD_NICE = 10;

const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const bcrypt = require(workerData.bcryptjs);
try {
  // Linux schedules threads one by one: /proc/thread-self names this thread's id.
  const tid = Number(require('node:fs').readlinkSync('/proc/thread-self').split('/').pop());
  require('node:os').setPriority(tid, workerData.nice);
} catch {
  // Elsewhere the threads keep the process's priority.
}
parentPort.on('message', (task) => {
  try {
    const value = task.op === 'hash' ? bcrypt.hashSync(task.password, task.cost) : bcrypt.compareSync(task.password, task.hash);
    parentPort.postMessage({ value });
  } catch (err) {
    parentPort.postMessage({ error: String((err && err.message) || err) });
  }
});
`;

interface Slot {
  worker: Worker;
  job: Job | null;
}

/** A fixed set of threads, one job each at a time, started on first use; idle threads do not keep the process alive. */
export class PasswordPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private readonly bcryptjs = createRequire(import.meta.url).resolve('bcryptjs');

  constructor(readonly size = Math.max(1, os.availableParallelism() - 1)) {}

  run(task: Task): Promise<unknown> {
    return new Promise((resolve, reject) => {
      this.queue.push({ task, resolve, reject });
      this.dispatch();
    });
  }

  /** Stops every thread; jobs still queued or running are refused. */
  async close(): Promise<void> {
    const closed = new Error('password pool closed');
    const slots = this.slots.splice(0);
    for (const job of [...this.queue.splice(0), ...slots.map((s) => s.job)]) job?.reject(closed);
    for (const s of slots) s.job = null;
    await Promise.all(slots.map((s) => s.worker.terminate()));
  }

  private dispatch(): void {
    while (this.queue.length) {
      const slot = this.slots.find((s) => !s.job) ?? (this.slots.length < this.size ? this.spawn() : null);
      if (!slot) return;
      slot.job = this.queue.shift()!;
      slot.worker.ref();
      slot.worker.postMessage(slot.job.task);
    }
  }

  private spawn(): Slot {
    // execArgv []: no TypeScript loader of the parent (tsx, vitest) in a thread that needs none.
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { bcryptjs: this.bcryptjs, nice: PASSWORD_THREAD_NICE },
      execArgv: [],
    });
    const slot: Slot = { worker, job: null };
    worker.on('message', (msg: { value?: unknown; error?: string }) => {
      const job = slot.job;
      if (!job) return;
      slot.job = null;
      worker.unref();
      if (msg.error !== undefined) job.reject(new Error(msg.error));
      else job.resolve(msg.value);
      this.dispatch();
    });
    const lose = (err: Error) => {
      const i = this.slots.indexOf(slot);
      if (i < 0) return;
      this.slots.splice(i, 1);
      slot.job?.reject(err);
      slot.job = null;
      this.dispatch();
    };
    worker.on('error', lose);
    worker.on('exit', (code) => lose(new Error(`password worker exited with code ${code}`)));
    worker.unref();
    this.slots.push(slot);
    return slot;
  }
}

const pool = new PasswordPool();

/** A new bcrypt hash (`$2b$`, cost 10) of `plain`, computed off the main thread. */
export async function hashPassword(plain: string): Promise<string> {
  return (await pool.run({ op: 'hash', password: plain, cost: PASSWORD_COST })) as string;
}

/** Whether `plain` matches a stored bcrypt hash (`$2a$` or `$2b$`, any cost), off the main thread. */
export async function verifyPassword(plain: string, hash: string): Promise<boolean> {
  return (await pool.run({ op: 'compare', password: plain, hash })) as boolean;
}
