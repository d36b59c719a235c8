/**
 * Summary rows and details of the phases that are not read scenarios: ingestion, CSV export,
 * front ends and the scale-out run. Each phase that ran replaces its 'pendiente' rows (targets.ts).
 */
import type { BackupBenchResult } from './backup.js';
import type { ExportResult } from './export.js';
import type { FrontendResult, PageWeight } from './frontend.js';
import type { IngestionResult } from './ingest.js';
import type { LoadResult } from './load.js';
import type { ScaleOutResult } from './scaleout.js';
import type { TriageBuildResult } from './triage.js';
import { secondFactorRow, type SecondFactorResult } from './second-factor.js';
import { fhirTokenRow, type FhirTokenResult } from './fhir-token.js';
import { fhirExportRows, type FhirExportResult } from './fhir-export.js';
import { rdaBacklogRows, rdaBuildRow, type RdaBacklogResult, type RdaBuildResult } from './rda-rows.js';
import {
  API_RSS_TARGET_BYTES,
  FHIR_EXPORT_ID,
  FHIR_IDS,
  CHARTS_SHOWN_TARGETS_MS,
  FRONTEND_TARGETS_KB,
  RDA_BACKLOG_ID,
  RDA_BUILD_ID,
  INGEST_TARGETS,
  OBSERVABILITY_COST_TARGET,
} from './targets.js';

export interface Extras {
  ingestion?: IngestionResult;
  csvExport?: ExportResult;
  frontend?: FrontendResult;
  scaleOut?: ScaleOutResult;
  triageBuild?: TriageBuildResult;
  backup?: BackupBenchResult;
  secondFactor?: SecondFactorResult;
  /** Issue 37: the SMART token endpoint (bench/fhir.ts; the FHIR searches are read scenarios). */
  fhirToken?: FhirTokenResult;
  /** Issue 37: the Bulk export beside the driver's read-and-serialise rate, and ingestion during it (bench/fhir-export.ts). */
  fhirExport?: FhirExportResult;
  /** Issue 51: one consultation's RDA built and validated, beside its reads on the driver (bench/rda.ts). */
  rdaBuild?: RdaBuildResult;
  /** Issue 51: 10,000 RDAs drained to a loopback IHCE platform, and ingestion during it (bench/rda.ts). */
  rdaBacklog?: RdaBacklogResult;
  /** Issue 52: phases that stopped with an error; the run wrote every other row (bench/run.ts). */
  failedPhases?: Array<{ phase: string; error: string }>;
}
export interface ExtraRow {
  what: string;
  target: string;
  figure: string;
  baseline: string;
  ratio: string;
  ok: boolean | null;
}

const ms = (v: number) => (Number.isFinite(v) ? `${v < 10 ? v.toFixed(2) : v.toFixed(1)} ms` : '—');
const perSecond = (v: number) => `${v < 100 ? v.toFixed(1) : Math.round(v).toLocaleString('en-US')}/s`;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const times = (v: number) => (Number.isFinite(v) ? `${v.toFixed(2)}×` : '—');

/** Ids of the phases that ran (PENDING rows with these ids are dropped). */
export function measuredPhases(e: Extras | undefined): string[] {
  if (!e) return [];
  return [
    e.ingestion && 'ingest',
    e.csvExport && 'csv-export',
    e.frontend && 'frontend',
    e.scaleOut && 'scale-out',
    e.triageBuild && 'triage-build',
    e.backup && 'backup',
    e.secondFactor && 'second-factor',
    e.fhirToken && FHIR_IDS.token,
    e.fhirExport && FHIR_EXPORT_ID,
    e.rdaBuild && RDA_BUILD_ID,
    e.rdaBacklog && RDA_BACKLOG_ID,
  ].filter(Boolean) as string[];
}

const clean = (l: LoadResult) => l.non2xx + l.errors + l.timeouts === 0;

/**
 * An ingestion row's target and verdict: judged on SQLite; on PostgreSQL reported, with SQLite's
 * target beside it (issue 22, targets.ts).
 */
