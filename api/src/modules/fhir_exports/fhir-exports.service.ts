import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Sequelize } from 'sequelize';
import { databaseOf } from '../../db/database.js';
import { BACKGROUND, execute, insertReturningId, select, writeTransaction } from '../../db/sql.js';
import { requestCounter } from '../../http/traffic.js';
import { enqueueJob, extendJobLock, JobYielded, type JobRow, type JobRunner } from '../../jobs/queue.js';
import { notFound, tooManyRequests } from '../../http/errors.js';
import type { ExportType } from '../fhir/fhir.export.params.js';
import { runPart, type ExportPart } from './fhir-exports.part.js';
import { PartWorker } from './fhir-exports.worker.js';
import {
  dateParts,
  EXPORT_BUSY_PAGE,
  MAX_ACTIVE_EXPORTS,
  SPLIT_OFF,
  RETRY_AFTER_S,
  expiresAt,
  isActive,
  progressText,
  type ExportFileEntry,
  type ExportLevel,
  type ExportSettings,
  type ExportStatus,
} from './fhir-exports.rules.js';

/**
 * FHIR Bulk Data exports (issue 37): the one writer of `fhir_exports`. A kick-off is a row and a job
 * on the durable queue (its own pool, one export at a time per process, so exports never hold the
 * notifications back). The job reads each type through the FHIR API's own searches, by keyset pages,
 * and streams NDJSON files with backpressure, so memory stays bounded (fhir-exports.part.ts), in a
 * worker thread (fhir-exports.worker.ts) so that its allocations never stall the API's thread; when
 * split (FHIR_EXPORT_SPLIT_AT), an organisation's readings in two halves at once, the first here.
 * It renews its claim as it goes, checkpoints each finished type, and after a restart resumes at
 * the first unfinished one.
 */

export const EXPORT_JOB = 'fhir_export';
const PROGRESS_EVERY_MS = 1000;
const EXPIRE_JOB = 'fhir_export_expiry';

export interface FhirExportDeps {
  sequelize: Sequelize;
  now: () => Date;
  log: (msg: string, err?: unknown) => void;
  /** Where the files go: <dir>/<export id>/<Type>.<n>.ndjson. */
  dir: string;
  settings: ExportSettings;
  /** The audit trail (modules/audit): an export's end is an event with its count. */
  recordEvent?: (e: ExportAuditEvent) => void;
  /** The process's count of requests received (http/traffic.ts): the export gives way while it grows. */
  requestsReceived?: () => number;
}

export interface ExportAuditEvent {
  client_id: number;
  user_id: number | null;
  actor_kind?: 'staff' | 'system';
  action: 'fhir_export';
  resource: 'fhir_export';
  resource_id: number;
  summary: string;
  method: string;
  path: string;
  status: number;
  ip: string | null;
  created_at: Date;
}

/** Who asks: the organisation, and the API client or the administrator. */
export interface Requester {
  clientId: number;
  apiClientId: number | null;
  userId: number | null;
}

export interface ExportRow {
  id: number;
  client_id: number;
  api_client_id: number | null;
  user_id: number | null;
  level: ExportLevel;
  group_id: number | null;
  types: ExportType[];
  since: Date | null;
  request: string;
  status: ExportStatus;
  transaction_time: Date;
  files: ExportFileEntry[];
  done_types: ExportType[];
  resources: number;
  progress: string | null;
  error: string | null;
  created_at: Date;
  finished_at: Date | null;
  expires_at: Date | null;
}

interface ExportDbRow {
  id: number | string;
  client_id: number | string;
  api_client_id: number | string | null;
  user_id: number | string | null;
  level: string;
  group_id: number | string | null;
  types: string;
  since: string | Date | null;
  request: string;
  status: string;
  transaction_time: string | Date;
  files: string;
  done_types: string;
  resources: number | string;
  progress: string | null;
  error: string | null;
  created_at: string | Date;
  finished_at: string | Date | null;
  expires_at: string | Date | null;
}

