/**
 * The RDA phases' pure parts (bench/rda.ts measures): their results, the helpers the drain's figures
 * come from, and the report's rows. Nothing here touches the product, so rda.test.ts holds them.
 */
import type { Json } from '../tests/support/rda-validator.js';
import type { LoadResult } from './load.js';
import { summarize, type Latency } from './stats.js';
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
  /** seconds: first to last 'enviado' less heldSeconds, the time the platform held the sends (the windows alone). */
  drain: { sent: number; seconds: number; perSecond: number; windowSeconds: number; complete: boolean; heldSeconds: number };
  statuses: Record<string, number>;
  platform: { accepted: number; again: number; refused: number; tokens: number };
  /** API peak RSS: the load alone before the PUT, the PUT's queueing, the drain. */
  rss: { beforeBytes: number; queueBytes: number; drainBytes: number };
  /**
   * The same load in alternating windows (alternatingWindows), alone with the platform holding the
   * sends, then beside the drain: `seconds` in all for each, the windows' answers pooled.
   */
  ingestion: {
    rate: number;
    connections: number;
    seconds: number;
    alone: LoadResult;
    during: LoadResult;
    windows: LoadWindow[];
    /** RDAs sent during the windows beside the drain, and during the windows alone (held: 0). */
    sentDuring: number;
    sentAlone: number;
  };
  removedRows: Record<string, number>;
}

export type LoadCondition = 'alone' | 'during';

/** One window of the drain row's load as the report keeps it (no samples). */
export interface LoadWindow {
  condition: LoadCondition;
  startSeconds: number;
  seconds: number;
  p99: number;
  rps: number;
  /** RDAs the platform took during the window. */
  sent: number;
}

/** The longest window: a window alone holds the sends, which must be answered within the sender's 30-s timeout. */
export const LOAD_WINDOW_SECONDS = 20;

/**
 * The drain row's loads: windows alone and beside the drain, alternating (alone first), on a grid
 * of `each` seconds from the first's start, each lasting that less a gap for the switch (a tenth,
 * at most 1 s). `each` is LOAD_WINDOW_SECONDS, or a third of `seconds` when that is shorter; there
 * are three pairs of windows for every 3 × `each` seconds asked, so each condition gets at least
 * `seconds`. The product's minute jobs (the orders lifecycle, stale data, triage) put bursts of
 * slow readings into whichever window holds them: on a grid of 20 s, three pairs place the windows
 * alone at 0, 40 and 80 s and those beside the drain at 20, 60 and 100 s, so each condition covers
 * every third of a minute once per three pairs and meets each minute job as often as the other.
 */
export function alternatingWindows(seconds: number) {
  const each = Math.min(LOAD_WINDOW_SECONDS, seconds / 3);
  const pairs = 3 * Math.max(1, Math.ceil(seconds / (3 * each) - 1e-9));
  const gap = Math.min(1, each / 10);
  return Array.from({ length: 2 * pairs }, (_, k) => ({
    condition: (k % 2 === 0 ? 'alone' : 'during') as LoadCondition,
    startSeconds: k * each,
    seconds: each - gap,
  }));
}

/** Several windows' loads as one: answers pooled (their samples), counts and seconds summed. */
export function poolLoads(loads: LoadResult[]): LoadResult {
  const samples = loads.flatMap((l) => {
    if (!l.samples) throw new Error('poolLoads: a load without its samples (runLoad keepSamples)');
    return l.samples;
  });
  const seconds = loads.reduce((n, l) => n + l.seconds, 0);
  const statusCodes: Record<string, number> = {};
  for (const l of loads) for (const [code, n] of Object.entries(l.statusCodes)) statusCodes[code] = (statusCodes[code] ?? 0) + n;
  const sum = (f: (l: LoadResult) => number) => loads.reduce((n, l) => n + f(l), 0);
  return {
    connections: Math.max(0, ...loads.map((l) => l.connections)),
    seconds,
    rps: seconds > 0 ? samples.length / seconds : NaN,
    latency: summarize(samples),
    errors: sum((l) => l.errors),
    timeouts: sum((l) => l.timeouts),
    non2xx: sum((l) => l.non2xx),
    statusCodes,
  };
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
 * between them, less `heldMs` (the bench's platform holding the sends). Fewer than two sends, or all
 * in the same millisecond, give no rate (NaN).
 */
export function drainRate(sentAtMs: number[], heldMs = 0): { sent: number; seconds: number; perSecond: number } {
  if (sentAtMs.length < 2) return { sent: sentAtMs.length, seconds: 0, perSecond: NaN };
  let first = Infinity;
  let last = -Infinity;
  for (const t of sentAtMs) {
    if (t < first) first = t;
    if (t > last) last = t;
  }
  const seconds = Math.max(0, last - first - heldMs) / 1000;
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
  const windowP99s = (c: LoadCondition) =>
    i.windows
      .filter((w) => w.condition === c)
      .map((w) => w.p99.toFixed(1))
      .join(' / ');
  return [
    {
      what: `A backlog of ${r.rdas.toLocaleString('en-US')} RDAs (kept 'sin enviar': by direct SQL of recordRda's INSERTs in ${r.bulkSeconds.toFixed(1)} s, the last ${r.recordSample} by recordRda at ${r.recordMs.toFixed(1)} ms each; queued by PUT /clients/{id}/ihce in ${r.queueSeconds.toFixed(1)} s) drained by rda.send to a loopback IHCE platform (token, subscription key; profiles not validated): ${d.sent.toLocaleString('en-US')} of ${r.queued.toLocaleString('en-US')} sent in ${d.seconds.toFixed(1)} s (first to last, less the ${d.heldSeconds.toFixed(0)} s the platform held them)${d.complete ? '' : ` (window of ${d.windowSeconds.toFixed(0)} s ended first)`}, first at ${r.firstSentSeconds.toFixed(1)} s; API peak RSS ${mb(r.rss.queueBytes)} while queueing, ${mb(r.rss.drainBytes)} draining (${mb(r.rss.beforeBytes)} before): RDAs/s, first to last 'enviado'`,
      target: `≥ ${T.perSecond}/s`,
      figure: perSecond(d.perSecond),
      baseline: '—',
      ratio: '—',
      ok: d.perSecond >= T.perSecond && refused === 0,
    },
    {
      what: `One reading per request at ${i.rate} req/s offered, in ${i.windows.length} alternating windows of ${(i.windows[0]?.seconds ?? 0).toFixed(0)} s: alone (the loopback platform holding the sends; ${i.sentAlone} sent) and while the RDA backlog drains (${i.sentDuring} RDAs sent; achieved ${i.during.rps.toFixed(0)}/s); window p99s alone ${windowP99s('alone')}, draining ${windowP99s('during')}: p99 of each condition's answers pooled`,
      target: `≤ ${T.ingestP99Ratio}× alone`,
      figure: ms(i.during.latency.p99),
      baseline: `${ms(i.alone.latency.p99)} (the same load alone, windows between, this run; ${i.alone.rps.toFixed(0)}/s)`,
      ratio: times(p99Ratio),
      ok:
        p99Ratio <= T.ingestP99Ratio &&
        i.during.rps >= i.rate * 0.95 &&
        clean(i.during) &&
        clean(i.alone) &&
        i.sentDuring > 0 &&
        i.sentAlone === 0,
    },
  ];
}
