import { describe, expect, it } from 'vitest';
import type { IngestionResult } from './ingest.js';
import type { Phase } from './measure.js';
import { extraRows } from './report-extras.js';

/** A load phase at `rps` answers/s with this p99, all answers 2xx. */
const phase = (rps: number, p99: number, connections = 10): Phase => ({
  connections,
  seconds: 10,
  rps,
  latency: { count: rps * 10, mean: p99 / 3, p50: p99 / 4, p95: p99 / 2, p99, max: p99 * 2 },
  errors: 0,
  timeouts: 0,
  non2xx: 0,
  statusCodes: { '201': rps * 10 },
  apiCpuMsPerRequest: 0.8,
});

/** An ingestion result; each figure can be moved alone. */
function ingestion(o: { single?: number; bare?: number; p99?: number; batch?: number; bareBatch?: number } = {}): IngestionResult {
  return {
    patients: 200,
    single: {
      api: phase(o.single ?? 1600, 20),
      bare: phase(o.bare ?? 3000, 8),
      apiAtRate: phase(500, o.p99 ?? 20, 20),
      bareAtRate: phase(500, 6, 20),
      rate: 500,
    },
    singleMany: { api: phase(2000, 40, 50), bare: phase(3500, 30, 50), connections: 50 },
    batch: { readingsPerRequest: 100, api: phase((o.batch ?? 30_000) / 100, 90), bare: phase((o.bareBatch ?? 45_000) / 100, 30) },
    apiPeakRssBytes: 200 * 1024 * 1024,
    removedRows: {},
  };
}

/** The verdicts of the four ingestion rows, in order: 10 connections, 50, 500/s p99, batches. */
const verdicts = (dialect: string, i: IngestionResult) =>
  extraRows({ ingestion: i }, dialect)
    .filter((r) => /reading/.test(r.what))
    .map((r) => r.ok);

describe('ingestion rows, as issue 22 judges them', () => {
  it.each([
    ['every figure inside its target', {}, [true, true, true, true]],
    ['single readings at 0.49 of the bare insert', { single: 1_600, bare: 3_265 }, [false, true, true, true]],
    ['single readings under 1,500/s', { single: 1_400, bare: 2_000 }, [false, true, true, true]],
    ['the 500/s p99 at 25.1 ms', { p99: 25.1 }, [true, true, false, true]],
    ['batches at 0.59 of the bare insert, above 20,000/s', { batch: 29_500, bareBatch: 50_000 }, [true, true, true, false]],
    ['batches at 0.7 but under 20,000/s', { batch: 19_000, bareBatch: 27_000 }, [true, true, true, false]],
  ] as const)('SQLite: %s', (_name, figures, expected) => {
    expect(verdicts('sqlite', ingestion(figures))).toEqual(expected);
  });

  it('PostgreSQL: the same rows are reported, not judged, with SQLite’s target beside them', () => {
    const rows = extraRows({ ingestion: ingestion({ single: 900, p99: 60, batch: 15_000 }) }, 'postgres').filter((r) =>
      /reading/.test(r.what),
    );
    expect(rows.map((r) => r.ok)).toEqual([null, null, null, null]);
    expect(rows.map((r) => r.target)).toEqual([
      "reported (SQLite's: ≥ 1,500/s and ≥ 0.5 × baseline)",
      "reported (SQLite's: ≥ 1,500/s and ≥ 0.5 × baseline)",
      "reported (SQLite's: p99 ≤ 25 ms at 500 req/s)",
      "reported (SQLite's: ≥ 20,000/s and ≥ 0.6 × baseline)",
    ]);
  });
});

describe('the patient page’s charts, as issue 52 judges them', () => {
  const latency = (p50: number) => ({ count: 5, mean: p50, p50, p95: p50, p99: p50, max: p50 });
  const weight = { page: 'p', files: [], gzipBytes: 400 * 1024, chartGzipBytes: 300 * 1024 };
  const chartRows = (warm: number, cold: number) =>
    extraRows(
      {
        frontend: {
          adminLogin: weight,
          patientPage: weight,
          portalFirst: { ...weight, gzipBytes: 60 * 1024 },
          chartsShown: { coldMs: cold, warm: latency(warm), patientId: 1, headerColdMs: 700, headerWarm: latency(500) },
        },
      },
      'sqlite',
    ).filter((r) => /shows its charts/.test(r.what));

  it.each([
    ['both inside', 1_000, 1_500, [true, true]],
    ['warm 1,001 ms', 1_001, 1_200, [false, true]],
    ['cold 1,501 ms', 900, 1_501, [true, false]],
  ] as const)('%s', (_name, warm, cold, expected) => {
    const rows = chartRows(warm, cold);
    expect(rows.map((r) => r.ok)).toEqual(expected);
    // Each beside the same loads' time to the patient's name.
    expect(rows.map((r) => r.baseline)).toEqual([
      "500.0 ms (the patient's name shown, same loads)",
      "700.0 ms (the patient's name shown, same loads)",
    ]);
  });
});

describe("the browser's reference page", () => {
  const latency = (p50: number) => ({ count: 5, mean: p50, p50, p95: p50, p99: p50, max: p50 });
  const weight = { page: 'p', files: [], gzipBytes: 400 * 1024, chartGzipBytes: 300 * 1024 };
  const referenceRows = (reference?: number) =>
    extraRows(
      {
        frontend: {
          adminLogin: weight,
          patientPage: weight,
          portalFirst: { ...weight, gzipBytes: 60 * 1024 },
          chartsShown: {
            coldMs: 1500,
            warm: latency(900),
            patientId: 1,
            referenceWarm: reference === undefined ? undefined : latency(reference),
          },
        },
      },
      'sqlite',
    ).filter((r) => /reference page/.test(r.what));

  it('is reported, not judged, beside the charts of the same loads', () => {
    const [row] = referenceRows(300);
    expect(row).toMatchObject({ figure: '300.0 ms', baseline: '900.0 ms (the charts, same loads)', ratio: '3.00×', ok: null });
  });
  it('is absent from a results file written before it', () => {
    expect(referenceRows()).toEqual([]);
  });
});