const dateOrNull = (v: string | Date | null) => (v == null ? null : new Date(v));
const numOrNull = (v: number | string | null) => (v == null ? null : Number(v));

/** The one place a fhir_exports row becomes an ExportRow. */
export function exportRowOf(r: ExportDbRow): ExportRow {
  return {
    id: Number(r.id),
    client_id: Number(r.client_id),
    api_client_id: numOrNull(r.api_client_id),
    user_id: numOrNull(r.user_id),
    level: r.level as ExportLevel,
    group_id: numOrNull(r.group_id),
    types: JSON.parse(r.types) as ExportType[],
    since: dateOrNull(r.since),
    request: r.request,
    status: r.status as ExportStatus,
    transaction_time: new Date(r.transaction_time),
    files: JSON.parse(r.files) as ExportFileEntry[],
    done_types: JSON.parse(r.done_types) as ExportType[],
    resources: Number(r.resources),
    progress: r.progress,
    error: r.error,
    created_at: new Date(r.created_at),
    finished_at: dateOrNull(r.finished_at),
    expires_at: dateOrNull(r.expires_at),
  };
}

export async function findExport(sequelize: Sequelize, clientId: number, id: number): Promise<ExportRow | null> {
  const [row] = await select<ExportDbRow>(sequelize, 'SELECT * FROM fhir_exports WHERE id = :id AND client_id = :clientId', {
    id,
    clientId,
  });
  return row ? exportRowOf(row) : null;
}

export interface StartInput {
  level: ExportLevel;
  groupId: number | null;
  types: ExportType[];
  since: Date | null;
  request: string;
}

/** Queues an export; 404 for a tag of another organisation, 429 when the requester already runs MAX_ACTIVE_EXPORTS. */
export async function startExport(deps: FhirExportDeps, who: Requester, input: StartInput): Promise<ExportRow> {
  if (input.groupId !== null) {
    const [tag] = await select<{ id: number }>(deps.sequelize, 'SELECT id FROM tags WHERE id = :id AND client_id = :clientId', {
      id: input.groupId,
      clientId: who.clientId,
    });
    if (!tag) throw notFound('La etiqueta (Group) no existe.');
  }
  const now = deps.now();
  const id = await writeTransaction(deps.sequelize, async (transaction) => {
    const [active] = await select<{ n: number | string }>(
      deps.sequelize,
      `SELECT COUNT(*) AS n FROM fhir_exports WHERE client_id = :clientId AND status IN ('queued', 'running')
       AND ${who.apiClientId !== null ? 'api_client_id = :apiClientId' : 'api_client_id IS NULL AND user_id = :userId'}`,
      { clientId: who.clientId, apiClientId: who.apiClientId, userId: who.userId },
      transaction,
    );
    if (Number(active.n) >= MAX_ACTIVE_EXPORTS)
      throw tooManyRequests(
        `Ya hay ${MAX_ACTIVE_EXPORTS} exportaciones en curso de este solicitante; espere a que terminen o cancele una.`,
        RETRY_AFTER_S * 15,
      );
    const newId = await insertReturningId(
      deps.sequelize,
      `INSERT INTO fhir_exports (client_id, api_client_id, user_id, level, group_id, types, since, request, status, transaction_time,
         files, done_types, resources, created_at, updated_at)
       VALUES (:clientId, :apiClientId, :userId, :level, :groupId, :types, :since, :request, 'queued', :now, '[]', '[]', 0, :now, :now) RETURNING id`,
      {
        clientId: who.clientId,
        apiClientId: who.apiClientId,
        userId: who.userId,
        level: input.level,
        groupId: input.groupId,
        types: JSON.stringify(input.types),
        since: input.since,
        request: input.request,
        now,
      },
      transaction,
    );
    await enqueueJob(
      deps.sequelize,
      { kind: EXPORT_JOB, payload: { id: newId }, key: `${EXPORT_JOB}:${newId}`, clientId: who.clientId, maxAttempts: 5 },
      transaction,
      now,
    );
    return newId;
  });
  return (await findExport(deps.sequelize, who.clientId, id))!;
}

