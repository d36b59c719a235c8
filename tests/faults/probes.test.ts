import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import http from 'node:http';
import net from 'node:net';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { databaseProxy, freshDatabase, onPostgres, spawnApi, type ChildApi, type DatabaseProxy, type FaultDatabase } from './support';

/**
 * Issue 49: the server as a probe, a balancer and a scraper see it (the real bundle in a child
 * process). While it starts, liveness answers 200 and readiness 503 'starting' (on PostgreSQL the
 * database is held behind a proxy, so the start waits as long as the test wants); /metrics is not
 * the staff app on the product's port, and METRICS_PORT listens on loopback only; on SIGTERM a
 * poller every 50 ms sees readiness answer 503 before the port refuses connections.
 */

const DRAIN_MS = 1_000;
let db: FaultDatabase;
let proxy: DatabaseProxy | null = null;
let server: ChildApi | null = null;
let metricsPort: number;
const frontEnd = fs.mkdtempSync(path.join(os.tmpdir(), 'vigia-admin-dist-'));

/** A port nothing listens on yet. */
const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });

/** One GET on a connection of its own (a balancer's probe): the status, or the connection error's code. */
const probe = (url: string) =>
  new Promise<number | string>((resolve) => {
    const req = http.get(url, { agent: false, timeout: 2_000 }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('timeout', () => req.destroy(Object.assign(new Error('timeout'), { code: 'TIMEOUT' })));
    req.on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
  });

const getJson = async (url: string) => {
  const res = await fetch(url);
  return { status: res.status, retryAfter: res.headers.get('retry-after'), body: (await res.json()) as Record<string, unknown> };
};

beforeAll(async () => {
  // A built staff app, so the product's port would answer any unknown path with its page.
  fs.writeFileSync(path.join(frontEnd, 'index.html'), '<!doctype html><title>Vigía</title>');
  db = await freshDatabase();
  if (onPostgres) {
    proxy = await databaseProxy(db.databaseUrl!);
    proxy.hold();
  }
  metricsPort = await freePort();
  server = await spawnApi(db, {
    env: {
      ...(proxy ? { DATABASE_URL: proxy.url } : {}),
      METRICS_PORT: String(metricsPort),
      SHUTDOWN_DRAIN_MS: String(DRAIN_MS),
      VIGIA_ADMIN_DIST: frontEnd,
    },
    // Any answer: the port is taken before the start goes on (held, on PostgreSQL).
    ready: async (url) => typeof (await probe(`${url}/api/health/live`)) === 'number',
  });
});
afterAll(async () => {
  proxy?.release();
  await server?.kill('SIGKILL');
  await proxy?.close();
  await db?.drop();
  fs.rmSync(frontEnd, { recursive: true, force: true });
});

async function untilReady(baseUrl: string) {
  for (let i = 0; i < 600 && (await probe(`${baseUrl}/api/health/ready`)) !== 200; i++) await new Promise((r) => setTimeout(r, 100));
}

describe('while it starts', () => {
  it.skipIf(!onPostgres)('answers liveness 200 and readiness 503 "starting" while the start waits for the database', async () => {
    const live = await getJson(`${server!.baseUrl}/api/health/live`);
    expect(live).toEqual({ status: 200, retryAfter: null, body: { status: 'ok' } });
    const ready = await getJson(`${server!.baseUrl}/api/health/ready`);
    expect(ready.status).toBe(503);
    expect(ready.retryAfter).toBe('5');
    expect(ready.body).toEqual({
      status: 'unavailable',
      reasons: [{ code: 'starting', message: 'Vigía está iniciando (migraciones, catálogos): recibirá peticiones en cuanto termine.' }],
    });
    const other = await getJson(`${server!.baseUrl}/api/v1/me`);
    expect(other.status).toBe(503);
    expect(other.body.code).toBe('starting');
    proxy!.release();
    await untilReady(server!.baseUrl);
    expect(await probe(`${server!.baseUrl}/api/health/ready`)).toBe(200);
  });
});

describe('metrics', () => {
  it('answers 404 for /metrics on the product port when only METRICS_PORT is set, not the staff app', async () => {
    await untilReady(server!.baseUrl);
    const page = await fetch(`${server!.baseUrl}/pacientes`);
    expect(page.status).toBe(200); // the staff app is served…
    const res = await fetch(`${server!.baseUrl}/metrics`);
    expect(res.status).toBe(404); // …but not in place of the metrics
    expect(await res.json()).toEqual({ code: 'not_found', message: 'Las métricas no se sirven en este puerto.' });
  });

  it('serves METRICS_PORT on loopback only (METRICS_HOST default 127.0.0.1)', async () => {
    const res = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('# TYPE vigia_http_request_duration_seconds histogram');
    // 127.0.0.2 is loopback too: a listener on every interface would answer it.
    expect(await probe(`http://127.0.0.2:${metricsPort}/metrics`)).toBe('ECONNREFUSED');
  });
});

describe('SIGTERM', () => {
  it('keeps serving with readiness 503 for SHUTDOWN_DRAIN_MS, then refuses connections and exits 0', async () => {
    const { baseUrl } = server!;
    await untilReady(baseUrl);
    const seen: Array<number | string> = [];
    // Until the port stops answering: refused once the listener is closed.
    const poller = (async () => {
      for (;;) {
        const status = await probe(`${baseUrl}/api/health/ready`);
        seen.push(status);
        if (typeof status === 'string') return;
        await new Promise((r) => setTimeout(r, 50));
      }
    })();
    await new Promise((r) => setTimeout(r, 120));
    // What the balancer saw before the signal is not this test's subject: a loaded machine once
    // answered one 503 there (CI-like run of this stop), which is said, not judged, below.
    const signalledAt = seen.length;
    const exit = server!.kill('SIGTERM');
    // While it drains, the rest is still served.
    await new Promise((r) => setTimeout(r, 100));
    expect(await probe(`${baseUrl}/api/health/live`)).toBe(200);
    expect(await exit).toEqual({ code: 0, signal: null });
    await poller;
    server = null;

    const trace = seen.join(' ');
    if (seen.slice(0, signalledAt).includes(503)) console.warn(`readiness 503 before SIGTERM: ${trace}`);
    const first503 = seen.indexOf(503, signalledAt);
    expect(seen[0], trace).toBe(200);
    expect(first503, trace).toBeGreaterThanOrEqual(signalledAt);
    // A second of drain at one probe every 50 ms (each probe slower on a loaded machine): several
    // 503s, then only connection errors (refused; reset, for one caught in the closing listener's
    // queue), never a 200 again. Without the drain the port closed at once: at most the probe in
    // flight at SIGTERM answered 503.
    expect(seen.slice(signalledAt).filter((s) => s === 503).length, trace).toBeGreaterThanOrEqual(3);
    expect(
      seen.slice(first503, -1).every((s) => s === 503),
      trace,
    ).toBe(true);
    expect(typeof seen.at(-1), trace).toBe('string');
  });
});
