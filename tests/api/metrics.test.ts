import { spawnSync } from 'node:child_process';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { select } from '../../api/src/db/sql';
import { loadObservabilitySettings } from '../../api/src/observability/observability';
import { startTestProduct, createOrg, bearer, patientBody, type TestProduct, type Org } from '../support/product';

/**
 * GET /metrics (issue 39): Prometheus' own checker accepts the text, every family the issue names is
 * there, and the values are what this test did (N readings sent, N counted; the alerts and jobs
 * the database holds), with route templates as labels, never an id.
 */

const TOKEN = 'token-de-metricas-de-prueba-2026';
let t: TestProduct;
let org: Org;
const clock = new Date('2026-11-21T15:00:00Z');

beforeAll(async () => {
  process.env.METRICS_TOKEN = TOKEN;
  t = await startTestProduct({ now: () => clock });
  delete process.env.METRICS_TOKEN;
  org = await createOrg(t, 'Clinica Metricas');
});
afterAll(() => t.stop());

type Samples = Map<string, number>;

async function scrapeText(): Promise<string> {
  const res = await t.http.get('/metrics').set('Authorization', `Bearer ${TOKEN}`);
  expect(res.status).toBe(200);
  expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  return res.text;
}

/** `name{labels}` → value, for every sample line. */
function parse(text: string): Samples {
  const out: Samples = new Map();
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const i = line.lastIndexOf(' ');
    out.set(line.slice(0, i), Number(line.slice(i + 1)));
  }
  return out;
}

/** Sum of the samples of `name` whose labels include every `label="value"` given. */
function sum(s: Samples, name: string, labels: Record<string, string> = {}): number {
  let total = 0;
  for (const [key, v] of s) {
    const brace = key.indexOf('{');
    if ((brace < 0 ? key : key.slice(0, brace)) !== name) continue;
    if (Object.entries(labels).every(([k, val]) => key.includes(`${k}="${val}"`))) total += v;
  }
  return total;
}

const count = async (sql: string) => Number((await select<{ n: number }>(t.sequelize, sql))[0].n);