const exportDir = (deps: Pick<FhirExportDeps, 'dir'>, id: number) => path.join(deps.dir, String(id));

/**
 * Cancels a queued or running export (its job stops at its next page) or, for a finished one, deletes
 * its files now; either way the files go. Answers false when there is no such export.
 */
export async function cancelExport(deps: FhirExportDeps, clientId: number, id: number): Promise<boolean> {
  const row = await findExport(deps.sequelize, clientId, id);
  if (!row) return false;
  const now = deps.now();
  if (isActive(row.status))
    await execute(
      deps.sequelize,
      `UPDATE fhir_exports SET status = 'cancelled', progress = NULL, finished_at = :now, updated_at = :now
       WHERE id = :id AND status IN ('queued', 'running')`,
      { id, now },
    );
  else if (row.status === 'completed')
    await execute(
      deps.sequelize,
      `UPDATE fhir_exports SET status = 'expired', expires_at = :now, updated_at = :now WHERE id = :id AND status = 'completed'`,
      { id, now },
    );
  await rm(exportDir(deps, id), { recursive: true, force: true });
  return true;
}

/** The path of one file of a completed export, or null (not one of its files, or not completed). */
export function exportFilePath(deps: Pick<FhirExportDeps, 'dir'>, row: ExportRow, file: string): string | null {
  if (row.status !== 'completed' || !row.files.some((f) => f.file === file)) return null;
  return path.join(exportDir(deps, row.id), file);
}

class Cancelled extends Error {}

/** `Observation.12.ndjson` → 12. */
const fileNumber = (file: string) => Number(file.split('.').at(-2));

/**
 * The `date` bounds of the parts a type is written in (dateParts): readings, when the organisation
 * has at least `splitAt` of them, in two halves of their time span; every other type whole. The
 * count stops at `splitAt` rows, and the first and last reading come from the (client_id, when)
 * index, so this costs milliseconds however many readings there are.
 */
async function datePartsOf(deps: FhirExportDeps, row: ExportRow, type: ExportType): Promise<string[][]> {
  // Off (the default): no count at all, which without a bound would read every reading of the organisation.
  if (type !== 'Observation' || deps.settings.splitAt >= SPLIT_OFF) return [[]];
  const values = { clientId: row.client_id, splitAt: deps.settings.splitAt };
  const [{ n }] = await select<{ n: number | string }>(
    deps.sequelize,
    'SELECT COUNT(*) AS n FROM (SELECT 1 FROM measurements WHERE client_id = :clientId LIMIT :splitAt) t',
    values,
    BACKGROUND,
  );
  if (Number(n) < deps.settings.splitAt) return [[]];
  const edge = async (fn: 'MIN' | 'MAX') =>
    (
      await select<{ at: string | Date | null }>(
        deps.sequelize,
        `SELECT ${fn}("when") AS at FROM measurements WHERE client_id = :clientId`,
        values,
        BACKGROUND,
      )
    )[0]?.at;
  const [first, last] = await Promise.all([edge('MIN'), edge('MAX')]);
  return dateParts(first ? new Date(first) : null, last ? new Date(last) : null, Number(n), deps.settings.splitAt);
}

/**
 * The job: writes each type not yet done, checkpointing after each one. A page that finds the row no
 * longer running (cancelled) stops and removes the files. When the process stops (`stopping`,
 * SIGTERM), the type being written stops after its page in flight and the job goes back to the
 * queue (JobYielded): the next process resumes at that type, without waiting for the claim to lapse.
 */
