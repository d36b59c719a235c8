/**
 * FHIR Bulk Data export (issue 37; Bulk Data Access IG 2.0), pure: the settings, what a requester may
 * run at once, the manifest, the progress line, and which files a status allows. `now` is passed in.
 */

import { giveWayPause } from '../../jobs/give-way.rules.js';

export const EXPORT_STATUSES = ['queued', 'running', 'completed', 'failed', 'cancelled', 'expired'] as const;
export type ExportStatus = (typeof EXPORT_STATUSES)[number];
export type ExportLevel = 'system' | 'patient' | 'group';

/** Exports of one requester (an API client, or an administrator) queued or running at once; past it, 429. */
export const MAX_ACTIVE_EXPORTS = 2;
/** Resources read per query while exporting: one keyset page. */
export const EXPORT_PAGE = 1000;
/**
 * The page of a part written in the API's own thread while requests come in (issue 52): a page is
 * turned into resources and NDJSON in one synchronous stretch, ~52 µs a resource at 100,000 x 2
 * (210 s of API CPU for 4.0 million), so a thousand held every reading that arrived meanwhile for
 * ~50 ms. A hundred hold them for a tenth of that; the pauses after each page keep the part at the
 * same share of the thread. A part in the worker thread keeps the whole page: it holds up no request.
 */
export const EXPORT_BUSY_PAGE = 100;

/** Rows of the next page: the busy page after a page during which requests came in (its pause > 0), when the part is given one. */
export const nextPageSize = (pausedAfterLast: boolean, busyPage: number | undefined): number =>
  pausedAfterLast && busyPage ? busyPage : EXPORT_PAGE;
/**
 * An export runs in the API's own process, after the readings and screens it serves: while requests
 * come in faster than a client polling its exports sends them (more than EXPORT_BUSY_REQUESTS during
 * one page, and more than EXPORT_BUSY_RATE a second), it pauses after each page EXPORT_YIELD_FACTOR
 * times as long as the page took (at most EXPORT_MAX_PAUSE_MS), so it takes at most a tenth of the
 * thread; otherwise it runs flat out.
 */
export const EXPORT_BUSY_REQUESTS = 2;
export const EXPORT_BUSY_RATE = 50;
export const EXPORT_YIELD_FACTOR = 9;
export const EXPORT_MAX_PAUSE_MS = 1000;

/** The pause after a page that took `pageMs`, given how many requests the process received meanwhile. */
export const pauseAfterPage = (pageMs: number, requestsMeanwhile: number): number =>
  giveWayPause(pageMs, requestsMeanwhile, {
    busyRequests: EXPORT_BUSY_REQUESTS,
    busyRate: EXPORT_BUSY_RATE,
    factor: EXPORT_YIELD_FACTOR,
    maxPauseMs: EXPORT_MAX_PAUSE_MS,
  });

/** What the status endpoint asks a client to wait between polls while an export runs. */
export const RETRY_AFTER_S = 2;

/** FHIR_EXPORT_SPLIT_AT's default: more readings than an organisation holds, so no export splits. */
export const SPLIT_OFF = 1_000_000_000;

export interface ExportSettings {
  /** Resources per NDJSON file (FHIR_EXPORT_FILE_RESOURCES, default 50,000). */
  fileResources: number;
  /**
   * Readings from which an export writes its Observations in two parts at once, one in a worker
   * thread (FHIR_EXPORT_SPLIT_AT). Off by default (SPLIT_OFF) until it is faster: at 20,000 × 2 on
   * SQLite it exported 11,504/s against 16,800–18,174/s in one thread, with 43.9 s of CPU for 37 s.
   */
  splitAt: number;
  /** Hours a finished export's files are kept (FHIR_EXPORT_EXPIRY_HOURS, default 24). */
  expiryHours: number;
  /** How long a claimed export holds before another process may resume it (FHIR_EXPORT_LOCK_MS, default 60 s); renewed while it runs. */
  lockMs: number;
}

function positiveInt(env: Record<string, string | undefined>, name: string, fallback: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > max) throw new Error(`${name} debe ser un entero entre 1 y ${max}`);
  return n;
}

export function exportSettings(env: Record<string, string | undefined>): ExportSettings {
  return {
    fileResources: positiveInt(env, 'FHIR_EXPORT_FILE_RESOURCES', 50_000, 10_000_000),
    splitAt: positiveInt(env, 'FHIR_EXPORT_SPLIT_AT', SPLIT_OFF, SPLIT_OFF),
    expiryHours: positiveInt(env, 'FHIR_EXPORT_EXPIRY_HOURS', 24, 24 * 365),
    lockMs: positiveInt(env, 'FHIR_EXPORT_LOCK_MS', 60_000, 3_600_000),
  };
}

/**
 * The `date` bounds of each part a type is written in: two halves of its readings' time span
 * (`lt` and `ge` the middle instant: every reading falls in exactly one) when it holds at least
 * `splitAt` rows, else one part with no bound. `rows` may be counted only up to `splitAt`.
 */
export function dateParts(first: Date | null, last: Date | null, rows: number, splitAt: number): string[][] {
  if (!first || !last || rows < splitAt || last.getTime() <= first.getTime()) return [[]];
  const middle = new Date(Math.floor((first.getTime() + last.getTime()) / 2)).toISOString();
  return [[`lt${middle}`], [`ge${middle}`]];
}

export const isActive = (status: string) => status === 'queued' || status === 'running';
/** Only a completed export's files are served. */
export const servesFiles = (status: string) => status === 'completed';

export interface ExportFileEntry {
  type: string;
  file: string;
  count: number;
}

/** `Observation.3.ndjson`: the only names a file request may carry (no path, no dots besides these). */
export const FILE_NAME = /^[A-Za-z]{1,40}\.[1-9]\d{0,5}\.ndjson$/;

export const expiresAt = (finishedAt: Date, settings: Pick<ExportSettings, 'expiryHours'>) =>
  new Date(finishedAt.getTime() + settings.expiryHours * 3_600_000);

/** The complete manifest (Bulk Data IG 2.0 §Response - Complete Status). */
export function manifestOf(
  row: { id: number; transaction_time: Date; request: string; files: ExportFileEntry[] },
  base: string,
): Record<string, unknown> {
  return {
    transactionTime: row.transaction_time.toISOString(),
    request: row.request,
    requiresAccessToken: true,
    output: row.files.map((f) => ({ type: f.type, url: `${base}/$export-file/${row.id}/${f.file}`, count: f.count })),
    error: [],
  };
}

const thousands = new Intl.NumberFormat('es-ES', { useGrouping: true });
/** 'Observation: 12.000 recursos (2 de 5 tipos)': what X-Progress and the screen show. */
export function progressText(type: string, count: number, typeIndex: number, typeCount: number): string {
  const n = count >= 10_000 ? thousands.format(count) : String(count);
  return `${type}: ${n} ${count === 1 ? 'recurso' : 'recursos'} (${typeIndex + 1} de ${typeCount} tipos)`;
}
