import { explainWork, measureBaseline, runRecorded, type BaselineResult, type PlanEntry } from './baseline.js';
import { statementShape } from './capture.js';
import type { Driver } from './driver.js';
import { bodyOf, fetchRetrying, runLoad, type HttpRequest, type LoadResult } from './load.js';
import type { Outcome } from './queries.js';
import { readOutcome, type Scenario } from './scenarios.js';
import type { ApiProcess } from './server.js';
import { CONTENTION_TARGET } from './targets.js';

export interface Settings {
  seconds: number;
  warmupSeconds: number;
  connections: number;
}

/** A load phase, with the CPU the API spent on it (all its threads) per answered request. */
export type Phase = LoadResult & { apiCpuMsPerRequest: number };

export interface ScenarioResult {
  id: string;
  label: string;
  endpoint: string;
  inputs: unknown[];
  p95TargetMs: number | null;
  /** Answers per second the throughput phase must reach (absent in results before issue 37). */
  rpsTarget?: number | null;
  /**
   * For the first input, the API's answer and the baseline's, and the SQL each sent (as shapes,
   * see capture.ts): both must agree, or queries.ts no longer mirrors the service.
   */
  check: { api: Outcome; baseline: Outcome; same: boolean; apiSql: string[]; baselineSql: string[]; sameSql: boolean };
  plans: PlanEntry[];
  baseline: BaselineResult;
  /** One connection: latency without queueing, the figure held against the target. */
  single: Phase;
  /** `connections` connections: throughput, and latency with queueing. */
  loaded: Phase | null;
  apiPeakRssBytes: number;
}

export interface ContentionResult {
  label: string;
  foreground: Phase;
  background: Phase;
  backgroundConnections: number;
  /** Sign-ins per second offered (absent in results of runs before issue 22: closed loop). */
  offeredRate?: number;
}

