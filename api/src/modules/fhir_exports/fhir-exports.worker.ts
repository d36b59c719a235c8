import { typeScriptWorker } from '@vigia/contract/node/ts-worker';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import type { Config } from '../../config.js';
import { openDatabase } from '../../db/database.js';
import { requestsReceived } from '../../http/traffic.js';
import { workerBundleOf } from './fhir-exports.bundle.js';
import { PartStopped, runPart, type ExportPart } from './fhir-exports.part.js';
import type { ExportFileEntry } from './fhir-exports.rules.js';

/**
 * A worker thread that writes Bulk exports (issue 37): each type of an export (or, when split, the
 * second half of its readings while the first runs in the API's thread). An export allocates some
 * 25 MB a second (rows, resources, NDJSON); in the API's heap that meant a major collection every
 * ~2 s, whose marking stalled the readings arriving meanwhile (p99 of single readings 62-86 ms during
 * an export against ~20 alone at 100,000 patients). Here it is collected in a heap of its own.
 * It opens the same database (its own SQLite connection, or its own PostgreSQL pool) and reads the
 * API's request counter from shared memory, so it gives way to readings and screens as the API's
 * thread does.
 *
 * Its code is this module: under tsx or vitest the .ts file, loaded through tsx's loader registered
 * in the thread first; in production its own bundle beside the server's (fhir-exports.bundle.ts).
 */

const ROLE = 'vigia:fhir-export-part';

interface PartWorkerData {
  role: typeof ROLE;
  db: Pick<Config, 'dataDir' | 'databaseUrl'>;
  counter: Uint32Array;
}

type ToWorker = { kind: 'part'; part: ExportPart } | { kind: 'stop' };
type FromWorker = { kind: 'page'; count: number } | { kind: 'done'; files: ExportFileEntry[] } | { kind: 'failed'; message: string };

/**
 * A V8 heap of its own costs RSS: the thread's is kept small (a page is a thousand resources; the
 * thread's own bundle keeps ~15 MB live). At 100,000 × 2 on SQLite (bench/issue-37), with the whole
 * server bundle: 96/16 MB exported 38,642/s at an API RSS of 304 MB (target 300), 64/8 308-319 MB,
 * 40/4 thrashed (16,472/s); with the worker's bundle: 64/8 302 MB, 40/8 297 (VmHWM 301), 40/4
 * 37,637/s at 293 MB (VmHWM 295). On PostgreSQL (no SQLite page caches in the process; RSS 220-249)
 * the larger heap pays: 64/8 exported 31,543/s with 84 s of CPU and single readings during it at a
 * p99 of 19.4 ms, against 28,523/s, 104 s and 45.1 ms with 40/4 (the collections took their CPU
 * from PostgreSQL's backends on 2 cores).
 */
const resourceLimitsOf = (db: Pick<Config, 'databaseUrl'>) =>
  db.databaseUrl
    ? { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 8 }
    : { maxOldGenerationSizeMb: 40, maxYoungGenerationSizeMb: 4 };

/**
 * How long stop() waits for the thread to end its part and close its database before ending it by
 * force. A part stops after the page it is reading (a thousand resources, well under a second).
 */
const STOP_GRACE_MS = 30_000;

/**
 * The main thread's handle on one worker: the thread starts at the first part it is given (an
 * export that never splits never starts it); parts run one at a time; stop() ends it for good.
 *
 * stop() asks; it does not terminate. A thread terminated while node-sqlite3 hands it a row aborts
 * the whole process (`FATAL ERROR: Error::ThrowAsJavaScriptException napi_throw` from
 * Statement::RowToJS: the value cannot be thrown into a thread being torn down), which is how a
 * cancelled export once took the API down in CI's small bench. So the thread ends its part after
 * the page in flight, closes its connection and ends on its own (exit code 0).
 */
export class PartWorker {
  private worker: Worker | null = null;
  private exited: Promise<number> | null = null;
  private failure: Error | null = null;
  private current: { resolve: (files: ExportFileEntry[]) => void; reject: (err: Error) => void; onPage: (n: number) => void } | null = null;

