import type { Sequelize } from 'sequelize';
import type { Registry } from 'prom-client';
import type { JobRunner } from '../jobs/queue.js';
import { logFunction, type LogFn, type Logger } from './logger.js';
import { databaseRegistry, scrape, setMetricsEnabled } from './metrics.js';
import { instrumentJobRunner, observeSqlTime, type JobRunnerState } from './instrument.js';

export interface ObservabilitySettings {
  /** METRICS=off: nothing counted or timed, no /metrics (default on). */
  metrics: boolean;
  /** Serve /metrics on this port only (METRICS_PORT), apart from the product's. */
  metricsPort: number | null;
  /** Serve /metrics on the product's port to `Authorization: Bearer <METRICS_TOKEN>`. */
  metricsToken: string | null;
  /** SIGTERM: how long in-flight requests and jobs may take before the process exits anyway (SHUTDOWN_GRACE_MS). */
  shutdownGraceMs: number;
}

function positiveInt(env: NodeJS.ProcessEnv, name: string, max: number): number | null {
  const raw = env[name]?.trim();
  if (!raw) return null;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > max) throw new Error(`${name} debe ser un número entero entre 1 y ${max}; se recibió «${raw}».`);
  return n;
}

function onOff(env: NodeJS.ProcessEnv, name: string): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (!raw || raw === 'on') return true;
  if (raw === 'off') return false;
  throw new Error(`${name} debe ser «on» u «off»; se recibió «${env[name]}».`);
}

export function loadObservabilitySettings(env: NodeJS.ProcessEnv = process.env): ObservabilitySettings {
  const metrics = onOff(env, 'METRICS');
  const metricsPort = positiveInt(env, 'METRICS_PORT', 65535);
  const metricsToken = env.METRICS_TOKEN?.trim() || null;
  if (!metrics && (metricsPort || metricsToken))
    throw new Error('METRICS=off no sirve métricas: quite METRICS_PORT y METRICS_TOKEN, o ponga METRICS=on.');
  return {
    metrics,
    metricsPort,
    metricsToken,
    shutdownGraceMs: positiveInt(env, 'SHUTDOWN_GRACE_MS', 600_000) ?? 10_000,
  };
}

/** What the composition root hands the app and the server: the logger, the metrics, the process's state. */
export interface Observability {
  logger: Logger;
  log: LogFn;
  settings: ObservabilitySettings;
  database: Registry;
  jobs: JobRunnerState;
  shuttingDown: boolean;
  scrape(): Promise<{ contentType: string; body: string }>;
}

export function createObservability(opts: {
  sequelize: Sequelize;
  jobs: JobRunner;
  now: () => Date;
  logger: Logger;
  settings?: ObservabilitySettings;
}): Observability {
  const { logger } = opts;
  const settings = opts.settings ?? loadObservabilitySettings();
  setMetricsEnabled(settings.metrics);
  observeSqlTime();
  const database = databaseRegistry(opts.sequelize, opts.now);
  return {
    logger,
    log: logFunction(logger),
    settings,
    database,
    jobs: instrumentJobRunner(opts.jobs),
    shuttingDown: false,
    scrape: () => scrape(database),
  };
}
