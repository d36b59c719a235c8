/**
 * The targets (issue 7) that cannot be measured yet because their feature does not exist.
 * They stay in the report as 'pendiente' rows, with no figure, until their scenario is added to
 * scenarios.ts; then the row moves out of this list.
 */
export const API_RSS_TARGET_BYTES = 300 * 1024 * 1024;
/** The size the issue states the patient targets for. */
export const TARGET_PATIENTS_PER_CLIENT = 100_000;

export interface PendingRow {
  id: string;
  what: string;
  target: string;
  waitsFor: string;
}

/**
 * Every row of the table beyond the patient rows, with the id of the scenario or phase that
 * measures it: a row stays 'pendiente' (with why) only when its phase did not run (--only, --skip,
 * a missing build, SQLite for the scale-out run).
 */
export const PENDING: PendingRow[] = [
  {
    id: 'backup',
    what: "Backup (npm run backup) of the data set, beside the database's own tool (issue 39)",
    target: 'time and rate reported',
    waitsFor: 'phase backup not run',
  },
  {
    id: 'ingest',
    what: 'One reading per request through the full path (auth, validation, insert, alarm check, activity match, webhook queue)',
    target: '≥ 1,500 readings/s; p99 ≤ 25 ms at 500 req/s; ≥ 0.5 × bare-insert baseline',
    waitsFor: 'phase ingest not run',
  },
  {
    id: 'ingest',
    what: 'Batch ingestion, 100 readings per request',
    target: '≥ 20,000 readings/s; ≥ 0.6 × bare-insert baseline',
    waitsFor: 'phase ingest not run',
  },
  {
    id: 'ingest',
    what: 'One reading per request with metrics and logging on, beside a second API with them off (issue 39)',
    target: 'cost ≤ 10 % (API CPU per reading)',
    waitsFor: 'phase ingest not run',
  },
  {
    id: 'chart-series',
    what: 'Chart series for one patient and element, 10M readings',
    target: 'p95 ≤ 15 ms',
    waitsFor: 'scenario chart-series not run',
  },
  {
    id: 'alerts-list',
    what: 'Alerts manager list with filters, 1M alerts',
    target: 'p95 ≤ 50 ms',
    waitsFor: 'scenario alerts-list not run',
  },
  { id: 'dashboard-metrics', what: 'Dashboard counts', target: 'p95 ≤ 50 ms', waitsFor: 'scenario dashboard-metrics not run' },
  {
    id: 'csv-export',
    what: "CSV export of a year of one patient's readings",
    target: 'streams; API RSS < 300 MB',
    waitsFor: 'phase csv-export not run',
  },
  {
    id: 'frontend',
    what: 'Portal first page, JavaScript gzip',
    target: '≤ 90 KB',
    waitsFor: 'phase frontend not run (needs admin/dist and portal/dist with --manifest)',
  },
  {
    id: 'frontend',
    what: 'Admin login page / patient page before its charts, JavaScript gzip',
    target: '≤ 350 KB / ≤ 500 KB',
    waitsFor: 'phase frontend not run',
  },
  {
    id: 'frontend',
    what: 'Patient page shows its charts (headless Chromium, large data set)',
    target: 'warm p50 ≤ 1,000 ms, cold ≤ 1,500 ms',
    waitsFor: 'phase frontend not run',
  },
  {
    id: 'triage-first-page',
    what: "Priorización first page ('/triage', 20/50/100 rows)",
    target: 'p95 ≤ 50 ms',
    waitsFor: 'scenario triage-first-page not run',
  },
  { id: 'indicators', what: 'Programme indicators (12 months)', target: 'p95 ≤ 50 ms', waitsFor: 'scenario indicators not run' },
  {
    id: 'triage-build',
    what: 'Triage summaries rebuilt from the readings',
    target: 'time reported',
    waitsFor: 'phase triage-build not run',
  },
  {
    id: 'fhir-observation-search',
    what: 'FHIR Observation search by patient, code and a 30-day range (_count=100): p95 at 1 connection',
    target: 'p95 ≤ 30 ms',
    waitsFor: 'scenario fhir-observation-search not run',
  },
  {
    id: 'fhir-observation-search',
    what: 'FHIR Observation search, the same, at 10 connections',
    target: '≥ 600/s',
    waitsFor: 'scenario fhir-observation-search not run',
  },
  {
    id: 'fhir-patient-identifier',
    what: 'FHIR Patient search by identifier (system|value)',
    target: 'p95 ≤ 15 ms',
    waitsFor: 'scenario fhir-patient-identifier not run',
  },
  {
    id: 'fhir-token',
    what: 'FHIR token endpoint (SMART Backend Services): signatures verified/s',
    target: '≥ 200/s',
    waitsFor: 'phase fhir-token not run',
  },
  {
    id: 'fhir-export',
    what: "FHIR Bulk export of one organisation (Patient, Observation): resources/s beside the driver's read-and-serialise rate; API RSS; ingestion p99 during it",
    target: '≥ 20,000/s and ≥ 0.3× baseline; RSS ≤ 300 MB; p99 ≤ 2× alone',
    waitsFor: 'phase fhir-export not run',
  },
  {
    id: 'rda-build',
    what: "RDA de consulta externa of one closed teleconsultation: built from the product's rows and validated against BundleAmbulatoryRDA, p95 beside its reads on the driver (issue 51)",
    target: 'p95 reported; 0 validation errors',
    waitsFor: 'phase rda-build not run',
  },
  {
    id: 'rda-backlog',
    what: 'A backlog of 10,000 RDAs drained against a loopback IHCE platform; single-reading ingestion p99 during it (issue 51)',
    target: '≥ 50 RDAs/s; p99 ≤ 1.2× alone',
    waitsFor: 'phase rda-backlog not run',
  },
  {
    id: 'scale-out',
    what: 'Two API processes on one PostgreSQL behind a round-robin proxy',
    target: 'scales out; no scheduled work lost or duplicated',
    waitsFor: 'run with --db postgres --scale-out',
  },
];