describe('GET /metrics', () => {
  it('answers 401 without the METRICS_TOKEN bearer, and with a wrong one', async () => {
    const none = await t.http.get('/metrics');
    expect(none.status).toBe(401);
    expect(none.body).toEqual({ code: 'unauthorized', message: 'Las métricas piden el token de METRICS_TOKEN.' });
    expect((await t.http.get('/metrics').set('Authorization', 'Bearer otro')).status).toBe(401);
  });

  it('counts the readings, requests, alerts and jobs this test caused, and promtool accepts the text', async () => {
    const before = parse(await scrapeText());
    const alertsBefore = await count('SELECT COUNT(*) AS n FROM alerts');
    const created = await t.http.post('/api/v1/patients').set(bearer(org.tokens.admin)).send(patientBody());
    expect(created.status).toBe(201);
    const alarm = await t.http
      .post('/api/v1/alarms')
      .set(bearer(org.tokens.admin))
      .send({ name: 'Taquicardia', clinical_element: 1, priority: 1, minimum_condition: 50, maximum_condition: 110 });
    expect(alarm.status).toBe(201);
    expect(
      (
        await t.http
          .put(`/api/v1/patients/${created.body.id}`)
          .set(bearer(org.tokens.admin))
          .send({ alarm_ids: [alarm.body.id] })
      ).status,
    ).toBe(200);
    const url = `/api/v1/patients/${created.body.id}/measurements`;
    const singles = 7;
    for (let i = 0; i < singles; i++) {
      const when = new Date(clock.getTime() - (i + 1) * 60_000).toISOString();
      // Heart rate over the rule, so the alarm hook opens alerts the metrics must count.
      const res = await t.http
        .post(url)
        .set(bearer(org.tokens.enfermeria))
        .send({ clinical_element: 1, value: 240 - i, when });
      expect(res.status).toBe(201);
    }
    const bp = await t.http
      .post(url)
      .set(bearer(org.tokens.enfermeria))
      .send({ systolic: 128, diastolic: 84, when: '2026-11-21T14:00:00Z' });
    expect(bp.status).toBe(201);
    const batch = await t.http
      .post(url)
      .set(bearer(org.tokens.medico))
      .send({
        measurements: [
          { clinical_element: 7, value: 36.5, when: '2026-11-21T13:00:00Z' },
          { clinical_element: 5, value: 70.2, when: '2026-11-21T13:00:00Z' },
          { clinical_element: 2, value: 97, when: '2026-11-21T13:00:00Z' },
        ],
      });
    expect(batch.status).toBe(201);
    const bad = await t.http.post(url).set(bearer(org.tokens.enfermeria)).send({ clinical_element: 1, value: 999 });
    expect(bad.status).toBe(400);
    const ran = await t.jobs.drain({ now: clock });
    const text = await scrapeText();
    const after = parse(text);
    const delta = (name: string, labels: Record<string, string> = {}) => sum(after, name, labels) - sum(before, name, labels);

    expect(delta('vigia_readings_stored_total', { source: 'staff', mode: 'single' })).toBe(singles + 2);
    expect(delta('vigia_readings_stored_total', { source: 'staff', mode: 'batch' })).toBe(3);
    const route = '/api/v1/patients/{id}/measurements';
    expect(delta('vigia_http_request_duration_seconds_count', { method: 'POST', route, status: '201' })).toBe(singles + 2);
    expect(delta('vigia_http_request_duration_seconds_count', { method: 'POST', route, status: '400' })).toBe(1);
    const opened = (await count('SELECT COUNT(*) AS n FROM alerts')) - alertsBefore;
    expect(opened).toBeGreaterThan(0);
    expect(delta('vigia_alerts_opened_total')).toBe(opened);
    expect(delta('vigia_jobs_run_total')).toBe(ran);
    expect(delta('vigia_sql_duration_seconds_count')).toBeGreaterThan(singles);

    // The queue gauges are the jobs table as it is now.
    const queued = await select<{ kind: string; status: string; n: number }>(
      t.sequelize,
      "SELECT kind, status, COUNT(*) AS n FROM jobs WHERE status IN ('pending', 'running') GROUP BY kind, status",
    );
    for (const q of queued) expect(sum(after, 'vigia_job_queue_depth', { kind: q.kind, status: q.status })).toBe(Number(q.n));
    expect(sum(after, 'vigia_job_queue_depth')).toBe(queued.reduce((a, q) => a + Number(q.n), 0));

    for (const family of [
      'vigia_http_request_duration_seconds',
      'vigia_readings_stored_total',
      'vigia_alerts_opened_total',
      'vigia_notifications_total',
      'vigia_webhook_deliveries_total',
      'vigia_job_lag_seconds',
      'vigia_job_queue_depth',
      'vigia_job_oldest_due_seconds',
      'vigia_triage_summaries_pending',
      'vigia_sql_duration_seconds',
      'vigia_nodejs_eventloop_lag_seconds',
      'vigia_process_cpu_seconds_total',
      'vigia_process_resident_memory_bytes',
    ])
      expect(text, family).toContain(`# TYPE ${family} `);

    // Route templates only: no label value holds a number after a slash (an id).
    for (const key of after.keys()) expect(key).not.toMatch(/route="[^"]*\/\d/);

    const promtool = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8' });
    if (promtool.error && !process.env.CI) {
      console.warn('promtool no está instalado (apt-get install prometheus): se omite su revisión fuera de CI');
      return;
    }
    expect(promtool.error, 'promtool (paquete prometheus de Debian) debe estar instalado en CI').toBeUndefined();
    expect(`${promtool.stdout}${promtool.stderr}`.trim()).toBe('');
    expect(promtool.status).toBe(0);
  });
});

