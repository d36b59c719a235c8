import { describe, expect, it } from 'vitest';
import type { LoadResult } from './load.js';
import {
  alternatingWindows,
  drainRate,
  LOAD_WINDOW_SECONDS,
  drainWindowSeconds,
  poolLoads,
  rdaBacklogRows,
  rdaBuildRow,
  timeOf,
  withIdentifier,
  type RdaBacklogResult,
  type RdaBuildResult,
} from './rda-rows.js';

describe('timeOf: a time column as either driver answers it', () => {
  it.each([
    ['SQLite text as Sequelize writes it', '2026-11-21 12:00:00.123 +00:00', Date.parse('2026-11-21T12:00:00.123Z')],
    ['another offset', '2026-11-21 07:00:00.000 -05:00', Date.parse('2026-11-21T12:00:00.000Z')],
    ['an offset without colon', '2026-11-21 07:00:00 -0500', Date.parse('2026-11-21T12:00:00.000Z')],
    ['ISO with Z', '2026-11-21T12:00:00.500Z', Date.parse('2026-11-21T12:00:00.500Z')],
    ['no zone: UTC', '2026-11-21 12:00:00', Date.parse('2026-11-21T12:00:00.000Z')],
  ])('%s', (_name, text, expected) => {
    expect(timeOf(text)).toBe(expected);
  });

  it('takes a Date (PostgreSQL) as it is', () => {
    expect(timeOf(new Date('2026-11-21T12:00:00Z'))).toBe(Date.parse('2026-11-21T12:00:00Z'));
  });
});

describe('drainRate: RDAs per second from the first send to the last', () => {
  it.each([
    ['nothing sent', [], { sent: 0, seconds: 0, perSecond: NaN }],
    ['one send gives no rate', [1000], { sent: 1, seconds: 0, perSecond: NaN }],
    ['101 sends over 2 s: 50/s', Array.from({ length: 101 }, (_, k) => 5000 + k * 20), { sent: 101, seconds: 2, perSecond: 50 }],
    ['order does not matter', [3000, 1000, 2000], { sent: 3, seconds: 2, perSecond: 1 }],
    ['all in one millisecond', [7, 7, 7], { sent: 3, seconds: 0, perSecond: NaN }],
    [
      '101 sends over 32 s of which 30 held: 50/s',
      Array.from({ length: 101 }, (_, k) => 5000 + k * 20 + (k > 50 ? 30_000 : 0)),
      { sent: 101, seconds: 2, perSecond: 50 },
      30_000,
    ],
  ] as Array<[string, number[], ReturnType<typeof drainRate>, number?]>)('%s', (_name, times, expected, heldMs) => {
    expect(drainRate(times, heldMs)).toEqual(expected);
  });
});

describe('alternatingWindows: the drain row loads alone and beside the drain in turn', () => {
  /** Which thirds of a minute a condition's windows start on. */
  const thirds = (seconds: number, condition: string) =>
    alternatingWindows(seconds)
      .filter((w) => w.condition === condition)
      .map((w) => Math.round(w.startSeconds % 60) / 20)
      .sort();

  it.each([
    ['60 s each: three pairs of 20-s windows of 19 s', 60, 20, 19, 3],
    ['at full size, 120 s each: six pairs', 120, 20, 19, 6],
    ["CI's small run, 2 s each: three pairs, windows a tenth shorter than their grid", 2, 2 / 3, 0.6, 3],
    ['90 s asked: six pairs, at least what was asked', 90, 20, 19, 6],
  ])('%s', (_name, seconds, grid, runs, pairs) => {
    const plan = alternatingWindows(seconds);
    expect(plan.map((w) => w.condition)).toEqual(Array.from({ length: pairs }, () => ['alone', 'during']).flat());
    plan.forEach((w, k) => expect(w.startSeconds).toBeCloseTo(k * grid, 9));
    plan.forEach((w) => expect(w.seconds).toBeCloseTo(runs, 9));
    // Each condition gets at least `seconds` on its grid, and no window alone holds the sends past 20 s.
    expect(pairs * grid).toBeGreaterThanOrEqual(seconds - 1e-9);
    expect(Math.max(...plan.map((w) => w.seconds))).toBeLessThanOrEqual(LOAD_WINDOW_SECONDS);
  });

  it('gives each condition every third of a minute as often as the other (each minute job meets both)', () => {
    expect(thirds(60, 'alone')).toEqual([0, 1, 2]);
    expect(thirds(60, 'during')).toEqual([0, 1, 2]);
    expect(thirds(120, 'alone')).toEqual([0, 0, 1, 1, 2, 2]);
    expect(thirds(120, 'during')).toEqual([0, 0, 1, 1, 2, 2]);
  });
});

describe('poolLoads: windows of one condition as one load', () => {
  const load = (samples: number[], o: Partial<LoadResult> = {}): LoadResult => ({
    connections: 20,
    seconds: 2,
    rps: samples.length / 2,
    latency: { count: samples.length, mean: 0, p50: 0, p95: 0, p99: 0, max: 0 },
    errors: 0,
    timeouts: 0,
    non2xx: 0,
    statusCodes: { '201': samples.length },
    samples,
    ...o,
  });

  it('takes p99 over every answer, not the mean of the windows', () => {
    // 99 fast answers in one window and one slow: pooled p99 is fast; a slow window of 100 moves it.
    const quiet = poolLoads([load(Array(99).fill(5)), load([80])]);
    expect(quiet.latency).toMatchObject({ count: 100, p99: 5, max: 80 });
    const slow = poolLoads([load(Array(100).fill(5)), load(Array(100).fill(50))]);
    expect(slow.latency.p99).toBe(50);
    expect(slow.rps).toBe(50);
  });

  it('sums the seconds, the errors and each status', () => {
    const pooled = poolLoads([load([1, 2], { non2xx: 1, statusCodes: { '201': 2, '500': 1 } }), load([3], { errors: 2 })]);
    expect(pooled).toMatchObject({ seconds: 4, rps: 0.75, errors: 2, non2xx: 1, statusCodes: { '201': 3, '500': 1 } });
    expect(pooled.samples).toBeUndefined();
  });

  it('refuses a window whose samples were not kept', () => {
    expect(() => poolLoads([load([1], { samples: undefined })])).toThrow(/keepSamples/);
  });
});