export async function runExport(deps: FhirExportDeps, job: JobRow, stopping?: AbortSignal): Promise<void> {
  const id = Number((job.payload as { id?: unknown } | null)?.id);
  const [raw] = await select<ExportDbRow>(deps.sequelize, 'SELECT * FROM fhir_exports WHERE id = :id', { id });
  if (!raw) return;
  const row = exportRowOf(raw);
  if (!isActive(row.status)) return;
  const dir = exportDir(deps, id);
  await execute(deps.sequelize, `UPDATE fhir_exports SET status = 'running', updated_at = :now WHERE id = :id AND status = 'queued'`, {
    id,
    now: deps.now(),
  });

  // A previous run that stopped inside a type left part of its files: they are written again.
  const kept = new Set(row.files.map((f) => f.file));
  const present = await readdir(dir).catch(() => [] as string[]);
  await Promise.all(present.filter((f) => !kept.has(f)).map((f) => rm(path.join(dir, f), { force: true })));

  const files = [...row.files];
  const done = [...row.done_types];
  let resources = files.reduce((n, f) => n + f.count, 0);
  let lockRenewedAt = Date.now();
  const lastUpdated = [`le${row.transaction_time.toISOString()}`, ...(row.since ? [`gt${row.since.toISOString()}`] : [])];
  // The export's own thread (fhir-exports.worker.ts): it writes each type (or, split, its last part),
  // so the export's garbage is collected in a heap of its own and the API's thread, answering readings
  // meanwhile, keeps its collections short. Started at the first part, ended with the job.
  const db = databaseOf(deps.sequelize);
  const second = db ? new PartWorker(db, requestCounter()) : null;
  let onStop: () => void = () => undefined;
  const processStops = new Promise<false>((resolve) => (onStop = () => resolve(false)));
  stopping?.addEventListener('abort', onStop, { once: true });

  try {
    for (const [index, type] of row.types.entries()) {
      if (done.includes(type)) continue;
      if (stopping?.aborted) throw new JobYielded();
      const dates = second ? await datePartsOf(deps, row, type) : [[]];
      const parts: ExportPart[] = dates.map((date, k) => ({
        clientId: row.client_id,
        type,
        groupId: row.group_id,
        compartment: row.level !== 'system',
        lastUpdated,
        date,
        dir,
        fileResources: deps.settings.fileResources,
        numbering: { first: k + 1, step: dates.length },
      }));
      const counts = parts.map(() => 0);
      let stopped = false;
      let firstPage: () => void = () => undefined;
      const pageSeen = new Promise<void>((resolve) => (firstPage = resolve));
      const onPage = (k: number) => (count: number) => {
        counts[k] = count;
        firstPage();
      };
      const runs = parts.map((part, k) => {
        if (k < parts.length - 1 || !second)
          return runPart({ ...deps, busyPage: EXPORT_BUSY_PAGE }, part, { onPage: onPage(k), stopped: () => stopped });
        return second.run(part, onPage(k));
      });
      const all = Promise.all(runs);
      all.catch(() => undefined); // settled below
      // Cancelled, or one part failed (or the progress could not be written): the other part stops
      // too, and the job ends (or is retried) as one.
      const stopParts = async () => {
        stopped = true;
        await second?.stop();
        await Promise.allSettled(runs);
      };
      const count = () => counts.reduce((a, b) => a + b, 0);
      try {
        // Progress (and whether it was cancelled meanwhile) after the type's first page, then once a second.
        let wait: Promise<unknown> = Promise.race([pageSeen, sleep(PROGRESS_EVERY_MS, undefined, { ref: false })]);
        const ended = all.then(
          () => true,
          () => true,
        );
        while (!(await Promise.race([ended, wait.then(() => false), processStops]))) {
          if (stopping?.aborted) throw new JobYielded();
          const still = await execute(
            deps.sequelize,
            `UPDATE fhir_exports SET resources = :resources, progress = :progress, updated_at = :now WHERE id = :id AND status = 'running'`,
            { id, resources: resources + count(), progress: progressText(type, count(), index, row.types.length), now: deps.now() },
          );
          if (still === 0) throw new Cancelled();
          if (Date.now() - lockRenewedAt > deps.settings.lockMs / 3) {
            await extendJobLock(deps.sequelize, job.id, new Date(deps.now().getTime() + deps.settings.lockMs));
            lockRenewedAt = Date.now();
          }
          wait = sleep(PROGRESS_EVERY_MS, undefined, { ref: false });
        }
      } catch (err) {
        await stopParts();
        throw err;
      }
      const written = await all.catch(async (err: unknown) => {
        await stopParts();
        throw err;
      });
      files.push(...written.flat().sort((a, b) => fileNumber(a.file) - fileNumber(b.file)));
      resources += count();
      done.push(type);
      await execute(
        deps.sequelize,
        `UPDATE fhir_exports SET files = :files, done_types = :done, resources = :resources, updated_at = :now WHERE id = :id AND status = 'running'`,
        { id, files: JSON.stringify(files), done: JSON.stringify(done), resources, now: deps.now() },
      );
    }
  } catch (err) {
    if (err instanceof Cancelled) {
      await rm(dir, { recursive: true, force: true });
      return;
    }
    throw err;
  } finally {
    stopping?.removeEventListener('abort', onStop);
    await second?.stop();
  }
  const finished = deps.now();
  const completed = await execute(
    deps.sequelize,
    `UPDATE fhir_exports SET status = 'completed', progress = NULL, resources = :resources, finished_at = :finished, expires_at = :expires,
       updated_at = :finished WHERE id = :id AND status = 'running'`,
    { id, resources, finished, expires: expiresAt(finished, deps.settings) },
  );
  if (completed === 0) {
    await rm(dir, { recursive: true, force: true });
    return;
  }
  deps.recordEvent?.({
    client_id: row.client_id,
    user_id: row.user_id,
    actor_kind: row.api_client_id !== null ? 'system' : 'staff',
    action: 'fhir_export',
    resource: 'fhir_export',
    resource_id: id,
    summary: `Exportación FHIR #${id} terminada: ${resources} recursos (${row.types.join(', ')})`,
    method: 'GET',
    path: row.request.replace(/^https?:\/\/[^/]+/, '').split('?')[0],
    status: 200,
    ip: null,
    created_at: finished,
  });
}

