/**
 * Ingestion rows of issue 7: one reading per request and 100 readings per request through
 * POST /api/v1/patients/{id}/measurements (staff token: auth, validation, patient lookup, insert,
 * alarm check, activity match, webhook queue in one transaction), each beside the bare-insert
 * baseline (bare-ingest.ts: a bare Express route inserting the same rows with the raw driver) in
 * the same run, on the same database, with the same load:
 * - closed loop at `connections` connections: readings/s and p50/p95/p99;
 * - open loop at 500 requests/s (autocannon overallRate): p99 at the rate.
 * Afterwards the rows the run added (measurements, alerts raised, their links) are deleted, so a
 * reused data set stays the same for the reads.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Driver, DriverTarget } from './driver.js';
import { fetchRetrying, runLoad, type HttpRequest, type LoadResult } from './load.js';
import { loadPhase, type Phase, type Settings } from './measure.js';
import type { Caller } from './queries.js';
import { freePort, startApi, type ApiProcess, type RunClock } from './server.js';
import { PATIENT_STATUS } from '@vigia/contract/rules/access';

export interface IngestionResult {
  patients: number;
  single: { api: Phase; bare: LoadResult; apiAtRate: Phase; bareAtRate: LoadResult; rate: number };
  /** The same closed loop with many senders at once (devices report concurrently), beside the baseline's. */
  singleMany: { api: Phase; bare: LoadResult; connections: number };
  batch: { readingsPerRequest: number; api: Phase; bare: LoadResult };
  /**
   * Issue 39: single readings on an API with metrics and JSON request logs on (as npm start runs)
   * beside one with METRICS=off LOG_LEVEL=silent, both started for this row on the same data (issue
   * 52; before, `on` was this API, after every other phase), in alternating rounds; each side's
   * rounds summed. `thisApi`: the same rounds on this API, for reference (absent before issue 52).
   */
  observability?: { rounds: number; on: ObservabilitySide; off: ObservabilitySide; thisApi?: ObservabilitySide };
  apiPeakRssBytes: number;
  removedRows: Record<string, number>;
}

export interface ObservabilitySide {
  connections: number;
  seconds: number;
  /** 2xx answers per second over all rounds. */
  rps: number;
  /** API CPU (all threads) per answered request, over all rounds. */
  apiCpuMsPerRequest: number;
  p99: number;
  failed: number;
}

/** Rounds of each side, alternated (on, off, on, off...), so a burst of other work on the machine falls on both. */
const OBSERVABILITY_ROUNDS = 3;

function sumRounds(phases: Phase[]): ObservabilitySide {
  const seconds = phases.reduce((a, p) => a + p.seconds, 0);
  const answered = phases.reduce((a, p) => a + p.rps * p.seconds, 0);
  return {
    connections: phases[0].connections,
    seconds,
    rps: answered / seconds,
    apiCpuMsPerRequest: phases.reduce((a, p) => a + p.apiCpuMsPerRequest * p.rps * p.seconds, 0) / Math.max(1, answered),
    p99: Math.max(...phases.map((p) => p.latency.p99)),
    failed: phases.reduce((a, p) => a + p.non2xx + p.errors + p.timeouts, 0),
  };
}

const INGEST_RATE = 500;
/**
 * Senders at once for the second closed loop: a client's devices report concurrently, and group
 * commit stores what arrives together in one transaction. (The HealthSamurai figures the issue
 * quotes used 300 virtual users.)
 */
const INGEST_MANY_CONNECTIONS = 50;
const BATCH_SIZE = 100;

/** A heart rate, in range 19 times out of 20 (the 20th opens or extends an alert: the alarm path). */
const readingValue = (k: number) => (k % 20 === 19 ? 130 : 60 + (k % 40));

async function startBare(rootDir: string, target: DriverTarget, clientId: number, logFile: string, clock: RunClock) {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(port),
    BENCH_CLIENT_ID: String(clientId),
    CLOCK_OFFSET_MS: String(clock.offsetMs),
  };
  if (target.dialect === 'sqlite') env.BENCH_SQLITE_FILE = target.file;
  else env.BENCH_PG_URL = target.url;
  const log = fs.openSync(logFile, 'w');
  const child = spawn(process.execPath, ['--import', 'tsx', path.join('bench', 'bare-ingest.ts')], {
    cwd: rootDir,
    env,
    stdio: ['ignore', log, log],
  });
  fs.closeSync(log);
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      if ((await fetch(`${baseUrl}/bare/health`)).ok) break;
    } catch {
      /* not yet */
    }
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`La línea base de ingesta no arrancó (${logFile})`);
    await new Promise((r) => setTimeout(r, 200));
  }
  const stop = () =>
    new Promise<void>((r) => {
      if (child.exitCode !== null) return r();
      child.once('exit', () => r());
      child.kill('SIGTERM');
    });
  return { baseUrl, stop };
}

