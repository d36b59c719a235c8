/**
 * The RDA phases' pure parts (bench/rda.ts measures): their results, the helpers the drain's figures
 * come from, and the report's rows. Nothing here touches the product, so rda.test.ts holds them.
 */
import type { Json } from '../tests/support/rda-validator.js';
import type { LoadResult } from './load.js';
import type { Phase } from './measure.js';
import type { Latency } from './stats.js';
import { RDA_BACKLOG_TARGETS, RDA_BUILD_TARGETS } from './targets.js';

export interface RdaBuildResult {
  encounterId: number;
  made: boolean;
  iterations: number;
  bundleBytes: number;
  entries: number;
  /** The guide's definitions loaded once before timing (the validator's first call). */
  definitionsSeconds: number;
  /** Build (records → Bundle) + validate, per iteration; and each part. */
  total: Latency;
  build: Latency;
  validate: Latency;
  /** The records' reads inside build, as the API's Sequelize sends them. */
  reads: Latency;
  errors: number;
  firstErrors: string[];
  baseline: { statements: number; latency: Latency };
}

export interface RdaBacklogResult {
  rdas: number;
  /** The backlog but recordSample, by direct SQL of recordRda's INSERTs ('sin enviar'; rdas, then rda_documents), in seconds. */
  bulkSeconds: number;
  /** recordRda's time per document for the last recordSample, at the backlog's size. */
  recordMs: number;
  recordSample: number;
  bundleBytes: number;
  /** PUT /clients/{id}/ihce answered (it queues every document 'sin enviar' in its transaction). */
  queueSeconds: number;
  queued: number;
  /** From the PUT to the first 'enviado'. */
  firstSentSeconds: number;
  drain: { sent: number; seconds: number; perSecond: number; windowSeconds: number; complete: boolean };
  statuses: Record<string, number>;
  platform: { accepted: number; again: number; refused: number; tokens: number };
  /** API peak RSS: the load alone before the PUT, the PUT's queueing, the drain. */
  rss: { beforeBytes: number; queueBytes: number; drainBytes: number };
  /** Each load (alone, then during the drain) lasted `seconds`. */
  ingestion: { rate: number; connections: number; seconds: number; alone: Phase; during: LoadResult; sentDuring: number };
  removedRows: Record<string, number>;
}

/** A time column as either driver gives it: a Date (pg) or SQLite's '2026-11-21 12:00:00.123 +00:00' text. */
export function timeOf(v: string | Date): number {
  if (v instanceof Date) return v.getTime();
  const m = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2}(?:\.\d+)?)\s*(Z|[+-]\d{2}:?\d{2})?$/.exec(v.trim());
  if (!m) return Date.parse(v);
  const zone = !m[3] || m[3] === 'Z' ? 'Z' : m[3].replace(/^([+-]\d{2})(\d{2})$/, '$1:$2');
  return Date.parse(`${m[1]}T${m[2]}${zone}`);
}

/**
 * RDAs per second from the first to the last send: (n − 1) sends after the first over the time
 * between them. Fewer than two sends, or all in the same millisecond, give no rate (NaN).
 */
export function drainRate(sentAtMs: number[]): { sent: number; seconds: number; perSecond: number } {
  if (sentAtMs.length < 2) return { sent: sentAtMs.length, seconds: 0, perSecond: NaN };
  let first = Infinity;
  let last = -Infinity;
  for (const t of sentAtMs) {
    if (t < first) first = t;
    if (t > last) last = t;
  }
  const seconds = (last - first) / 1000;
  return { sent: sentAtMs.length, seconds, perSecond: seconds > 0 ? (sentAtMs.length - 1) / seconds : NaN };
}

/**
 * How long the phase waits for the backlog to drain: what the target rate needs with half again
 * as much, bounded by 15 × --duration (30 s in CI's small run, 150 s at --duration 10), so a
 * sender far below target is reported from what it sent in that time, not waited on for an hour.
 */
export function drainWindowSeconds(rdas: number, perSecondTarget: number, durationSeconds: number): number {
  return Math.max(5, Math.min((1.5 * rdas) / perSecondTarget, 15 * durationSeconds));
}

