/**
 * Issue 37's Bulk export row: one organisation's Patients and Observations exported through the
 * FHIR API as an integrator does it (the benchmark's API client, `GET /fhir/R4/$export?_type=
 * Patient,Observation` with `Prefer: respond-async`, the status URL polled until the manifest, the
 * files downloaded), beside the driver's own read-and-serialise rate over the same rows in the
 * same run: the export's keyset pages (EXPORT_PAGE) read with the bare driver, each row made a
 * resource by the same mappers (api/src/modules/fhir/fhir.mappers.ts) and written as NDJSON to a
 * file. Then single-reading ingestion at the ingest phase's rate, alone and while exports run
 * (started back to back for the whole load), whose p99s are compared. The API's RSS is sampled in
 * phases of its own. Readings the load added are deleted afterwards, as the ingest phase does.
 */
import { once } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import { displayName } from '@vigia/contract/rules/names';
import { MEASUREMENT_STATUS } from '@vigia/contract/rules/vitals';
import { PATIENT_STATUS } from '@vigia/contract/rules/access';
import { observationFor, patientFor, type FhirMeasurement, type FhirPatientRef } from '../api/src/modules/fhir/fhir.mappers.js';
import { dayOf } from '../api/src/modules/fhir/fhir.search.sql.js';
import { EXPORT_PAGE } from '../api/src/modules/fhir_exports/fhir-exports.rules.js';
import type { Driver } from './driver.js';
import { accessToken, registerClient, removeClient, type FhirClient } from './fhir-token.js';
import { fetchRetrying, runLoad, type HttpRequest, type LoadResult } from './load.js';
import { loadPhase, type Phase, type Settings } from './measure.js';
import type { Caller } from './queries.js';
import type { ApiProcess, RunClock } from './server.js';
import { FHIR_EXPORT_ID, FHIR_EXPORT_TARGETS } from './targets.js';

const TYPES = ['Patient', 'Observation'] as const;
type ExportedType = (typeof TYPES)[number];
/** Polls of the status URL: often, so the time to the manifest is the export's, not the client's wait (Retry-After says 2 s). */
const POLL_MS = 50;
/** Access tokens last 5 minutes: a long export renews its token before that. */
const TOKEN_RENEW_MS = 240_000;
const SYSTOLIC = 3;
const DIASTOLIC = 4;

// ---------------------------------------------------------------- the driver's baseline

/** The export's Patient page (fhir.search.ts PATIENT_SELECT, keyset on patients (client_id, id)). */
const PATIENT_SELECT = `SELECT p.id, p.nid, p.first_name, p.last_name, p.birth_date, p.gender, p.status, p.updated_at,
  it.code AS id_type_code, it.name AS id_type_name, c.code AS country_code
  FROM patients p JOIN id_types it ON it.id = p.id_type JOIN countries c ON c.id = it.country_id`;
const MEASUREMENT_COLUMNS = 'm.id, m.patient_id, m.clinical_element, m.value, m."when", m.created_at';
const partnerOf = (element: number) =>
  `(SELECT MIN(x.id) FROM measurements x WHERE x.patient_id = m.patient_id AND x.clinical_element = ${element}
    AND x."when" = m."when" AND x.status = ${MEASUREMENT_STATUS.valid})`;

interface PatientDbRow {
  id: number | string;
  nid: string;
  first_name: string;
  last_name: string;
  birth_date: unknown;
  gender: number | string;
  status: number | string;
  updated_at: string | Date;
  id_type_code: string;
  id_type_name: string;
  country_code: string;
}
interface MeasurementDbRow {
  id: number | string;
  patient_id: number | string;
  clinical_element: number | string;
  value: number | string;
  when: string | Date;
  created_at: string | Date;
  partner?: number | string | null;
}

const patientRowOf = (r: PatientDbRow) => ({
  ...r,
  id: Number(r.id),
  gender: Number(r.gender),
  status: Number(r.status),
  birth_date: dayOf(r.birth_date),
  updated_at: new Date(r.updated_at),
  display: displayName(`${r.first_name} ${r.last_name}`),
});
const measurementOf = (r: MeasurementDbRow): FhirMeasurement & { created_at: Date } => ({
  id: Number(r.id),
  clinical_element: Number(r.clinical_element),
  value: Number(r.value),
  when: new Date(r.when),
  created_at: new Date(r.created_at),
});