async function maxId(driver: Driver, table: string): Promise<number> {
  const [row] = await driver.all<{ m: number | null }>(`SELECT MAX(id) AS m FROM ${table}`);
  return Number(row?.m ?? 0);
}

export async function measureIngestion(deps: {
  rootDir: string;
  dataDir: string;
  target: DriverTarget;
  api: ApiProcess;
  driver: Driver;
  token: string;
  caller: Caller;
  settings: Settings;
  /** The API's clock: batches are stamped with it, or the API would find them days off. */
  clock: RunClock;
  log: (line: string) => void;
}): Promise<IngestionResult> {
  const { api, driver, token, settings, log } = deps;
  const ids = (
    await driver.all<{ id: number }>(`SELECT id FROM patients WHERE client_id = $1 AND status = ${PATIENT_STATUS.active} ORDER BY id`, [
      deps.caller.clientId,
    ])
  ).map((r) => Number(r.id));
  const patients = Array.from(
    { length: Math.min(200, ids.length) },
    (_, k) => ids[Math.floor(((k + 0.5) * ids.length) / Math.min(200, ids.length))],
  );
  const before = { measurements: await maxId(driver, 'measurements'), alerts: await maxId(driver, 'alerts') };

  const single = (prefix: string): HttpRequest[] =>
    patients.map((id, k) => ({
      method: 'POST',
      path: `${prefix}/patients/${id}/measurements`,
      body: JSON.stringify({ clinical_element: 1, value: readingValue(k) }),
    }));
  // What a monitor uploading in batches sends: the readings taken since its last upload, spread
  // evenly up to the moment of sending (the first upload covers the last 100 s). Built at sending
  // time. A body stamped once and replayed stored the same 20,000 past (patient, time) keys over
  // and over, so every group wrote into thousands of scattered index pages and batches fell from
  // 25,000 to 12,000 readings/s within a minute, a cost no device's readings cause (bench/README).
  const lastSent = new Map<number, number>();
  const batchBody = (k: number) => () => {
    const sent = deps.clock.now().getTime();
    const last = Math.min(lastSent.get(k) ?? sent - BATCH_SIZE * 1000, sent - BATCH_SIZE);
    lastSent.set(k, sent);
    const step = (sent - last) / BATCH_SIZE;
    return JSON.stringify({
      measurements: Array.from({ length: BATCH_SIZE }, (_, j) => ({
        clinical_element: 1,
        value: readingValue(k + j),
        when: new Date(Math.round(last + (j + 1) * step)).toISOString(),
      })),
    });
  };
  const batch = (prefix: string): HttpRequest[] =>
    patients.map((id, k) => ({ method: 'POST', path: `${prefix}/patients/${id}/measurements`, body: batchBody(k) }));

  const bare = await startBare(deps.rootDir, deps.target, deps.caller.clientId, path.join(deps.dataDir, 'bare-ingest.log'), deps.clock);
  const bareLoad = (requests: HttpRequest[], connections: number, rate?: number) =>
    runLoad({ baseUrl: bare.baseUrl, connections, seconds: settings.seconds, requests, rate });
  const line = (name: string, l: LoadResult, per = 1) =>
    log(
      `  ${name}: ${(l.rps * per).toFixed(0)} lecturas/s · p50 ${l.latency.p50.toFixed(2)} · p95 ${l.latency.p95.toFixed(2)} · p99 ${l.latency.p99.toFixed(2)} ms · no-2xx ${l.non2xx} · errores ${l.errors}`,
    );
  const rateConnections = Math.max(settings.connections, 20);
  try {
    api.memory.setPhase('ingest');
    log('POST /api/v1/patients/{id}/measurements — una lectura por petición (API y línea base Express + driver)');
    if (settings.warmupSeconds > 0) {
      await loadPhase(api, token, single('/api/v1'), settings.connections, settings.warmupSeconds);
      await runLoad({
        baseUrl: bare.baseUrl,
        connections: settings.connections,
        seconds: settings.warmupSeconds,
        requests: single('/bare'),
      });
    }
    const apiSingle = await loadPhase(api, token, single('/api/v1'), settings.connections, settings.seconds);
    line(`API, ${settings.connections} conexiones`, apiSingle);
    const bareSingle = await bareLoad(single('/bare'), settings.connections);
    line(`base, ${settings.connections} conexiones`, bareSingle);
    const apiMany = await loadPhase(api, token, single('/api/v1'), INGEST_MANY_CONNECTIONS, settings.seconds);
    line(`API, ${INGEST_MANY_CONNECTIONS} conexiones`, apiMany);
    const bareMany = await bareLoad(single('/bare'), INGEST_MANY_CONNECTIONS);
    line(`base, ${INGEST_MANY_CONNECTIONS} conexiones`, bareMany);
    const apiAtRate = await loadPhase(api, token, single('/api/v1'), rateConnections, settings.seconds, INGEST_RATE);
    line(`API a ${INGEST_RATE}/s`, apiAtRate);
    const bareAtRate = await bareLoad(single('/bare'), rateConnections, INGEST_RATE);
    line(`base a ${INGEST_RATE}/s`, bareAtRate);

    log(`POST /api/v1/patients/{id}/measurements — ${BATCH_SIZE} lecturas por petición`);
    const apiBatch = await loadPhase(api, token, batch('/api/v1'), settings.connections, settings.seconds);
    line(`API, ${settings.connections} conexiones`, apiBatch, BATCH_SIZE);
    const bareBatch = await bareLoad(batch('/bare'), settings.connections);
    line(`base, ${settings.connections} conexiones`, bareBatch, BATCH_SIZE);

    const apiPeakRssBytes = api.memory.peaks().find((p) => p.phase === 'ingest')?.peakBytes ?? 0;

    log(
      `Ingesta con métricas y registros y sin ellos (METRICS=off LOG_LEVEL=silent): dos API recién iniciadas, ${OBSERVABILITY_ROUNDS} rondas alternas (y esta API, que hizo las fases anteriores, como referencia)`,
    );
    const sideApi = (name: string, env: NodeJS.ProcessEnv) =>
      startApi({
        rootDir: deps.rootDir,
        dataDir: deps.dataDir,
        databaseUrl: deps.target.dialect === 'postgres' ? deps.target.url : null,
        logFile: path.join(deps.dataDir, name),
        clock: deps.clock,
        env,
      });
    // Both just started, so neither carries what the other phases left in its heap (issue 52: this
    // API, after twenty minutes of phases, spent 1.20 ms a reading where a fresh quiet one spent
    // 1.03, more than metrics and logs could account for).
    const loud = await sideApi('api-observed.log', {});
    const quiet = await sideApi('api-quiet.log', { METRICS: 'off', LOG_LEVEL: 'silent', METRICS_PORT: '', METRICS_TOKEN: '' });
    const on: Phase[] = [];
    const off: Phase[] = [];
    const thisApi: Phase[] = [];
    try {
      for (const side of [loud, quiet])
        await loadPhase(side, token, single('/api/v1'), settings.connections, settings.warmupSeconds + settings.seconds);
      for (let round = 0; round < OBSERVABILITY_ROUNDS; round++) {
        on.push(await loadPhase(loud, token, single('/api/v1'), settings.connections, settings.seconds));
        off.push(await loadPhase(quiet, token, single('/api/v1'), settings.connections, settings.seconds));
        thisApi.push(await loadPhase(api, token, single('/api/v1'), settings.connections, settings.seconds));
      }
    } finally {
      await Promise.all([loud.stop(), quiet.stop()]);
    }
    const observability = { rounds: OBSERVABILITY_ROUNDS, on: sumRounds(on), off: sumRounds(off), thisApi: sumRounds(thisApi) };
    for (const [name, side] of [
      ['con métricas y registros', observability.on],
      ['sin ellos', observability.off],
      ['esta API (métricas y registros, tras las otras fases)', observability.thisApi],
    ] as const)
      log(
        `  ${name}: ${side.rps.toFixed(0)} lecturas/s · CPU de la API ${side.apiCpuMsPerRequest.toFixed(2)} ms/lectura · p99 ${side.p99.toFixed(2)} ms · fallidas ${side.failed}`,
      );
    // Leave the data set as it was built: the readings, the alerts they opened and their links.
    await fetchRetrying(`${api.baseUrl}/api/v1/health`);
    const removedRows: Record<string, number> = {};
    const count = async (sql: string, params: unknown[]) => Number((await driver.all<{ n: number }>(sql, params))[0].n);
    removedRows.alert_measurements = await count('SELECT COUNT(*) AS n FROM alert_measurements WHERE measurement_id > $1', [
      before.measurements,
    ]);
    removedRows.alerts = await count('SELECT COUNT(*) AS n FROM alerts WHERE id > $1', [before.alerts]);
    removedRows.measurements = await count('SELECT COUNT(*) AS n FROM measurements WHERE id > $1', [before.measurements]);
    await driver.all('DELETE FROM alert_measurements WHERE measurement_id > $1 OR alert_id > $2', [before.measurements, before.alerts]);
    await driver.all('UPDATE activities SET measurement_id = NULL WHERE measurement_id > $1', [before.measurements]);
    await driver.all('DELETE FROM alerts WHERE id > $1', [before.alerts]);
    await driver.all('DELETE FROM measurements WHERE id > $1', [before.measurements]);
    log(`  filas añadidas por la carga y borradas: ${JSON.stringify(removedRows)}`);
    return {
      patients: patients.length,
      single: { api: apiSingle, bare: bareSingle, apiAtRate, bareAtRate, rate: INGEST_RATE },
      singleMany: { api: apiMany, bare: bareMany, connections: INGEST_MANY_CONNECTIONS },
      batch: { readingsPerRequest: BATCH_SIZE, api: apiBatch, bare: bareBatch },
      observability,
      apiPeakRssBytes,
      removedRows,
    };
  } finally {
    await bare.stop();
  }
}