  constructor(
    private readonly db: Pick<Config, 'dataDir' | 'databaseUrl'>,
    private readonly counter: Uint32Array,
  ) {}

  private start(): Worker {
    const data: PartWorkerData = { role: ROLE, db: this.db, counter: this.counter };
    const self = new URL(import.meta.url);
    const resourceLimits = resourceLimitsOf(this.db);
    const worker = self.pathname.endsWith('.ts')
      ? typeScriptWorker(self.href, { workerData: data, resourceLimits })
      : new Worker(new URL(workerBundleOf(self.href)), { workerData: data, resourceLimits });
    worker.on('message', (msg: FromWorker) => {
      const job = this.current;
      if (!job) return;
      if (msg.kind === 'page') return job.onPage(msg.count);
      this.current = null;
      if (msg.kind === 'done') job.resolve(msg.files);
      else job.reject(this.failure ?? new Error(msg.message));
    });
    const lose = (err: Error) => {
      this.failure ??= err;
      this.current?.reject(this.failure);
      this.current = null;
    };
    worker.on('error', lose);
    this.exited = new Promise((resolve) =>
      worker.on('exit', (code) => {
        lose(new Error(`El proceso auxiliar de la exportación terminó (código ${code})`));
        resolve(code);
      }),
    );
    return worker;
  }

  /** Writes `part` in the thread; `onPage` gets its count after each page. */
  run(part: ExportPart, onPage: (count: number) => void): Promise<ExportFileEntry[]> {
    if (this.failure) return Promise.reject(this.failure);
    if (this.current) return Promise.reject(new Error('PartWorker: ya escribe una parte'));
    const worker = (this.worker ??= this.start());
    return new Promise((resolve, reject) => {
      this.current = { resolve, reject, onPage };
      worker.postMessage({ kind: 'part', part } satisfies ToWorker);
    });
  }

  /**
   * Ends the thread, and the part it was writing with it (its files are left for the caller to
   * remove). Answers the thread's exit code (0: it ended on its own), or null if it never started.
   */
  async stop(): Promise<number | null> {
    this.failure ??= new PartStopped();
    const worker = this.worker;
    if (!worker || !this.exited) return null;
    worker.postMessage({ kind: 'stop' } satisfies ToWorker);
    const force = setTimeout(() => void worker.terminate(), STOP_GRACE_MS);
    try {
      return await this.exited;
    } finally {
      clearTimeout(force);
    }
  }
}

/**
 * The thread's side: opens the database, then writes each part it is sent; on 'stop', ends the part
 * after its page in flight, closes the database and lets the thread end (nothing left to wait on).
 */
function serve(data: PartWorkerData): void {
  const port = parentPort!;
  const post = (msg: FromWorker) => port.postMessage(msg);
  const opened = openDatabase(data.db, { checkpointEveryMs: 0 }); // it only reads: the API's checkpoints suffice
  opened.catch(() => undefined); // answered to the first part sent
  const requests = () => requestsReceived(data.counter);
  let stopping = false;
  let running: Promise<unknown> = Promise.resolve();
  port.on('message', (msg: ToWorker) => {
    if (msg.kind === 'stop') {
      if (stopping) return;
      stopping = true;
      void running
        .then(() => opened)
        .then((sequelize) => sequelize.close())
        .catch(() => undefined)
        .finally(() => port.close());
      return;
    }
    if (stopping) return post({ kind: 'failed', message: new PartStopped().message });
    running = opened
      .then((sequelize) =>
        runPart({ sequelize, requestsReceived: requests }, msg.part, {
          onPage: (count) => post({ kind: 'page', count }),
          stopped: () => stopping,
        }),
      )
      .then(
        (files) => post({ kind: 'done', files }),
        (err: unknown) => post({ kind: 'failed', message: err instanceof Error ? err.message : String(err) }),
      );
  });
}

if (!isMainThread && (workerData as Partial<PartWorkerData> | null)?.role === ROLE) serve(workerData as PartWorkerData);
