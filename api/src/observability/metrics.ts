import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Sequelize } from 'sequelize';
import { select } from '../db/sql.js';

/**
 * Prometheus metrics (issue 39). The counters and histograms are the process's (one registry, fed
 * by the reading and alert hooks, the job runner and the SQL helpers, whichever app in the process
 * caused them); the gauges that describe the database (queue depth, oldest due job, triage
 * summaries pending) belong to one app's database and are read at scrape time, one query each, so
 * nothing is added to the write path. Labels are route templates, kinds and channels: never an id.
 */
export const processRegistry = new Registry();
collectDefaultMetrics({ register: processRegistry, prefix: 'vigia_' });
// prom-client names these gauges *_total, which Prometheus keeps for counters (promtool refuses
// them); the handles and requests they count are in the event loop lag and process metrics anyway.
for (const name of ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total'])
  processRegistry.removeSingleMetric(`vigia_${name}`);

/**
 * METRICS=off: nothing is counted or timed (the request histogram, the SQL observer and the hooks
 * check this), for an installation that scrapes nothing and for the benchmark's run without.
 */
let counting = true;
export const metricsEnabled = (): boolean => counting;
export function setMetricsEnabled(on: boolean): void {
  counting = on;
}

const SECONDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export const httpDuration = new Histogram({
  name: 'vigia_http_request_duration_seconds',
  help: 'Duración de las peticiones HTTP por método, plantilla de ruta y estado',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: SECONDS,
  registers: [processRegistry],
});

export const readingsStored = new Counter({
  name: 'vigia_readings_stored_total',
  help: 'Lecturas guardadas (filas de measurements), por origen y por envío (una o un lote)',
  labelNames: ['source', 'mode'] as const,
  registers: [processRegistry],
});

export const alertsOpened = new Counter({
  name: 'vigia_alerts_opened_total',
  help: 'Alertas abiertas por tipo y prioridad',
  labelNames: ['type', 'priority'] as const,
  registers: [processRegistry],
});

export const notificationsSent = new Counter({
  name: 'vigia_notifications_total',
  help: 'Notificaciones al equipo de cuidado por canal y resultado (sent, failed)',
  labelNames: ['channel', 'outcome'] as const,
  registers: [processRegistry],
});

export const jobRuns = new Counter({
  name: 'vigia_jobs_run_total',
  help: 'Tareas en segundo plano ejecutadas por tipo y resultado (done, error)',
  labelNames: ['kind', 'outcome'] as const,
  registers: [processRegistry],
});

export const jobLag = new Histogram({
  name: 'vigia_job_lag_seconds',
  help: 'Retraso entre la hora prevista de una tarea y su comienzo, por tipo (webhook.delivery: el retraso de las entregas)',
  labelNames: ['kind'] as const,
  buckets: [0.1, 0.5, 1, 2, 5, 10, 30, 60, 300, 900, 3600],
  registers: [processRegistry],
});

export const webhookDeliveries = new Counter({
  name: 'vigia_webhook_deliveries_total',
  help: 'Entregas de webhooks intentadas por resultado (done, error)',
  labelNames: ['outcome'] as const,
  registers: [processRegistry],
});

export const sqlDuration = new Histogram({
  name: 'vigia_sql_duration_seconds',
  help: 'Duración de las sentencias SQL por motor',
  labelNames: ['dialect'] as const,
  buckets: [0.0001, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5, 1, 5],
  registers: [processRegistry],
});

type Observe = (seconds: number) => void;

/**
 * The request histogram's series by `method route status`, each made once: prom-client's
 * `observe(labels, v)` sorts and joins the labels on every call, and this runs on every request.
 * Route templates, methods and statuses are few, so the map stays small.
 */
const httpSeries = new Map<string, Observe>();
export function observeRequest(method: string, route: string, status: number, seconds: number): void {
  const key = `${method} ${route} ${status}`;
  let observe = httpSeries.get(key);
  if (!observe) {
    const child = httpDuration.labels(method, route, String(status));
    observe = (v) => child.observe(v);
    httpSeries.set(key, observe);
  }
  observe(seconds);
}

const sqlSeries = { sqlite: sqlDuration.labels('sqlite'), postgres: sqlDuration.labels('postgres') };
/** One statement's time (the SQL helpers call it for each statement they run). */
export function observeStatement(seconds: number, dialect: 'sqlite' | 'postgres'): void {
  sqlSeries[dialect].observe(seconds);
}

interface QueueRow {
  kind: string;
  status: string;
  n: number | string;
  oldest: string | Date | null;
}

/** The gauges read from one app's database at scrape time. */
export function databaseRegistry(sequelize: Sequelize, now: () => Date): Registry {
  const registry = new Registry();
  // One query feeds both queue gauges (prom-client collects them side by side on a scrape).
  let pending: Promise<QueueRow[]> | null = null;
  const rows = () =>
    (pending ??= select<QueueRow>(
      sequelize,
      `SELECT kind, status, COUNT(*) AS n, MIN(CASE WHEN status = 'pending' AND run_at <= :now THEN run_at END) AS oldest
       FROM jobs WHERE status IN ('pending', 'running') GROUP BY kind, status`,
      { now: now() },
    ).finally(() => setTimeout(() => (pending = null), 0)));
  new Gauge({
    name: 'vigia_job_queue_depth',
    help: 'Tareas en la cola por tipo y estado (pending, running)',
    labelNames: ['kind', 'status'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const r of await rows()) this.set({ kind: r.kind, status: r.status }, Number(r.n));
    },
  });
  new Gauge({
    name: 'vigia_job_oldest_due_seconds',
    help: 'Antigüedad de la tarea pendiente vencida más antigua, por tipo (0 si no hay)',
    labelNames: ['kind'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      const at = now().getTime();
      for (const r of await rows()) {
        if (r.status !== 'pending') continue;
        this.set({ kind: r.kind }, r.oldest ? Math.max(0, (at - new Date(r.oldest).getTime()) / 1000) : 0);
      }
    },
  });
  new Gauge({
    name: 'vigia_triage_summaries_pending',
    help: 'Resúmenes de priorización por recalcular (pacientes marcados o resúmenes vencidos)',
    registers: [registry],
    async collect() {
      const [row] = await select<{ n: number | string }>(
        sequelize,
        `SELECT (SELECT COUNT(*) FROM triage_dirty) + (SELECT COUNT(*) FROM triage_summaries WHERE valid_until <= :now) AS n`,
        { now: now() },
      );
      this.set(Number(row?.n ?? 0));
    },
  });
  return registry;
}

/** The text a scrape answers: the process's metrics and this app's database gauges. */
export async function scrape(database: Registry): Promise<{ contentType: string; body: string }> {
  const merged = Registry.merge([processRegistry, database]);
  return { contentType: merged.contentType, body: await merged.metrics() };
}