/** An export whose job gave up: failed, with its reason, and its files removed. */
async function failExport(deps: FhirExportDeps, job: JobRow, error: string): Promise<void> {
  const id = Number((job.payload as { id?: unknown } | null)?.id);
  await execute(
    deps.sequelize,
    `UPDATE fhir_exports SET status = 'failed', progress = NULL, error = :error, finished_at = :now, updated_at = :now
     WHERE id = :id AND status IN ('queued', 'running')`,
    { id, error: error.slice(0, 1000), now: deps.now() },
  );
  await rm(exportDir(deps, id), { recursive: true, force: true });
}

/** Completed exports past their expiry lose their files; the row stays, 'expired', for the record. */
export async function expireExports(deps: FhirExportDeps, now: Date): Promise<number> {
  const due = await select<{ id: number | string }>(
    deps.sequelize,
    `SELECT id FROM fhir_exports WHERE status = 'completed' AND expires_at <= :now ORDER BY id LIMIT 500`,
    { now },
  );
  for (const { id } of due) {
    await rm(exportDir(deps, Number(id)), { recursive: true, force: true });
    await execute(deps.sequelize, `UPDATE fhir_exports SET status = 'expired', updated_at = :now WHERE id = :id AND status = 'completed'`, {
      id: Number(id),
      now,
    });
  }
  return due.length;
}

export function registerExportJobs(deps: FhirExportDeps & { jobs: JobRunner }): void {
  deps.jobs.register(EXPORT_JOB, {
    handler: (job, ctx) => runExport(deps, job, ctx.stopping),
    onFailed: (job, error) => failExport(deps, job, error),
    concurrency: 1,
    lockMs: deps.settings.lockMs,
  });
  deps.jobs.every({ kind: EXPIRE_JOB, everyMs: 10 * 60_000, handler: (ctx) => expireExports(deps, ctx.now).then(() => undefined) });
}
