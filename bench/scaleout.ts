/**
 * Issue 7's scale-out run (PostgreSQL only): two API processes on the same database behind a
 * round-robin proxy (a bare node:http proxy in this process, keep-alive to each API), loaded with
 * the patient list and single-reading ingestion, against one API alone in the same run; and the
 * scheduled work both processes run (the durable job queue's recurring `orders.lifecycle` sweep)
 * checked to be neither lost nor duplicated:
 * - markers: before the run, `markers` activities of a fresh order, due long ago and never
 *   reported, are inserted; each must end 'No reportada' (6) with exactly one compliance alert;
 * - every recurring slot that passed during the run has exactly one job row (unique key), done,
 *   one attempt.
 * The run lasts at least `minSeconds` (two lifecycle slots of 60 s) whatever --duration says.
 */
import http from 'node:http';
import type { Driver } from './driver.js';
import { runLoad, type HttpRequest, type LoadResult } from './load.js';
import type { Caller } from './queries.js';
import { startApi, type ApiProcess, type RunClock } from './server.js';
import { PATIENT_STATUS } from '@vigia/contract/rules/access';
import { ACTIVITY_STATUS } from '@vigia/contract/rules/activities';

export interface ScaleOutResult {
  seconds: number;
  one: { list: LoadResult; ingest: LoadResult };
  two: { list: LoadResult; ingest: LoadResult; perApi: number[] };
  markers: { inserted: number; notReported: number; alerts: number; duplicatedAlerts: number; lost: number };
  lifecycle: { slots: number; jobs: number; done: number; failed: number; retried: number; duplicatedSlots: number; ranBy: string };
  apiPeakRssBytes: number[];
}

function startProxy(targets: string[]): Promise<{ url: string; counts: number[]; close(): Promise<void> }> {
  const agents = targets.map(() => new http.Agent({ keepAlive: true, maxSockets: 64 }));
  const counts = targets.map(() => 0);
  let next = 0;
  const server = http.createServer((req, res) => {
    const k = next++ % targets.length;
    counts[k]++;
    const u = new URL(targets[k]);
    const upstream = http.request(
      { host: u.hostname, port: u.port, method: req.method, path: req.url, headers: req.headers, agent: agents[k] },
      (r) => {
        res.writeHead(r.statusCode ?? 502, r.headers);
        r.pipe(res);
      },
    );
    upstream.on('error', () => {
      res.writeHead(502);
      res.end();
    });
    req.pipe(upstream);
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      resolve({
        url: `http://127.0.0.1:${port}`,
        counts,
        close: () =>
          new Promise<void>((r) => {
            server.close(() => r());
            server.closeAllConnections();
            for (const a of agents) a.destroy();
          }),
      });
    });
  });
}

/** Inserts one order with `n` activities due two days ago and still scheduled, for patients of client A. */
async function insertMarkers(driver: Driver, caller: Caller, n: number, now: Date): Promise<{ orderIds: number[]; activityIds: number[] }> {
  const patients = await driver.all<{ id: number }>(
    `SELECT id FROM patients WHERE client_id = $1 AND status = ${PATIENT_STATUS.active} ORDER BY id LIMIT $2`,
    [caller.clientId, n],
  );
  const longAgo = new Date(now.getTime() - 2 * 86_400_000);
  const orderIds: number[] = [];
  const activityIds: number[] = [];
  for (const p of patients) {
    const [o] = await driver.all<{ id: number }>(
      `INSERT INTO orders (client_id, patient_id, user_id, order_type, status, notify, permanent, clinical_element, during, frequency_type, days, hours, start_at, to_human, created_at, updated_at)
       VALUES ($1, $2, $3, 0, 2, FALSE, FALSE, 1, 1, 0, '[]', '["08:00"]', $4, 'Marcador del benchmark', $4, $4) RETURNING id`,
      [caller.clientId, p.id, caller.userId, longAgo],
    );
    // Older than anything the seed wrote, so the sweep's first batch (ordered by programmed_at) has them.
    const at = new Date(Date.UTC(2020, 0, 1, 13) + activityIds.length * 60_000);
    const [a] = await driver.all<{ id: number }>(
      `INSERT INTO activities (client_id, patient_id, order_id, slot_at, programmed_at, status, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $4, 0, $5, $5) RETURNING id`,
      [caller.clientId, p.id, o.id, at, longAgo],
    );
    orderIds.push(Number(o.id));
    activityIds.push(Number(a.id));
  }
  return { orderIds, activityIds };
}