/** What a pulled Observation adds to the mapper's (fhir.search.ts observationOf): the subject's reference and meta.lastUpdated. */
function observationOf(group: Array<FhirMeasurement & { created_at: Date }>, patientId: number, patient: FhirPatientRef) {
  const o = observationFor(group, patient, group[0].created_at);
  return {
    ...o,
    meta: { lastUpdated: group[0].created_at.toISOString() },
    subject: { reference: `Patient/p${patientId}`, ...(o.subject as Record<string, unknown>) },
  };
}

/** `$2, $3, …` for an IN list after `first - 1` other parameters. */
const placeholders = (n: number, first: number) => Array.from({ length: n }, (_, i) => `$${first + i}`).join(', ');

/** A bound as the API's Sequelize binds a Date: SQLite stores '2026-11-21 12:00:00.000 +00:00' text. */
function timeParam(driver: Driver, at: Date): string | Date {
  if (driver.dialect === 'postgres') return at;
  const iso = at.toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 23)} +00:00`;
}

export interface TypeFigures {
  resources: number;
  bytes: number;
}

export interface DriverExportResult {
  byType: Record<ExportedType, TypeFigures>;
  statements: number;
  /** Time inside the driver's calls; the rest is mapping, JSON and the file. */
  sqlSeconds: number;
  seconds: number;
}

/**
 * The export's reads on the bare driver: for each type its keyset pages of EXPORT_PAGE bounded by
 * the transaction time (`_lastUpdated le`, a bound `< t + 1 ms`), the same statements per page
 * (Observation: the page, its panels' diastolics, the patients' references), every resource made
 * by the API's mappers and written as NDJSON, one write per page, with backpressure.
 */
export async function readAndSerialise(driver: Driver, clientId: number, transactionTime: Date, dir: string): Promise<DriverExportResult> {
  const below = timeParam(driver, new Date(transactionTime.getTime() + 1));
  const byType = {} as Record<ExportedType, TypeFigures>;
  let statements = 0;
  let sqlMs = 0;
  const all = async <T extends object>(sql: string, params: unknown[]) => {
    statements++;
    const t = performance.now();
    const rows = await driver.all<T>(sql, params);
    sqlMs += performance.now() - t;
    return rows;
  };
  const started = performance.now();
  for (const type of TYPES) {
    const file = path.join(dir, `baseline-${type}.ndjson`);
    const out = fs.createWriteStream(file);
    const figures: TypeFigures = { resources: 0, bytes: 0 };
    const write = async (resources: unknown[]) => {
      let text = '';
      for (const r of resources) text += `${JSON.stringify(r)}\n`;
      figures.resources += resources.length;
      figures.bytes += Buffer.byteLength(text);
      if (!out.write(text)) await once(out, 'drain');
    };
    if (type === 'Patient') {
      let after: number | null = null;
      for (;;) {
        const params: unknown[] = [clientId, below];
        const keyset: string = after === null ? '' : ` AND p.id > $${params.push(after)}`;
        const rows: PatientDbRow[] = await all<PatientDbRow>(
          `${PATIENT_SELECT} WHERE p.client_id = $1 AND p.updated_at < $2${keyset} ORDER BY p.id LIMIT $${params.push(EXPORT_PAGE + 1)}`,
          params,
        );
        const page: Array<ReturnType<typeof patientRowOf>> = rows.slice(0, EXPORT_PAGE).map(patientRowOf);
        await write(page.map(patientFor));
        if (rows.length <= EXPORT_PAGE) break;
        after = page.at(-1)!.id;
      }
    } else {
      let after: { when: string | Date; id: number } | null = null;
      for (;;) {
        const params: unknown[] = [clientId, below];
        let keyset = '';
        if (after) {
          const at = params.push(after.when);
          keyset = ` AND m."when" >= $${at} AND (m."when", m.id) > ($${at}, $${params.push(after.id)})`;
        }
        const rows = await all<MeasurementDbRow>(
          `SELECT ${MEASUREMENT_COLUMNS}, CASE WHEN m.clinical_element = ${SYSTOLIC} THEN ${partnerOf(DIASTOLIC)} END AS partner
           FROM measurements m WHERE m.client_id = $1 AND m.status = ${MEASUREMENT_STATUS.valid}
           AND NOT (m.clinical_element = ${DIASTOLIC} AND ${partnerOf(SYSTOLIC)} IS NOT NULL)
           AND m.created_at < $2${keyset} ORDER BY m."when" ASC, m.id ASC LIMIT $${params.push(EXPORT_PAGE + 1)}`,
          params,
        );
        const page = rows.slice(0, EXPORT_PAGE);
        const partnerIds = page.filter((r) => r.partner != null).map((r) => Number(r.partner));
        const partners = new Map(
          partnerIds.length
            ? (
                await all<MeasurementDbRow>(
                  `SELECT ${MEASUREMENT_COLUMNS} FROM measurements m WHERE +m.client_id = $1 AND m.id IN (${placeholders(partnerIds.length, 2)})`,
                  [clientId, ...partnerIds],
                )
              ).map((r) => [Number(r.id), measurementOf(r)])
            : [],
        );
        const patientIds = [...new Set(page.map((r) => Number(r.patient_id)))];
        const refs = new Map(
          patientIds.length
            ? (
                await all<PatientDbRow>(`${PATIENT_SELECT} WHERE +p.client_id = $1 AND p.id IN (${placeholders(patientIds.length, 2)})`, [
                  clientId,
                  ...patientIds,
                ])
              ).map((r) => [Number(r.id), patientRowOf(r)])
            : [],
        );
        await write(
          page.map((r) => {
            const reading = measurementOf(r);
            const partner = r.partner == null ? undefined : partners.get(Number(r.partner));
            return observationOf(partner ? [reading, partner] : [reading], Number(r.patient_id), refs.get(Number(r.patient_id))!);
          }),
        );
        if (rows.length <= EXPORT_PAGE) break;
        const last = page.at(-1)!;
        after = { when: last.when, id: Number(last.id) };
      }
    }
    out.end();
    await once(out, 'finish');
    fs.rmSync(file, { force: true });
    byType[type] = figures;
  }
  return { byType, statements, sqlSeconds: sqlMs / 1000, seconds: (performance.now() - started) / 1000 };
}

// ---------------------------------------------------------------- the export through the API

/** An access token of the benchmark's API client, renewed before it expires. */
function tokenSource(baseUrl: string, client: FhirClient, nowMs: () => number) {
  let held: { token: string; at: number } | null = null;
  return async () => {
    if (!held || Date.now() - held.at > TOKEN_RENEW_MS)
      held = { token: await accessToken(baseUrl, client, Math.floor(nowMs() / 1000)), at: Date.now() };
    return held.token;
  };
}

/** The API may answer with its PUBLIC_URL: the benchmark always asks the process it started. */
const onApi = (baseUrl: string, url: string) => `${baseUrl}${new URL(url, baseUrl).pathname}`;

interface Manifest {
  transactionTime: string;
  output: Array<{ type: string; url: string; count: number }>;
}

export interface ExportRun {
  statusUrl: string;
  manifest: Manifest | null;
  /** performance.now() at the kick-off, at the first progress line (the job's first page written), at the manifest or the cancel. */
  kickedOffAt: number;
  runningAt: number | null;
  endedAt: number;
  polls: number;
}

/**
 * Kick-off, then the status URL every POLL_MS until the manifest; `stop()` true cancels it (DELETE)
 * and answers manifest null. `onRunning` is called once the export shows progress (or ends).
 */
async function runExport(
  baseUrl: string,
  token: () => Promise<string>,
  opts: { stop?: () => boolean; onRunning?: () => void } = {},
): Promise<ExportRun> {
  const stop = opts.stop ?? (() => false);
  const headers = async () => ({ authorization: `Bearer ${await token()}`, accept: 'application/fhir+json' });
  const kickedOffAt = performance.now();
  const res = await fetchRetrying(`${baseUrl}/fhir/R4/$export?_type=${TYPES.join(',')}`, {
    headers: { ...(await headers()), prefer: 'respond-async' },
  });
  const location = res.headers.get('content-location');
  if (res.status !== 202 || !location) throw new Error(`El inicio de la exportación FHIR respondió ${res.status}: ${await res.text()}`);
  const statusUrl = onApi(baseUrl, location);
  let runningAt: number | null = null;
  let polls = 0;
  for (;;) {
    if (stop()) {
      await fetchRetrying(statusUrl, { method: 'DELETE', headers: await headers() });
      return { statusUrl, manifest: null, kickedOffAt, runningAt, endedAt: performance.now(), polls };
    }
    const s = await fetchRetrying(statusUrl, { headers: await headers() });
    polls++;
    if (s.status === 200) {
      const manifest = (await s.json()) as Manifest;
      opts.onRunning?.();
      return { statusUrl, manifest, kickedOffAt, runningAt: runningAt ?? performance.now(), endedAt: performance.now(), polls };
    }
    if (s.status !== 202) throw new Error(`El estado de la exportación FHIR respondió ${s.status}: ${await s.text()}`);
    if (runningAt === null && s.headers.get('x-progress') !== 'En cola') {
      runningAt = performance.now();
      opts.onRunning?.();
    }
    await s.arrayBuffer();
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

/** Each file of the manifest, streamed: its bytes and lines (one resource a line). */
async function downloadFiles(baseUrl: string, token: () => Promise<string>, manifest: Manifest) {
  let bytes = 0;
  let lines = 0;
  for (const o of manifest.output) {
    const res = await fetchRetrying(onApi(baseUrl, o.url), { headers: { authorization: `Bearer ${await token()}` } });
    if (res.status !== 200 || !res.body) throw new Error(`La descarga de ${o.url} respondió ${res.status}: ${await res.text()}`);
    for await (const chunk of res.body) {
      bytes += chunk.byteLength;
      for (const b of chunk) if (b === 10) lines++;
    }
  }
  return { bytes, lines };
}

/** Removes a finished export's files (DELETE on its status URL), so a reused data set does not keep them. */
async function dropExport(run: ExportRun, token: () => Promise<string>) {
  await fetchRetrying(run.statusUrl, { method: 'DELETE', headers: { authorization: `Bearer ${await token()}` } });
}

/** Milliseconds of [from, to) covered by the union of the intervals. */
export function coveredMs(intervals: Array<[number, number]>, from: number, to: number): number {
  const clipped = intervals
    .map(([a, b]) => [Math.max(a, from), Math.min(b, to)] as [number, number])
    .filter(([a, b]) => b > a)
    .sort((x, y) => x[0] - y[0]);
  let total = 0;
  let end = -Infinity;
  for (const [a, b] of clipped) {
    if (b <= end) continue;
    total += b - Math.max(a, end);
    end = b;
  }
  return total;
}

// ---------------------------------------------------------------- the phase

export interface FhirExportResult {
  types: string[];
  page: number;
  export: {
    byType: Record<string, TypeFigures>;
    resources: number;
    files: number;
    bytes: number;
    /** Kick-off to manifest: what resources/s is measured on. */
    seconds: number;
    /** Kick-off until the status first showed progress: the queue's pick-up and the first page. */
    firstProgressSeconds: number;
    polls: number;
    /** API CPU (all threads) from kick-off to manifest. */
    apiCpuSeconds: number;
    downloadSeconds: number;
    perSecond: number;
  };
  baseline: DriverExportResult & { resources: number; bytes: number; perSecond: number };
  /** The driver wrote the same resources (count and bytes per type) as the API's files. */
  same: boolean;
  /** RSS just before the kick-off, and peaks while an export ran alone and beside the ingestion load. */
  rss: { beforeBytes: number; exportBytes: number; duringIngestionBytes: number; highWaterBytes: number };
  ingestion: {
    rate: number;
    connections: number;
    alone: Phase;
    during: LoadResult;
    /** Exports started during the load (the last one cancelled when it ends), and the share of the load's time one was running. */
    exports: number;
    coverage: number;
  };
  removedRows: Record<string, number>;
}

const readingValue = (k: number) => (k % 20 === 19 ? 130 : 60 + (k % 40));

async function maxId(driver: Driver, table: string): Promise<number> {
  const [row] = await driver.all<{ m: number | null }>(`SELECT MAX(id) AS m FROM ${table}`);
  return Number(row?.m ?? 0);
}

export async function measureFhirExport(deps: {
  api: ApiProcess;
  driver: Driver;
  staffToken: string;
  caller: Caller;
  settings: Settings;
  clock: RunClock;
  dataDir: string;
  log: (line: string) => void;
}): Promise<FhirExportResult> {
  const { api, driver, settings, log } = deps;
  const clientId = deps.caller.clientId;
  const client = await registerClient(api.baseUrl, deps.staffToken);
  const token = tokenSource(api.baseUrl, client, () => deps.clock.now().getTime());
  const before = { measurements: await maxId(driver, 'measurements'), alerts: await maxId(driver, 'alerts') };
  // The timed export's files, removed once the readings' loads are done (the finally below).
  let timed: ExportRun | null = null;
  try {
    // The driver first, bounded at this instant; nothing is written before the export's kick-off, so both read the same rows.
    log(`GET /fhir/R4/$export?_type=${TYPES.join(',')} — exportación masiva de la organización ${clientId}`);
    const baselineRun = await readAndSerialise(driver, clientId, deps.clock.now(), deps.dataDir);
    const sum = (f: (t: TypeFigures) => number) => TYPES.reduce((n, t) => n + f(baselineRun.byType[t]), 0);
    const baseline = {
      ...baselineRun,
      resources: sum((t) => t.resources),
      bytes: sum((t) => t.bytes),
      perSecond: sum((t) => t.resources) / baselineRun.seconds,
    };
    log(
      `  base (driver, páginas de ${EXPORT_PAGE}, mismos mapeadores, NDJSON a un archivo): ${baseline.resources.toLocaleString('en-US')} recursos en ${baseline.seconds.toFixed(2)} s = ${baseline.perSecond.toFixed(0)}/s (${baselineRun.statements} sentencias)`,
    );

    api.memory.setPhase(`${FHIR_EXPORT_ID}-before`);
    await new Promise((r) => setTimeout(r, 500));
    const beforeBytes = api.memory.peaks().find((p) => p.phase === `${FHIR_EXPORT_ID}-before`)?.peakBytes ?? 0;
    await token();
    api.memory.setPhase(FHIR_EXPORT_ID);
    const cpuBefore = api.cpuMs();
    const run = await runExport(api.baseUrl, token);
    timed = run;
    const apiCpuSeconds = (api.cpuMs() - cpuBefore) / 1000;
    const exportBytes = api.memory.peaks().find((p) => p.phase === FHIR_EXPORT_ID)?.peakBytes ?? 0;
    api.memory.setPhase(`${FHIR_EXPORT_ID}-files`);
    const manifest = run.manifest!;
    const t = performance.now();
    const files = await downloadFiles(api.baseUrl, token, manifest);
    const downloadSeconds = (performance.now() - t) / 1000;
    const byType: Record<string, TypeFigures> = {};
    for (const o of manifest.output) byType[o.type] = { resources: (byType[o.type]?.resources ?? 0) + o.count, bytes: 0 };
    const resources = manifest.output.reduce((n, o) => n + o.count, 0);
    const seconds = (run.endedAt - run.kickedOffAt) / 1000;
    const exported = {
      byType,
      resources,
      files: manifest.output.length,
      bytes: files.bytes,
      seconds,
      firstProgressSeconds: ((run.runningAt ?? run.endedAt) - run.kickedOffAt) / 1000,
      polls: run.polls,
      apiCpuSeconds,
      downloadSeconds,
      perSecond: resources / seconds,
    };
    const same =
      files.lines === resources &&
      files.bytes === baseline.bytes &&
      TYPES.every((ty) => (byType[ty]?.resources ?? 0) === baselineRun.byType[ty].resources);
    log(
      `  API: ${resources.toLocaleString('en-US')} recursos (${TYPES.map((ty) => `${ty} ${(byType[ty]?.resources ?? 0).toLocaleString('en-US')}`).join(', ')}), ${(files.bytes / 1024 / 1024).toFixed(1)} MB en ${manifest.output.length} archivos; inicio → manifiesto ${seconds.toFixed(2)} s = ${exported.perSecond.toFixed(0)}/s (primer progreso a ${exported.firstProgressSeconds.toFixed(2)} s; CPU de la API ${apiCpuSeconds.toFixed(2)} s); descarga ${downloadSeconds.toFixed(2)} s; RSS ${(beforeBytes / 1048576).toFixed(0)} → pico ${(exportBytes / 1048576).toFixed(0)} MB`,
    );
    if (!same)
      log(
        `  AVISO: la base no escribió lo mismo que la exportación (base ${baseline.resources} recursos, ${baseline.bytes} bytes; API ${resources} recursos, ${files.lines} líneas, ${files.bytes} bytes)`,
      );

    // Single readings at the ingest phase's rate, alone, then while exports run back to back. The
    // timed export's 3.3 GB (full size) are deleted only after both: deleting them first put the
    // filesystem's own work into the load alone (on a disk mounted with online discard, as this
    // machine's is, an fsync waited 50-140 ms every other second for ~10 s after a 2-GB unlink;
    // docs/operations.md), which made the baseline, not the export, the slow one (P269).
    const ids = (
      await driver.all<{ id: number }>(`SELECT id FROM patients WHERE client_id = $1 AND status = ${PATIENT_STATUS.active} ORDER BY id`, [
        clientId,
      ])
    ).map((r) => Number(r.id));
    const n = Math.min(200, ids.length);
    const requests: HttpRequest[] = Array.from({ length: n }, (_, k) => ({
      method: 'POST',
      path: `/api/v1/patients/${ids[Math.floor(((k + 0.5) * ids.length) / n)]}/measurements`,
      body: JSON.stringify({ clinical_element: 1, value: readingValue(k) }),
    }));
    const rate = FHIR_EXPORT_TARGETS.ingestRate;
    const connections = Math.max(settings.connections, 20);
    api.memory.setPhase(`${FHIR_EXPORT_ID}-ingest-alone`);
    if (settings.warmupSeconds > 0) await loadPhase(api, deps.staffToken, requests, connections, settings.warmupSeconds, rate);
    const alone = await loadPhase(api, deps.staffToken, requests, connections, settings.seconds, rate);
    log(
      `  ingesta a ${rate}/s sola: p50 ${alone.latency.p50.toFixed(2)} · p99 ${alone.latency.p99.toFixed(2)} ms (${alone.rps.toFixed(0)}/s, no-2xx ${alone.non2xx})`,
    );

    api.memory.setPhase(`${FHIR_EXPORT_ID}-ingest`);
    let stopped = false;
    const runs: ExportRun[] = [];
    let firstRunning: () => void = () => {};
    const running = new Promise<void>((r) => (firstRunning = r));
    const exportsLoop = (async () => {
      while (!stopped) {
        const r = await runExport(api.baseUrl, token, { stop: () => stopped, onRunning: firstRunning });
        runs.push(r);
        if (r.manifest) await dropExport(r, token);
      }
    })();
    // The load starts once the first export is reading (its kick-off and queue pick-up are not part of it).
    await Promise.race([running, exportsLoop]);
    const loadFrom = performance.now();
    let during: LoadResult;
    try {
      during = await runLoad({ baseUrl: api.baseUrl, token: deps.staffToken, connections, seconds: settings.seconds, requests, rate });
    } finally {
      stopped = true;
      await exportsLoop;
    }
    const loadTo = performance.now();
    const coverage =
      coveredMs(
        runs.map((r) => [r.runningAt ?? r.endedAt, r.endedAt]),
        loadFrom,
        loadTo,
      ) /
      (loadTo - loadFrom);
    const duringIngestionBytes = api.memory.peaks().find((p) => p.phase === `${FHIR_EXPORT_ID}-ingest`)?.peakBytes ?? 0;
    log(
      `  ingesta a ${rate}/s durante ${runs.length} exportaciones (una en curso el ${(coverage * 100).toFixed(0)} % del tiempo): p50 ${during.latency.p50.toFixed(2)} · p99 ${during.latency.p99.toFixed(2)} ms (${during.rps.toFixed(0)}/s, no-2xx ${during.non2xx}); RSS pico ${(duringIngestionBytes / 1048576).toFixed(0)} MB`,
    );
    return {
      types: [...TYPES],
      page: EXPORT_PAGE,
      export: exported,
      baseline,
      same,
      rss: { beforeBytes, exportBytes, duringIngestionBytes, highWaterBytes: api.memory.highWaterBytes() },
      ingestion: { rate, connections, alone, during, exports: runs.length, coverage },
      removedRows: await removeReadings(api, driver, before),
    };
  } finally {
    if (timed?.manifest) await dropExport(timed, token);
    await removeClient(api.baseUrl, deps.staffToken, client.id);
  }
}

/** The readings the load added, the alerts they opened and their links (as the ingest phase leaves the data set). */
export async function removeReadings(api: ApiProcess, driver: Driver, before: { measurements: number; alerts: number }) {
  await fetchRetrying(`${api.baseUrl}/api/v1/health`);
  const count = async (sql: string, params: unknown[]) => Number((await driver.all<{ n: number }>(sql, params))[0].n);
  const removed = {
    alert_measurements: await count('SELECT COUNT(*) AS n FROM alert_measurements WHERE measurement_id > $1', [before.measurements]),
    alerts: await count('SELECT COUNT(*) AS n FROM alerts WHERE id > $1', [before.alerts]),
    measurements: await count('SELECT COUNT(*) AS n FROM measurements WHERE id > $1', [before.measurements]),
  };
  await driver.all('DELETE FROM alert_measurements WHERE measurement_id > $1 OR alert_id > $2', [before.measurements, before.alerts]);
  await driver.all('UPDATE activities SET measurement_id = NULL WHERE measurement_id > $1', [before.measurements]);
  await driver.all('DELETE FROM alerts WHERE id > $1', [before.alerts]);
  await driver.all('DELETE FROM measurements WHERE id > $1', [before.measurements]);
  return removed;
}

// ---------------------------------------------------------------- the report's rows

const perSecond = (v: number) => `${Math.round(v).toLocaleString('en-US')}/s`;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const ms = (v: number) => `${v < 10 ? v.toFixed(2) : v.toFixed(1)} ms`;
const times = (v: number) => (Number.isFinite(v) ? `${v.toFixed(2)}×` : '—');

/** Three rows: the rate beside the driver's, the API's RSS while exports run, ingestion's p99 during them beside alone. */
export function fhirExportRows(r: FhirExportResult) {
  const T = FHIR_EXPORT_TARGETS;
  const e = r.export;
  const ratio = e.perSecond / r.baseline.perSecond;
  const rss = Math.max(r.rss.exportBytes, r.rss.duringIngestionBytes);
  const i = r.ingestion;
  const p99Ratio = i.during.latency.p99 / i.alone.latency.p99;
  const clean = (l: LoadResult) => l.non2xx + l.errors + l.timeouts === 0;
  return [
    {
      what: `FHIR Bulk export of one organisation ($export?_type=${r.types.join(',')}, API-client token: ${e.resources.toLocaleString('en-US')} resources, ${mb(e.bytes)} of NDJSON in ${e.files} files; kick-off to manifest ${e.seconds.toFixed(2)} s, first progress at ${e.firstProgressSeconds.toFixed(2)} s, API CPU ${e.apiCpuSeconds.toFixed(2)} s${r.same ? '' : '; NOT the same resources as the baseline'}): resources/s`,
      target: `≥ ${T.resourcesPerSecond.toLocaleString('en-US')}/s and ≥ ${T.ratioToDriver}× baseline`,
      figure: perSecond(e.perSecond),
      baseline: `${perSecond(r.baseline.perSecond)} (the same pages of ${r.page} read on the driver, the same mappers, NDJSON to a file: ${r.baseline.seconds.toFixed(2)} s)`,
      ratio: times(ratio),
      ok: e.perSecond >= T.resourcesPerSecond && ratio >= T.ratioToDriver && r.same,
    },
    {
      what: 'FHIR Bulk export: API peak RSS while exports run (alone, and beside the ingestion load)',
      target: `≤ ${mb(T.rssBytes)}`,
      figure: `${mb(rss)} (alone ${mb(r.rss.exportBytes)}, with ingestion ${mb(r.rss.duringIngestionBytes)})`,
      baseline: `${mb(r.rss.beforeBytes)} (just before the kick-off)`,
      ratio: times(rss / r.rss.beforeBytes),
      ok: rss <= T.rssBytes,
    },
    {
      what: `One reading per request at ${i.rate} req/s offered while Bulk exports run (${i.exports} started back to back, one running ${(i.coverage * 100).toFixed(0)} % of the time; achieved ${perSecond(i.during.rps)}): p99`,
      target: `≤ ${T.ingestP99Ratio}× alone`,
      figure: ms(i.during.latency.p99),
      baseline: `${ms(i.alone.latency.p99)} (the same load alone, this run; ${perSecond(i.alone.rps)})`,
      ratio: times(p99Ratio),
      ok: p99Ratio <= T.ingestP99Ratio && i.during.rps >= i.rate * 0.95 && clean(i.during) && clean(i.alone),
    },
  ];
}
