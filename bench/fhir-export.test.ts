import { describe, expect, it } from 'vitest';
import { coveredMs, fhirExportRows, type FhirExportResult } from './fhir-export.js';
import type { Phase } from './measure.js';

describe('coveredMs: the share of the ingestion load an export was running', () => {
  it.each([
    ['no export', [], 0],
    ['one inside the window', [[200, 500]], 300],
    [
      'clipped at both ends',
      [
        [-100, 300],
        [900, 1500],
      ],
      400,
    ],
    [
      'overlapping exports count once',
      [
        [100, 400],
        [300, 600],
      ],
      500,
    ],
    [
      'one inside another',
      [
        [100, 900],
        [200, 300],
      ],
      800,
    ],
    [
      'outside the window',
      [
        [1000, 1200],
        [-50, 0],
      ],
      0,
    ],
  ] as Array<[string, Array<[number, number]>, number]>)('%s', (_name, intervals, expected) => {
    expect(coveredMs(intervals, 0, 1000)).toBe(expected);
  });
});

const MB = 1024 * 1024;
/** A load at `rps` with this p99, all answers 2xx. */
const phase = (rps: number, p99: number, non2xx = 0): Phase => ({
  connections: 20,
  seconds: 3,
  rps,
  latency: { count: rps * 3, mean: p99 / 3, p50: p99 / 4, p95: p99 / 2, p99, max: p99 * 2 },
  errors: 0,
  timeouts: 0,
  non2xx,
  statusCodes: { '201': rps * 3 },
  apiCpuMsPerRequest: 1,
});

/** A result inside every target; each figure can be moved alone. */
function result(
  o: {
    rate?: number;
    driver?: number;
    same?: boolean;
    rss?: number;
    alone?: number;
    during?: number;
    achieved?: number;
    non2xx?: number;
  } = {},
): FhirExportResult {
  const resources = 400_000;
  const rate = o.rate ?? 25_000;
  const driver = o.driver ?? 50_000;
  return {
    types: ['Patient', 'Observation'],
    page: 1000,
    export: {
      byType: { Patient: { resources: 20_000, bytes: 0 }, Observation: { resources: 380_000, bytes: 0 } },
      resources,
      files: 9,
      bytes: 300 * MB,
      seconds: resources / rate,
      firstProgressSeconds: 0.6,
      polls: 300,
      apiCpuSeconds: 10,
      downloadSeconds: 2,
      perSecond: rate,
    },
    baseline: {
      byType: { Patient: { resources: 20_000, bytes: 0 }, Observation: { resources: 380_000, bytes: 0 } },
      statements: 1200,
      sqlSeconds: 3,
      seconds: resources / driver,
      resources,
      bytes: 300 * MB,
      perSecond: driver,
    },
    same: o.same ?? true,
    rss: { beforeBytes: 150 * MB, exportBytes: (o.rss ?? 200) * MB, duringIngestionBytes: 210 * MB, highWaterBytes: 220 * MB },
    ingestion: {
      rate: 500,
      connections: 20,
      alone: phase(500, o.alone ?? 10),
      during: phase(o.achieved ?? 499, o.during ?? 15, o.non2xx),
      exports: 1,
      coverage: 1,
    },
    removedRows: {},
  };
}

const verdicts = (r: FhirExportResult) => fhirExportRows(r).map((row) => row.ok);

describe('fhirExportRows: the Bulk export rows as issue 37 judges them', () => {
  it.each([
    ['every figure inside its target', {}, [true, true, true]],
    ['19,999 resources/s', { rate: 19_999 }, [false, true, true]],
    ['0.29× the driver, above 20,000/s', { rate: 29_000, driver: 100_000 }, [false, true, true]],
    ['files that are not what the driver wrote', { same: false }, [false, true, true]],
    ['RSS 301 MB while it runs', { rss: 301 }, [true, false, true]],
    ['ingestion p99 at 2.01× alone', { alone: 10, during: 20.1 }, [true, true, false]],
    ['ingestion p99 at 2× alone exactly', { alone: 10, during: 20 }, [true, true, true]],
    ['the offered rate not reached', { achieved: 450 }, [true, true, false]],
    ['a refused reading during the export', { non2xx: 1 }, [true, true, false]],
  ] as const)('%s', (_name, figures, expected) => {
    expect(verdicts(result(figures))).toEqual(expected);
  });

  it('shows the rate beside the driver’s and the ratio', () => {
    const [rate] = fhirExportRows(result({ rate: 25_000, driver: 50_000 }));
    expect(rate.figure).toBe('25,000/s');
    expect(rate.baseline).toMatch(/^50,000\/s \(the same pages of 1000 read on the driver/);
    expect(rate.ratio).toBe('0.50×');
  });
});