async function callApi(api: ApiProcess, token: string, s: Scenario): Promise<Outcome> {
  const r = s.request(s.inputs[0]);
  const res = await fetchRetrying(`${api.baseUrl}${r.path}`, {
    method: r.method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json' },
    body: bodyOf(r),
  });
  const body = await res.json().catch(() => null);
  if (res.status < 200 || res.status >= 300) {
    throw new Error(`${r.method} ${r.path} respondió ${res.status}: ${JSON.stringify(body)}`);
  }
  const custom = (s as { apiOutcome?: (h: Headers, b: unknown) => Outcome }).apiOutcome;
  return (custom ?? readOutcome)(res.headers, body);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * When the load generator stops, requests it abandoned are still queued in the API, behind the
 * database. Waits until they are done, so they do not bleed into the next measurement:
 * one request through the database queue, then two quiet 200 ms windows of API CPU.
 */
async function settle(api: ApiProcess, token: string) {
  await fetchRetrying(`${api.baseUrl}/api/v1/me`, { headers: { authorization: `Bearer ${token}` } });
  let quiet = 0;
  for (let i = 0; i < 50 && quiet < 2; i++) {
    const before = api.cpuMs();
    await sleep(200);
    quiet = api.cpuMs() - before <= 20 ? quiet + 1 : 0;
  }
}

export async function loadPhase(
  api: ApiProcess,
  token: string,
  requests: HttpRequest[],
  connections: number,
  seconds: number,
  rate?: number,
): Promise<Phase> {
  const cpuBefore = api.cpuMs();
  const result = await runLoad({ baseUrl: api.baseUrl, token, connections, seconds, requests, rate });
  const cpu = api.cpuMs() - cpuBefore;
  await settle(api, token);
  return { ...result, apiCpuMsPerRequest: cpu / Math.max(1, result.rps * result.seconds) };
}

const sameOutcome = (a: Outcome, b: Outcome) => a.total === b.total && a.ids.join(',') === b.ids.join(',');

const sortedShapes = (statements: string[]) => statements.map(statementShape).sort();

export async function measureScenario(
  s: Scenario,
  deps: { api: ApiProcess; driver: Driver; token: string; settings: Settings; apiSql: string[]; log: (line: string) => void },
): Promise<ScenarioResult> {
  const { api, driver, token, settings, log } = deps;
  api.memory.setPhase(s.id);
  log(`${s.endpoint} — ${s.label}`);

  const apiOutcome = await callApi(api, token, s);
  const recorded = await runRecorded(driver, s.work, s.inputs[0]);
  const apiSql = [...deps.apiSql].sort();
  const baselineSql = sortedShapes(recorded.statements);
  const check = {
    api: apiOutcome,
    baseline: recorded.outcome,
    same: sameOutcome(apiOutcome, recorded.outcome),
    apiSql,
    baselineSql,
    sameSql: apiSql.join('\n') === baselineSql.join('\n'),
  };
  if (!check.same)
    log(
      `  AVISO: la línea base no devuelve lo mismo que la API (API ${JSON.stringify(apiOutcome)}, base ${JSON.stringify(recorded.outcome)}): revise bench/queries.ts`,
    );
  if (!check.sameSql) {
    log('  AVISO: la línea base no envía las mismas sentencias que la API: revise bench/queries.ts');
    for (const q of apiSql.filter((x) => !baselineSql.includes(x))) log(`    solo la API:   ${q}`);
    for (const q of baselineSql.filter((x) => !apiSql.includes(x))) log(`    solo la base:  ${q}`);
  }

  const plans = await explainWork(driver, s.work, s.inputs[0]);
  const baseline = await measureBaseline(driver, s.work, s.inputs, {
    seconds: settings.seconds / 2,
    maxIterations: 2000,
    concurrency: s.loadConnections,
  });
  log(
    `  base (driver): p50 ${baseline.latency.p50.toFixed(2)} ms · p95 ${baseline.latency.p95.toFixed(2)} ms${baseline.throughput ? ` · ${baseline.throughput.rps.toFixed(0)}/s con ${baseline.throughput.concurrency}` : ''}`,
  );

  const requests = s.inputs.map((input) => s.request(input));
  if (settings.warmupSeconds > 0) await loadPhase(api, token, requests, s.loadConnections ?? 1, settings.warmupSeconds);
  const single = await loadPhase(api, token, requests, 1, settings.seconds);
  log(
    `  API, 1 conexión: ${single.rps.toFixed(1)}/s · p50 ${single.latency.p50.toFixed(2)} · p95 ${single.latency.p95.toFixed(2)} · p99 ${single.latency.p99.toFixed(2)} ms · CPU ${single.apiCpuMsPerRequest.toFixed(1)} ms/petición`,
  );
  let loaded: Phase | null = null;
  if (s.loadConnections) {
    loaded = await loadPhase(api, token, requests, s.loadConnections, settings.seconds);
    log(
      `  API, ${s.loadConnections} conexiones: ${loaded.rps.toFixed(1)}/s · p50 ${loaded.latency.p50.toFixed(2)} · p95 ${loaded.latency.p95.toFixed(2)} · p99 ${loaded.latency.p99.toFixed(2)} ms · no-2xx ${loaded.non2xx} · errores ${loaded.errors}`,
    );
  }
  const apiPeakRssBytes = api.memory.peaks().find((p) => p.phase === s.id)?.peakBytes ?? 0;
  return {
    id: s.id,
    label: s.label,
    endpoint: s.endpoint,
    inputs: s.inputs,
    p95TargetMs: s.p95TargetMs,
    rpsTarget: s.rpsTarget ?? null,
    check,
    plans,
    baseline,
    single,
    loaded,
    apiPeakRssBytes,
  };
}

/**
 * A page read at one connection while sign-ins arrive at a steady CONTENTION_TARGET rate (issue 22:
 * ~10/s), against the same page alone. Password hashing runs on the API's worker threads
 * (api/src/modules/sessions/passwords.ts), so what is left is the sign-ins' share of the cores.
 * The rate is offered, not closed-loop, so the load is the same on a faster or slower machine.
 */
export async function measureContention(
  foreground: Scenario,
  background: Scenario,
  deps: { api: ApiProcess; token: string; settings: Settings; log: (line: string) => void },
): Promise<ContentionResult> {
  const { api, token, settings, log } = deps;
  // Enough connections that a sign-in waiting for a hashing thread never holds back the next one.
  const backgroundConnections = 4;
  const offeredRate = CONTENTION_TARGET.signInsPerSecond;
  api.memory.setPhase('contention');
  const requestsOf = (s: Scenario) => s.inputs.map((input) => s.request(input));
  const [fg, bg] = await Promise.all([
    loadPhase(api, token, requestsOf(foreground), 1, settings.seconds),
    loadPhase(api, token, requestsOf(background), backgroundConnections, settings.seconds, offeredRate),
  ]);
  log(
    `${foreground.label} mientras ${background.label} a ${offeredRate}/s ofrecidos: p95 ${fg.latency.p95.toFixed(2)} ms (${bg.rps.toFixed(1)} inicios/s)`,
  );
  return { label: `${foreground.label} while sign-ins run`, foreground: fg, background: bg, backgroundConnections, offeredRate };
}