function ingestVerdict(dialect: string, target: string, ok: boolean): Pick<ExtraRow, 'target' | 'ok'> {
  return dialect === 'sqlite' ? { target, ok } : { target: `reported (SQLite's: ${target})`, ok: null };
}

export function extraRows(e: Extras | undefined, dialect: string): ExtraRow[] {
  const rows: ExtraRow[] = [];
  if (!e) return rows;
  const t = INGEST_TARGETS;
  if (e.triageBuild) {
    const b = e.triageBuild;
    rows.push({
      what: `Triage summaries rebuilt from the readings (npm run triage:rebuild): ${b.patients.toLocaleString('en-US')} active patients`,
      target: 'time reported',
      figure: `${b.seconds.toFixed(1)} s (${perSecond(b.patients / b.seconds)} patients)`,
      baseline: `${b.baselineSeconds.toFixed(1)} s (the same 28 days of readings read on the driver, nothing computed)`,
      ratio: times(b.seconds / b.baselineSeconds),
      ok: null,
    });
    rows.push({
      what: `Programme indicators: 12 months × ${b.clients} clients computed from the data set (their job's first run)`,
      target: 'time reported',
      figure: `${b.indicatorSeconds.toFixed(1)} s`,
      baseline: '—',
      ratio: '—',
      ok: null,
    });
  }
  if (e.ingestion) {
    const s = e.ingestion.single;
    const ratio = s.api.rps / s.bare.rps;
    const single = `≥ ${t.readingsPerSecond.toLocaleString('en-US')}/s and ≥ ${t.ratioToBare} × baseline`;
    rows.push({
      what: `One reading per request through the full path: readings/s at ${s.api.connections} connections (p50 ${ms(s.api.latency.p50)}, p99 ${ms(s.api.latency.p99)})`,
      figure: perSecond(s.api.rps),
      baseline: `${perSecond(s.bare.rps)} (bare Express + driver INSERT, p99 ${ms(s.bare.latency.p99)})`,
      ratio: times(ratio),
      ...ingestVerdict(dialect, single, s.api.rps >= t.readingsPerSecond && ratio >= t.ratioToBare && clean(s.api)),
    });
    const many = e.ingestion.singleMany;
    if (many) {
      const r = many.api.rps / many.bare.rps;
      rows.push({
        what: `One reading per request through the full path: readings/s at ${many.connections} connections (p50 ${ms(many.api.latency.p50)}, p99 ${ms(many.api.latency.p99)})`,
        figure: perSecond(many.api.rps),
        baseline: `${perSecond(many.bare.rps)} (bare Express + driver INSERT, p99 ${ms(many.bare.latency.p99)})`,
        ratio: times(r),
        ...ingestVerdict(dialect, single, many.api.rps >= t.readingsPerSecond && r >= t.ratioToBare && clean(many.api)),
      });
    }
    rows.push({
      what: `One reading per request at ${s.rate} req/s offered: p99 (achieved ${perSecond(s.apiAtRate.rps)})`,
      figure: ms(s.apiAtRate.latency.p99),
      baseline: `${ms(s.bareAtRate.latency.p99)} (bare, ${perSecond(s.bareAtRate.rps)})`,
      ratio: times(s.apiAtRate.latency.p99 / s.bareAtRate.latency.p99),
      ...ingestVerdict(
        dialect,
        `p99 ≤ ${t.p99AtRateMs} ms at ${s.rate} req/s`,
        s.apiAtRate.latency.p99 <= t.p99AtRateMs && s.apiAtRate.rps >= s.rate * 0.95 && clean(s.apiAtRate),
      ),
    });
    const b = e.ingestion.batch;
    rows.push({
      what: `Batch ingestion, ${b.readingsPerRequest} readings per request: readings/s at ${b.api.connections} connections (p99 ${ms(b.api.latency.p99)})`,
      figure: perSecond(b.api.rps * b.readingsPerRequest),
      baseline: `${perSecond(b.bare.rps * b.readingsPerRequest)} (bare Express + driver INSERT)`,
      ratio: times(b.api.rps / b.bare.rps),
      ...ingestVerdict(
        dialect,
        `≥ ${t.batchReadingsPerSecond.toLocaleString('en-US')}/s and ≥ ${t.batchRatioToBare} × baseline`,
        b.api.rps * b.readingsPerRequest >= t.batchReadingsPerSecond && b.api.rps / b.bare.rps >= t.batchRatioToBare && clean(b.api),
      ),
    });
  }
  const o = e.ingestion?.observability;
  if (o) {
    // Judged on the API's CPU per reading: the load generator shares the machine's cores, so
    // throughput moves with whatever else runs; the rates are shown beside it.
    const cost = o.on.apiCpuMsPerRequest / o.off.apiCpuMsPerRequest;
    rows.push({
      what: `One reading per request with metrics and JSON request logs on (as npm start runs) beside METRICS=off LOG_LEVEL=silent, ${o.thisApi ? 'two APIs started for this row' : 'this API beside a second one'}: API CPU per reading (${o.rounds} alternating rounds at ${o.on.connections} connections; ${perSecond(o.on.rps)} on, ${perSecond(o.off.rps)} off${o.thisApi ? `; this API, after the other phases, ${ms(o.thisApi.apiCpuMsPerRequest)} at ${perSecond(o.thisApi.rps)}` : ''})`,
      target: `cost ≤ ${Math.round(OBSERVABILITY_COST_TARGET * 100)} % (≤ ${times(1 + OBSERVABILITY_COST_TARGET)} off)`,
      figure: ms(o.on.apiCpuMsPerRequest),
      baseline: `${ms(o.off.apiCpuMsPerRequest)} (METRICS=off LOG_LEVEL=silent)`,
      ratio: times(cost),
      ok: cost <= 1 + OBSERVABILITY_COST_TARGET && o.on.failed + o.off.failed === 0,
    });
  }
  if (e.backup) {
    const b = e.backup;
    rows.push({
      what: `Backup (npm run backup: ${b.dialect === 'sqlite' ? 'online copy' : 'pg_dump'}, DATA_DIR files, SHA-256s, tar.gz): ${mb(b.databaseBytes)} of database → ${mb(b.archiveBytes)} archive, ${b.files} files`,
      target: 'time and rate reported',
      figure: `${b.seconds.toFixed(1)} s (${(b.databaseBytes / 1024 / 1024 / b.seconds).toFixed(0)} MB/s)`,
      baseline: b.baseline
        ? `${b.baseline.seconds.toFixed(1)} s (${b.baseline.tool} of the same data, ${mb(b.baseline.bytes)})`
        : '— (tool not installed)',
      ratio: b.baseline ? times(b.seconds / b.baseline.seconds) : '—',
      ok: null,
    });
  }
  if (e.csvExport) {
    const c = e.csvExport;
    const peak = Math.max(c.apiPeakRssBytes, 0);
    rows.push({
      what: `CSV export of a year of one patient's readings (${c.rows.toLocaleString('en-US')} rows, ${mb(c.bytes)}; first byte p50 ${ms(c.firstByte.p50)}; ${c.parallel.downloads} at once in ${c.parallel.seconds.toFixed(1)} s): whole file p50, API peak RSS`,
      target: 'streams; API RSS < 300 MB',
      figure: `${ms(c.whole.p50)}; RSS ${mb(peak)}`,
      baseline: `${ms(c.baseline.whole.p50)} (its ${c.baseline.statements} statements on the driver)`,
      ratio: times(c.whole.p50 / c.baseline.whole.p50),
      ok: peak < API_RSS_TARGET_BYTES && c.firstByte.p50 < c.whole.p50,
    });
  }
  if (e.frontend) {
    const f = e.frontend;
    const T = FRONTEND_TARGETS_KB;
    rows.push({
      what: 'Portal first page (/login_patient), JavaScript gzip',
      target: `≤ ${T.portal} KB`,
      figure: kb(f.portalFirst.gzipBytes),
      baseline: '—',
      ratio: '—',
      ok: f.portalFirst.gzipBytes <= T.portal * 1024,
    });
    rows.push({
      what: 'Admin login page, JavaScript gzip',
      target: `≤ ${T.adminLogin} KB`,
      figure: kb(f.adminLogin.gzipBytes),
      baseline: '—',
      ratio: '—',
      ok: f.adminLogin.gzipBytes <= T.adminLogin * 1024,
    });
    rows.push({
      what: `Admin patient page before its charts, JavaScript gzip (charts chunk: ${kb(f.patientPage.chartGzipBytes)})`,
      target: `≤ ${T.patientPage} KB`,
      figure: kb(f.patientPage.gzipBytes),
      baseline: '—',
      ratio: '—',
      ok: f.patientPage.gzipBytes <= T.patientPage * 1024,
    });
    // Issue 52: judged, beside the same navigations' time to the patient's name (the page's header).
    const c = f.chartsShown;
    const header = (v: number | undefined) => (v == null ? '—' : `${ms(v)} (the patient's name shown, same loads)`);
    rows.push({
      what: `Patient page shows its charts (headless Chromium, patient ${c.patientId}): warm cache, p50 of ${c.warm.count}`,
      target: `≤ ${CHARTS_SHOWN_TARGETS_MS.warm.toLocaleString('en-US')} ms`,
      figure: ms(c.warm.p50),
      baseline: header(c.headerWarm?.p50),
      ratio: c.headerWarm ? times(c.warm.p50 / c.headerWarm.p50) : '—',
      ok: c.warm.p50 <= CHARTS_SHOWN_TARGETS_MS.warm,
    });
    rows.push({
      what: `Patient page shows its charts (headless Chromium, patient ${c.patientId}): cold cache`,
      target: `≤ ${CHARTS_SHOWN_TARGETS_MS.cold.toLocaleString('en-US')} ms`,
      figure: ms(c.coldMs),
      baseline: header(c.headerColdMs),
      ratio: c.headerColdMs ? times(c.coldMs / c.headerColdMs) : '—',
      ok: c.coldMs <= CHARTS_SHOWN_TARGETS_MS.cold,
    });
    // Not judged: the machine's browser speed, which the charts' tripwire is held to (browser-reference.ts).
    if (c.referenceWarm)
      rows.push({
        what: `Browser reference page (a fixed page, no code of Vigía's: this machine's browser speed), warm p50 of ${c.referenceWarm.count}, beside the charts' warm p50`,
        target: '—',
        figure: ms(c.referenceWarm.p50),
        baseline: `${ms(c.warm.p50)} (the charts, same loads)`,
        ratio: times(c.warm.p50 / c.referenceWarm.p50),
        ok: null,
      });
    const p = f.portalReadings;
    if (p)
      rows.push({
        what: `Portal: first readings on a phone (390 × 844, patient ${p.patientId}, cold cache): DevTools' Slow 3G beside no throttling`,
        target: 'time reported',
        figure: ms(p.slow3gMs),
        baseline: `${ms(p.fastMs)} (no throttling, this run)`,
        ratio: times(p.slow3gMs / p.fastMs),
        ok: null,
      });
  }
  if (e.scaleOut) {
    const s = e.scaleOut;
    rows.push({
      what: `Two API processes on one PostgreSQL behind a round-robin proxy: patient list throughput (requests per API ${s.two.perApi.join(' / ')})`,
      target: 'scales out',
      figure: perSecond(s.two.list.rps),
      baseline: `${perSecond(s.one.list.rps)} (one API, this run)`,
      ratio: times(s.two.list.rps / s.one.list.rps),
      ok: null,
    });
    rows.push({
      what: 'Two API processes: one reading per request, readings/s',
      target: 'scales out',
      figure: perSecond(s.two.ingest.rps),
      baseline: `${perSecond(s.one.ingest.rps)} (one API, this run)`,
      ratio: times(s.two.ingest.rps / s.one.ingest.rps),
      ok: null,
    });
    const m = s.markers;
    const l = s.lifecycle;
    rows.push({
      what: `Two API processes: scheduled work in ${s.seconds.toFixed(0)} s (${m.inserted} overdue marker activities; ${l.slots} lifecycle slots)`,
      target: 'no scheduled work lost or duplicated',
      figure: `${m.notReported}/${m.inserted} marked, ${m.alerts} alerts (${m.duplicatedAlerts} duplicated); ${l.jobs} jobs (${l.done} done, ${l.failed} failed, ${l.retried} retried, ${l.duplicatedSlots} duplicated)`,
      baseline: '—',
      ratio: '—',
      ok:
        m.lost === 0 &&
        m.duplicatedAlerts === 0 &&
        m.alerts === m.inserted &&
        l.jobs === l.slots &&
        l.duplicatedSlots === 0 &&
        l.failed === 0,
    });
  }
  if (e.secondFactor) rows.push(secondFactorRow(e.secondFactor));
  if (e.fhirToken) rows.push(fhirTokenRow(e.fhirToken));
  if (e.fhirExport) rows.push(...fhirExportRows(e.fhirExport));
  if (e.rdaBuild) rows.push(rdaBuildRow(e.rdaBuild));
  if (e.rdaBacklog) rows.push(...rdaBacklogRows(e.rdaBacklog));
  return rows;
}