/** A Bundle with a new document identifier (Bundle.identifier, what recordRda keys a document by). */
export function withIdentifier(bundle: Json, identifier: string): Json {
  return { ...bundle, identifier: { ...bundle.identifier, value: identifier } };
}

const ms = (v: number) => (Number.isFinite(v) ? `${v < 10 ? v.toFixed(2) : v.toFixed(1)} ms` : '—');
const perSecond = (v: number) => (Number.isFinite(v) ? `${v.toFixed(1)}/s` : '—');
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const times = (v: number) => (Number.isFinite(v) ? `${v.toFixed(2)}×` : '—');

export function rdaBuildRow(r: RdaBuildResult) {
  return {
    what: `RDA de consulta externa of one closed teleconsultation (${r.entries} entries, ${(r.bundleBytes / 1024).toFixed(0)} KB with its Epicrisis PDF): built from the product's rows by its own builder (p95 ${ms(r.build.p95)}, of which reads ${ms(r.reads.p95)}) + validated against BundleAmbulatoryRDA (p95 ${ms(r.validate.p95)}; the guide's definitions loaded once in ${r.definitionsSeconds.toFixed(1)} s); ${r.iterations} times, ${r.errors} validation errors: p95`,
    target: RDA_BUILD_TARGETS.target,
    figure: ms(r.total.p95),
    baseline: `${ms(r.baseline.latency.p95)} (its ${r.baseline.statements} SELECTs read on the driver, p95)`,
    ratio: times(r.total.p95 / r.baseline.latency.p95),
    ok: r.errors === 0,
  };
}

export function rdaBacklogRows(r: RdaBacklogResult) {
  const T = RDA_BACKLOG_TARGETS;
  const d = r.drain;
  const i = r.ingestion;
  const p99Ratio = i.during.latency.p99 / i.alone.latency.p99;
  const clean = (l: LoadResult) => l.non2xx + l.errors + l.timeouts === 0;
  const refused = (r.statuses.rechazado ?? 0) + (r.statuses.sin_enviar ?? 0);
  return [
    {
      what: `A backlog of ${r.rdas.toLocaleString('en-US')} RDAs (kept 'sin enviar': by direct SQL of recordRda's INSERTs in ${r.bulkSeconds.toFixed(1)} s, the last ${r.recordSample} by recordRda at ${r.recordMs.toFixed(1)} ms each; queued by PUT /clients/{id}/ihce in ${r.queueSeconds.toFixed(1)} s) drained by rda.send to a loopback IHCE platform (token, subscription key; profiles not validated): ${d.sent.toLocaleString('en-US')} of ${r.queued.toLocaleString('en-US')} sent in ${d.seconds.toFixed(1)} s${d.complete ? '' : ` (window of ${d.windowSeconds.toFixed(0)} s ended first)`}, first at ${r.firstSentSeconds.toFixed(1)} s; API peak RSS ${mb(r.rss.queueBytes)} while queueing, ${mb(r.rss.drainBytes)} draining (${mb(r.rss.beforeBytes)} before): RDAs/s, first to last 'enviado'`,
      target: `≥ ${T.perSecond}/s`,
      figure: perSecond(d.perSecond),
      baseline: '—',
      ratio: '—',
      ok: d.perSecond >= T.perSecond && refused === 0,
    },
    {
      what: `One reading per request at ${i.rate} req/s offered for ${i.seconds} s while the RDA backlog drains (${i.sentDuring} RDAs sent during the load; achieved ${i.during.rps.toFixed(0)}/s): p99`,
      target: `≤ ${T.ingestP99Ratio}× alone`,
      figure: ms(i.during.latency.p99),
      baseline: `${ms(i.alone.latency.p99)} (the same load alone, this run; ${i.alone.rps.toFixed(0)}/s)`,
      ratio: times(p99Ratio),
      ok: p99Ratio <= T.ingestP99Ratio && i.during.rps >= i.rate * 0.95 && clean(i.during) && clean(i.alone) && i.sentDuring > 0,
    },
  ];
}