describe('vigia_readings_stored_total mode', () => {
  it('counts by how the request sent the readings: a list is a batch whatever it holds, single readings stored together stay single', async () => {
    const created = await t.http.post('/api/v1/patients').set(bearer(org.tokens.admin)).send(patientBody());
    expect(created.status).toBe(201);
    const url = `/api/v1/patients/${created.body.id}/measurements`;
    const before = parse(await scrapeText());
    // A list of one blood pressure (two rows of one timestamp) and a list of one heart rate.
    for (const measurements of [
      [{ systolic: 131, diastolic: 85, when: '2026-11-21T10:00:00Z' }],
      [{ clinical_element: 1, value: 71, when: '2026-11-21T10:00:00Z' }],
    ])
      expect((await t.http.post(url).set(bearer(org.tokens.enfermeria)).send({ measurements })).status).toBe(201);
    // Five single readings at once: the group commit may store them in one transaction.
    const singles = await Promise.all(
      [0, 1, 2, 3, 4].map((i) =>
        t.http
          .post(url)
          .set(bearer(org.tokens.enfermeria))
          .send({ clinical_element: 2, value: 95 + i, when: new Date(Date.UTC(2026, 10, 21, 9, i)).toISOString() }),
      ),
    );
    for (const res of singles) expect(res.status).toBe(201);
    const after = parse(await scrapeText());
    const delta = (mode: string) =>
      sum(after, 'vigia_readings_stored_total', { source: 'staff', mode }) -
      sum(before, 'vigia_readings_stored_total', { source: 'staff', mode });
    expect({ batch: delta('batch'), single: delta('single') }).toEqual({ batch: 3, single: 5 });
  });
});

describe('loadObservabilitySettings (issue 49)', () => {
  it('drains 5 s on SIGTERM in production and not at all elsewhere, unless SHUTDOWN_DRAIN_MS says otherwise', () => {
    expect(loadObservabilitySettings({ NODE_ENV: 'production' }).shutdownDrainMs).toBe(5_000);
    expect(loadObservabilitySettings({ NODE_ENV: 'development' }).shutdownDrainMs).toBe(0);
    expect(loadObservabilitySettings({ NODE_ENV: 'production', SHUTDOWN_DRAIN_MS: '0' }).shutdownDrainMs).toBe(0);
    expect(loadObservabilitySettings({ SHUTDOWN_DRAIN_MS: '15000' }).shutdownDrainMs).toBe(15_000);
    expect(() => loadObservabilitySettings({ SHUTDOWN_DRAIN_MS: '5s' })).toThrow(
      'SHUTDOWN_DRAIN_MS debe ser un número entero entre 0 y 600000; se recibió «5s».',
    );
  });

  it('binds METRICS_PORT to loopback unless METRICS_HOST names an address', () => {
    expect(loadObservabilitySettings({ METRICS_PORT: '9464' }).metricsHost).toBe('127.0.0.1');
    expect(loadObservabilitySettings({ METRICS_PORT: '9464', METRICS_HOST: '10.0.0.5' }).metricsHost).toBe('10.0.0.5');
  });
});

describe('health', () => {
  it('GET /api/health/live answers ok without a session', async () => {
    const res = await t.http.get('/api/health/live');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
  });

  it('GET /api/health/ready answers ok when the database answers and every migration ran; the old /api/v1/health stays', async () => {
    const res = await t.http.get('/api/health/ready');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', reasons: [] });
    expect((await t.http.get('/api/v1/health')).body).toEqual({ status: 'ok' });
  });

  it('answers 503 with the reasons while shutting down and when a migration is missing', async () => {
    t.observability.shuttingDown = true;
    await t.sequelize.query("DELETE FROM schema_migrations WHERE name = '0025-triage-summaries-due'");
    try {
      const res = await t.http.get('/api/health/ready');
      expect(res.status).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      expect(res.body.reasons.map((r: { code: string }) => r.code)).toEqual(['shutting_down', 'migrations_pending']);
      expect(res.body.reasons[1].message).toContain('0025-triage-summaries-due');
    } finally {
      t.observability.shuttingDown = false;
      await t.sequelize.query("INSERT INTO schema_migrations (name) VALUES ('0025-triage-summaries-due')");
    }
    expect((await t.http.get('/api/health/ready')).status).toBe(200);
  });

  it('answers every request with an X-Request-Id: the caller’s when it is a plain token, a new one otherwise', async () => {
    const given = await t.http.get('/api/health/live').set('X-Request-Id', 'balanceador-42');
    expect(given.headers['x-request-id']).toBe('balanceador-42');
    const made = await t.http.get('/api/health/live').set('X-Request-Id', 'no vale <script>');
    expect(made.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});