function weightTable(w: PageWeight): string[] {
  return [
    `**${w.page}**: ${w.files.length} scripts, ${kb(w.gzipBytes)} gzip${w.chartGzipBytes ? ` + ${kb(w.chartGzipBytes)} of chart chunks` : ''}`,
    '',
    ...w.files.map((f) => `- ${f.file}: ${kb(f.gzipBytes)}${f.chart ? ' (chart)' : ''}`),
    '',
  ];
}

export function renderExtraDetails(e: Extras | undefined): string[] {
  if (!e) return [];
  const lines: string[] = [];
  if (e.ingestion) {
    const i = e.ingestion;
    const row = (name: string, l: LoadResult, per: number) =>
      `| ${name} | ${l.connections} | ${perSecond(l.rps * per)} | ${ms(l.latency.p50)} | ${ms(l.latency.p95)} | ${ms(l.latency.p99)} | ${l.non2xx} | ${l.errors + l.timeouts} |`;
    lines.push(
      '## Ingestion in detail',
      '',
      `Over ${i.patients} active patients of client A; 1 reading in 20 is out of range (alarm path). Rows added by the load were deleted afterwards: ${JSON.stringify(i.removedRows)}. API peak RSS during ingestion: ${mb(i.apiPeakRssBytes)}.`,
      '',
      '| phase | connections | readings/s | p50 | p95 | p99 | non-2xx | errors |',
      '|---|---|---|---|---|---|---|---|',
      row('API, 1 reading per request', i.single.api, 1),
      row('bare, 1 reading per request', i.single.bare, 1),
      row(`API at ${i.single.rate} req/s`, i.single.apiAtRate, 1),
      row(`bare at ${i.single.rate} req/s`, i.single.bareAtRate, 1),
      row(`API, ${i.batch.readingsPerRequest} per request`, i.batch.api, i.batch.readingsPerRequest),
      row(`bare, ${i.batch.readingsPerRequest} per request`, i.batch.bare, i.batch.readingsPerRequest),
      '',
    );
  }
  if (e.frontend)
    lines.push(
      '## Front ends in detail',
      '',
      'gzip level 6 of each file the page loaded, from the dist folder.',
      '',
      ...weightTable(e.frontend.adminLogin),
      ...weightTable(e.frontend.patientPage),
      ...weightTable(e.frontend.portalFirst),
    );
  return lines;
}
