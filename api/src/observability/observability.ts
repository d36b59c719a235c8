import type { Sequelize } from 'sequelize';
import type { Registry } from 'prom-client';
import type { JobRunner } from '../jobs/queue.js';
import { logFunction, type LogFn, type Logger } from './logger.js';
import { databaseRegistry, scrape } from './metrics.js';
import { instrumentJobRunner, observeSqlTime, type JobRunnerState } from './instrument.js';

export interface ObservabilitySettings {
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

export function loadObservabilitySettings(env: NodeJS.ProcessEnv = process.env): ObservabilitySettings {
  return {
    metricsPort: positiveInt(env, 'METRICS_PORT', 65535),
    metricsToken: env.METRICS_TOKEN?.trim() || null,
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
  observeSqlTime();
  const database = databaseRegistry(opts.sequelize, opts.now);
  return {
    logger,
    log: logFunction(logger),
    settings: opts.settings ?? loadObservabilitySettings(),
    database,
    jobs: instrumentJobRunner(opts.jobs),
    shuttingDown: false,
    scrape: () => scrape(database),
  };
}