export async function measureScaleOut(deps: {
  rootDir: string;
  dataDir: string;
  databaseUrl: string;
  driver: Driver;
  api: ApiProcess;
  token: string;
  caller: Caller;
  connections: number;
  seconds: number;
  warmupSeconds: number;
  minSeconds: number;
  markers: number;
  /** The APIs' clock: markers are due, and lifecycle slots fall, at its time. */
  clock: RunClock;
  log: (line: string) => void;
}): Promise<ScaleOutResult> {
  const { driver, log, caller } = deps;
  const ids = (
    await driver.all<{ id: number }>(
      `SELECT id FROM patients WHERE client_id = $1 AND status = ${PATIENT_STATUS.active} ORDER BY id LIMIT 200`,
      [caller.clientId],
    )
  ).map((r) => Number(r.id));
  const list: HttpRequest[] = [{ method: 'GET', path: '/api/v1/patients?_start=0&_end=20&status=1' }];
  const ingest: HttpRequest[] = ids.map((id, k) => ({
    method: 'POST',
    path: `/api/v1/patients/${id}/measurements`,
    body: JSON.stringify({ clinical_element: 1, value: 60 + (k % 40) }),
  }));
  // Each measured phase after its own warm-up (a freshly started API also runs its first scheduler sweep).
  const load = async (baseUrl: string, requests: HttpRequest[]) => {
    if (deps.warmupSeconds > 0)
      await runLoad({ baseUrl, token: deps.token, connections: deps.connections, seconds: deps.warmupSeconds, requests });
    return runLoad({ baseUrl, token: deps.token, connections: deps.connections, seconds: deps.seconds, requests });
  };

  log('Dos procesos de la API sobre el mismo PostgreSQL detrás de un proxy round-robin');
  const oneList = await load(deps.api.baseUrl, list);
  const oneIngest = await load(deps.api.baseUrl, ingest);
  log(`  una API: lista ${oneList.rps.toFixed(0)}/s · ingesta ${oneIngest.rps.toFixed(0)}/s`);

  const [{ n: beforeJobs }] = await driver.all<{ n: string }>("SELECT COUNT(*) AS n FROM jobs WHERE kind = 'orders.lifecycle'");
  const markers = await insertMarkers(driver, caller, deps.markers, deps.clock.now());
  const second = await startApi({
    rootDir: deps.rootDir,
    dataDir: deps.dataDir,
    databaseUrl: deps.databaseUrl,
    logFile: `${deps.dataDir}/api-2.log`,
    clock: deps.clock,
  });
  const proxy = await startProxy([deps.api.baseUrl, second.baseUrl]);
  const started = deps.clock.now();
  let two: ScaleOutResult['two'];
  try {
    const twoList = await load(proxy.url, list);
    const twoIngest = await load(proxy.url, ingest);
    log(
      `  dos APIs: lista ${twoList.rps.toFixed(0)}/s · ingesta ${twoIngest.rps.toFixed(0)}/s (peticiones por API ${proxy.counts.join(' / ')})`,
    );
    two = { list: twoList, ingest: twoIngest, perApi: [...proxy.counts] };
    // Both job runners keep polling: wait until at least two lifecycle slots have passed.
    const wait = deps.minSeconds * 1000 - (deps.clock.now().getTime() - started.getTime());
    if (wait > 0) {
      log(`  esperando ${Math.ceil(wait / 1000)} s para que pasen dos ciclos de órdenes (cada 60 s)`);
      await new Promise((r) => setTimeout(r, wait));
    }
  } finally {
    await proxy.close();
  }
  const ended = deps.clock.now();
  const peak2 = second.memory.peakBytes();
  await second.stop();

  const inList = markers.activityIds.join(',') || '0';
  const [m] = await driver.all<{ nr: string }>(
    `SELECT COUNT(*) AS nr FROM activities WHERE id IN (${inList}) AND status = ${ACTIVITY_STATUS.notReported}`,
  );
  const perActivity = await driver.all<{ activity_id: number; n: string }>(
    `SELECT activity_id, COUNT(*) AS n FROM alerts WHERE activity_id IN (${inList}) GROUP BY activity_id`,
  );
  const alerts = perActivity.reduce((s, r) => s + Number(r.n), 0);
  const duplicatedAlerts = perActivity.filter((r) => Number(r.n) > 1).length;
  const slotsFrom = Math.floor(started.getTime() / 60_000) + 1;
  const slotsTo = Math.floor(ended.getTime() / 60_000);
  const jobs = await driver.all<{ key: string; status: string; attempts: number }>(
    "SELECT key, status, attempts FROM jobs WHERE kind = 'orders.lifecycle' AND run_at >= $1 AND run_at <= $2",
    [new Date(slotsFrom * 60_000), new Date(slotsTo * 60_000)],
  );
  const keys = new Set(jobs.map((j) => j.key));
  const result: ScaleOutResult = {
    seconds: (ended.getTime() - started.getTime()) / 1000,
    one: { list: oneList, ingest: oneIngest },
    two: two!,
    markers: {
      inserted: markers.activityIds.length,
      notReported: Number(m.nr),
      alerts,
      duplicatedAlerts,
      lost: markers.activityIds.length - Number(m.nr),
    },
    lifecycle: {
      slots: Math.max(0, slotsTo - slotsFrom + 1),
      jobs: jobs.length,
      done: jobs.filter((j) => j.status === 'done').length,
      failed: jobs.filter((j) => j.status === 'failed' || j.status === 'dead').length,
      retried: jobs.filter((j) => Number(j.attempts) > 1).length,
      duplicatedSlots: jobs.length - keys.size,
      ranBy: `${Number(beforeJobs)} lifecycle jobs before the run`,
    },
    apiPeakRssBytes: [deps.api.memory.peakBytes(), peak2],
  };
  log(
    `  marcadores: ${result.markers.notReported}/${result.markers.inserted} 'No reportada', ${alerts} alertas de cumplimiento (${duplicatedAlerts} duplicadas) · ciclos: ${result.lifecycle.jobs} trabajos para ${result.lifecycle.slots} franjas (${result.lifecycle.done} hechos, ${result.lifecycle.failed} fallidos)`,
  );
  // Leave the data set as it was: the markers, their alerts and orders.
  await driver.all(`DELETE FROM alerts WHERE activity_id IN (${inList})`);
  await driver.all(`DELETE FROM activities WHERE id IN (${inList})`);
  await driver.all(`DELETE FROM orders WHERE id IN (${markers.orderIds.join(',') || '0'})`);
  return result;
}
