import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fhirTokenRow, postAssertions, type FhirTokenResult } from './fhir-token.js';
import type { Phase, ScenarioResult } from './measure.js';
import { buildRows, type Results } from './report.js';
import { FHIR_IDS, PENDING } from './targets.js';

/** A load phase at `rps` answers/s, all 2xx unless `refused` is given. */
const phase = (rps: number, connections: number, refused = 0): Phase => ({
  connections,
  seconds: 3,
  rps,
  latency: { count: rps * 3, mean: 5, p50: 4, p95: 9, p99: 12, max: 20 },
  errors: 0,
  timeouts: 0,
  non2xx: refused,
  statusCodes: { '200': rps * 3, ...(refused ? { '401': refused } : {}) },
  apiCpuMsPerRequest: 1.2,
});

function observationSearch(rps: number, p95: number): ScenarioResult {
  const single = phase(120, 1);
  return {
    id: 'fhir-observation-search',
    label: 'FHIR Observation search',
    endpoint: 'GET /fhir/R4/Observation',
    inputs: [],
    p95TargetMs: 30,
    rpsTarget: 600,
    check: { api: { total: 1, ids: [1] }, baseline: { total: 1, ids: [1] }, same: true, apiSql: [], baselineSql: [], sameSql: true },
    plans: [],
    baseline: {
      latency: { count: 100, mean: 1, p50: 1, p95: 2, p99: 3, max: 4 },
      statements: [{ label: '2. measurements (page)', sql: 'SELECT 1', latency: { count: 100, mean: 1, p50: 1, p95: 2, p99: 3, max: 4 } }],
      throughput: { concurrency: 10, seconds: 1.5, rps: 1500 },
    },
    single: { ...single, latency: { ...single.latency, p95 } },
    loaded: phase(rps, 10),
    apiPeakRssBytes: 0,
  };
}

function rowsFor(scenarios: ScenarioResult[], patients = 100_000) {
  const r = {
    dataset: { options: { patients } },
    scenarios,
    contention: null,
    memory: { idleBytes: 1, peakBytes: 1, highWaterBytes: 1, perPhase: [] },
    database: { dialect: 'sqlite', version: '' },
  } as unknown as Omit<Results, 'rows'>;
  return buildRows(r);
}

describe('FHIR rows in the summary (issue 37)', () => {
  it.each([
    ['at 600/s and p95 30 ms', 600, 30, ['pass', 'pass']],
    ['at 599/s', 599, 12, ['pass', 'FAIL']],
    ['at p95 30.1 ms', 900, 30.1, ['FAIL', 'pass']],
  ] as const)('judges the Observation search %s: p95 at one connection, then the rate at 10', (_name, rps, p95, expected) => {
    const rows = rowsFor([observationSearch(rps, p95)]).filter((r) => r.what.startsWith('FHIR Observation search'));
    expect(rows.map((r) => r.target)).toEqual(['≤ 30 ms', '≥ 600/s']);
    expect(rows.map((r) => r.result)).toEqual(expected);
  });

  it('marks a verdict measured on a smaller data set', () => {
    const rows = rowsFor([observationSearch(700, 20)], 2000).filter((r) => r.what.startsWith('FHIR Observation search'));
    expect(rows.map((r) => r.result)).toEqual(['pass ¹', 'pass ¹']);
  });

  it('keeps the rows of FHIR phases that did not run as pendiente, and drops them once they ran', () => {
    const ours = new Set(PENDING.filter((p) => (Object.values(FHIR_IDS) as string[]).includes(p.id)).map((p) => p.what));
    const pending = (s: ScenarioResult[]) => rowsFor(s).filter((r) => ours.has(r.what) && r.figure === 'pendiente').length;
    expect(pending([])).toBe(4);
    expect(pending([observationSearch(700, 20)])).toBe(2);
  });

  const token = (rps: number, refused = 0): FhirTokenResult => ({
    alg: 'RS384',
    assertions: 900,
    warmup: 100,
    signSeconds: 1,
    api: phase(rps, 10, refused),
    baseline: { concurrency: 10, perSecond: 2000, sequentialPerSecond: 1800, failed: 0 },
  });
  it.each([
    ['200/s, none refused', 200, 0, true],
    ['199/s', 199, 0, false],
    ['300/s with one assertion refused', 300, 1, false],
  ] as const)('judges the token endpoint at %s', (_name, rps, refused, ok) => {
    const row = fhirTokenRow(token(rps, refused));
    expect(row.ok).toBe(ok);
    expect(row.target).toBe('≥ 200/s');
    expect(row.ratio).toBe(`${(rps / 2000).toFixed(2)}×`);
  });
});

describe('postAssertions', () => {
  const bodies: string[] = [];
  let server: http.Server;
  let baseUrl: string;
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        bodies.push(`${req.method} ${req.url} ${req.headers['content-type']} ${body}`);
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('posts every assertion once, form-encoded, from several connections (a jti is good once)', async () => {
    const assertions = Array.from({ length: 57 }, (_, i) => `a.b.${i}`);
    const result = await postAssertions(baseUrl, assertions, 4);
    expect(result.statusCodes).toEqual({ 200: 57 });
    expect(bodies).toHaveLength(57);
    const sent = bodies.map((b) => {
      const [method, path, type, form] = b.split(' ');
      expect([method, path, type]).toEqual(['POST', '/oauth/token', 'application/x-www-form-urlencoded']);
      const p = new URLSearchParams(form);
      expect(p.get('grant_type')).toBe('client_credentials');
      return p.get('client_assertion');
    });
    expect(new Set(sent)).toEqual(new Set(assertions));
  });

  it("times the run to its last answer, not to autocannon's next one-second sample", async () => {
    const assertions = Array.from({ length: 20 }, (_, i) => `c.d.${i}`);
    const result = await postAssertions(baseUrl, assertions, 2);
    expect(result.seconds).toBeLessThan(0.9);
    expect(result.rps).toBeCloseTo(20 / result.seconds, 6);
  });
});