describe('drainWindowSeconds: how long the phase waits for the backlog', () => {
  it.each([
    ['CI small run: 15 × 2 s', 10_000, 50, 2, 30],
    ['--duration 10: 150 s', 10_000, 50, 10, 150],
    ['long runs: what the target needs, with half again', 10_000, 50, 60, 300],
    ['a tiny backlog still gets 5 s', 10, 50, 2, 5],
  ])('%s', (_name, rdas, target, duration, expected) => {
    expect(drainWindowSeconds(rdas, target, duration)).toBe(expected);
  });
});

describe('withIdentifier', () => {
  it("changes the Bundle's identifier only, leaving the one it was made from as it was", () => {
    const bundle = { resourceType: 'Bundle', type: 'document', identifier: { system: 'urn:x', value: 'a' }, entry: [{}] };
    const copy = withIdentifier(bundle, 'b');
    expect(copy).toEqual({ ...bundle, identifier: { system: 'urn:x', value: 'b' } });
    expect(copy.entry).toBe(bundle.entry);
    expect(bundle.identifier.value).toBe('a');
  });
});

const latency = (p95: number) => ({ count: 100, mean: p95 / 2, p50: p95 / 2, p95, p99: p95, max: p95 });
const build = (errors = 0): RdaBuildResult => ({
  encounterId: 1,
  made: true,
  iterations: 100,
  bundleBytes: 26 * 1024,
  entries: 15,
  definitionsSeconds: 2,
  total: latency(240),
  build: latency(30),
  validate: latency(210),
  reads: latency(20),
  errors,
  firstErrors: [],
  baseline: { statements: 12, latency: latency(1.5) },
});

const phase = (rps: number, p99: number, non2xx = 0): LoadResult => ({
  connections: 20,
  seconds: 2,
  rps,
  latency: { count: rps * 2, mean: p99 / 3, p50: p99 / 4, p95: p99 / 2, p99, max: p99 * 2 },
  errors: 0,
  timeouts: 0,
  non2xx,
  statusCodes: { '201': rps * 2 },
});

/** Inside every target; each figure can be moved alone. */
function backlog(
  over: { perSecond?: number; duringP99?: number; statuses?: Record<string, number>; sentDuring?: number; sentAlone?: number } = {},
): RdaBacklogResult {
  return {
    rdas: 10_000,
    bulkSeconds: 3,
    recordMs: 2,
    recordSample: 200,
    bundleBytes: 26 * 1024,
    queueSeconds: 2,
    queued: 10_000,
    firstSentSeconds: 1,
    drain: { sent: 10_000, seconds: 100, perSecond: over.perSecond ?? 100, windowSeconds: 300, complete: true, heldSeconds: 60 },
    statuses: over.statuses ?? { enviado: 10_000 },
    platform: { accepted: 10_000, again: 0, refused: 0, tokens: 1 },
    rss: { beforeBytes: 180 * 1024 * 1024, queueBytes: 200 * 1024 * 1024, drainBytes: 190 * 1024 * 1024 },
    ingestion: {
      rate: 200,
      connections: 20,
      seconds: 60,
      alone: phase(200, 20),
      during: phase(200, over.duringP99 ?? 22),
      windows: alternatingWindows(60).map((w, k) => ({ ...w, p99: 20 + k, rps: 200, sent: w.condition === 'alone' ? 0 : 70 })),
      sentDuring: over.sentDuring ?? 210,
      sentAlone: over.sentAlone ?? 0,
    },
    removedRows: {},
  };
}

describe('the RDA rows', () => {
  it('reports the build beside its reads on the driver, passing with 0 validation errors', () => {
    const row = rdaBuildRow(build());
    expect(row).toMatchObject({
      figure: '240.0 ms',
      baseline: expect.stringMatching(/^1\.50 ms \(its 12 SELECTs/),
      ratio: '160.00×',
      ok: true,
    });
    expect(rdaBuildRow(build(3)).ok).toBe(false);
  });

  it('passes a backlog drained at the target with ingestion within 1.2× of alone', () => {
    const [drain, ingest] = rdaBacklogRows(backlog());
    expect(drain).toMatchObject({ figure: '100.0/s', target: '≥ 50/s', ok: true });
    expect(ingest).toMatchObject({ figure: '22.0 ms', ratio: '1.10×', target: '≤ 1.2× alone', ok: true });
  });

  it.each([
    ['a drain below 50/s', { perSecond: 4.1 }, 0],
    ['a document refused on the way', { statuses: { enviado: 9_999, rechazado: 1 } }, 0],
    ['ingestion p99 over 1.2× alone', { duringP99: 25 }, 1],
    ['no RDA sent while the load ran', { sentDuring: 0 }, 1],
    ['RDAs sent in a window alone (the hold did not hold)', { sentAlone: 3 }, 1],
  ])('fails %s', (_name, over, index) => {
    const rows = rdaBacklogRows(backlog(over));
    expect(rows[index].ok).toBe(false);
    expect(rows[1 - index].ok).toBe(true);
  });
});