/** Issue 22: the patient list's p95 while sign-ins arrive at this rate, at most this many times its p95 alone. */
export const CONTENTION_TARGET = { signInsPerSecond: 10, maxRatio: 2 };
/**
 * Ingestion, as issue 22 states it: SQLite's rows are held to these (issue 7's rates, and the ratios
 * to the bare insert of the same run: 0.5 for single readings, 0.6 for batches). PostgreSQL's rows
 * are reported beside them, not judged ('the ingestion rows reported beside SQLite's'): each shows
 * SQLite's target as its reference (report-extras.ts).
 */
export const INGEST_TARGETS = {
  readingsPerSecond: 1500,
  p99AtRateMs: 25,
  ratioToBare: 0.5,
  batchReadingsPerSecond: 20_000,
  batchRatioToBare: 0.6,
};
/** Issue 39: what metrics and request logs may add to a stored reading's API CPU (0.1 = 10 %). */
export const OBSERVABILITY_COST_TARGET = 0.1;
export const FRONTEND_TARGETS_KB = { portal: 90, adminLogin: 350, patientPage: 500 };
/** Issue 52: the patient page shows its charts within these, from navigation start (headless Chromium). */
export const CHARTS_SHOWN_TARGETS_MS = { warm: 1000, cold: 1500 };
/**
 * Issue 37's FHIR API rows (bench/fhir.ts). The Observation search's rate is stated at 10
 * connections; the token endpoint's phase signs `tokenAssertionsPerSecond` × --duration assertions
 * before timing (a count, not a time: each assertion's jti is good once).
 */
export const FHIR_TARGETS = {
  observationP95Ms: 30,
  observationPerSecond: 600,
  observationConnections: 10,
  patientP95Ms: 15,
  tokenPerSecond: 200,
  tokenAssertionsPerSecond: 300,
};
/**
 * Issue 37's Bulk export (bench/fhir-export.ts): resources/s from kick-off to manifest, against an
 * absolute rate and the driver's read-and-serialise rate of the same run; the API's RSS while it
 * runs; single-reading ingestion at the ingest phase's rate (ingest.ts INGEST_RATE) during exports,
 * its p99 at most `ingestP99Ratio` times the same load's alone.
 */
export const FHIR_EXPORT_TARGETS = {
  resourcesPerSecond: 20_000,
  ratioToDriver: 0.3,
  rssBytes: API_RSS_TARGET_BYTES,
  ingestP99Ratio: 2,
  ingestRate: 500,
};
/** The Bulk export phase's id for --only / --skip (`fhir` names it too). */
export const FHIR_EXPORT_ID = 'fhir-export';
/** Ids of the FHIR rows for --only / --skip; `fhir` names all three. */
export const FHIR_IDS = { observation: 'fhir-observation-search', patient: 'fhir-patient-identifier', token: 'fhir-token' } as const;
/**
 * Issue 51's RDA build (bench/rda.ts): build + validate one consultation's RDA at most `iterations`
 * times, at least `minIterations`, stopping after `maxSeconds` once the minimum is reached (the
 * validator takes a good part of a second a document on a loaded machine). The issue states no
 * figure for it: p95 reported beside its reads on the driver, judged on validating with 0 errors.
 */
export const RDA_BUILD_TARGETS = { iterations: 100, minIterations: 10, maxSeconds: 20, target: 'p95 reported; 0 validation errors' };
export const RDA_BUILD_ID = 'rda-build';
/**
 * Issue 51's backlog (bench/rda.ts): `rdas` documents drained at ≥ `perSecond` from first to last
 * send, and single-reading ingestion at `ingestRate` offered during the drain, its p99 at most
 * `ingestP99Ratio` times the same load's alone. At the target size each condition (alone, beside
 * the drain) gets at least `judgedSeconds` of load, in alternating 20-s windows (rda-rows.ts
 * alternatingWindows): the product's minute jobs put bursts of slow readings into whichever window
 * holds them, and 60 s of each gave 0.72×-1.37× over three runs of one build (P263).
 */
export const RDA_BACKLOG_TARGETS = { rdas: 10_000, perSecond: 50, ingestP99Ratio: 1.2, ingestRate: 200, judgedSeconds: 120 };
export const RDA_BACKLOG_ID = 'rda-backlog';
