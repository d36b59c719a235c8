import type { Sequelize } from 'sequelize';
import type { Registry } from 'prom-client';
import type { JobRunner } from '../jobs/queue.js';
import { logFunction, type LogFn, type Logger } from './logger.js';
import { databaseRegistry, scrape, setMetricsEnabled } from './metrics.js';
import { instrumentJobRunner, observeSqlTime, type JobRunnerState } from './instrument.js';
import { logOutgoingRequests } from './outgoing.js';
import { observeStatements } from '../db/sql.js';
import { observeStatement } from './metrics.js';

export interface ObservabilitySettings {
  /** METRICS=off: nothing counted or timed, no /metrics (default on). */
  metrics: boolean;
  /** Serve /metrics on this port only (METRICS_PORT), apart from the product's. */
  metricsPort: number | null;
  /** The address METRICS_PORT listens on (METRICS_HOST, default loopback: a scraper on another host needs it said). */
  metricsHost: string;
  /** Serve /metrics on the product's port to `Authorization: Bearer <METRICS_TOKEN>`. */
  metricsToken: string | null;
  /**
   * SIGTERM: how long the process keeps serving with readiness at 503 before it stops accepting
   * (SHUTDOWN_DRAIN_MS), so a balancer that polls readiness stops sending before connections are refused.
   */
  shutdownDrainMs: number;
  /** SIGTERM: how long in-flight requests and jobs may take, once the drain is over, before the process exits anyway (SHUTDOWN_GRACE_MS). */
  shutdownGraceMs: number;
}

/**
 * A balancer polls readiness every few seconds: 5 s lets one that polls every 2 s see the 503
 * twice. Elsewhere (a developer's Ctrl-C, tests) nothing balances, so the process stops at once.
 */
const PRODUCTION_DRAIN_MS = 5_000;

function intIn(env: NodeJS.ProcessEnv, name: string, min: number, max: number): number | null {
  const raw = env[name]?.trim();
  if (!raw) return null;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max)
    throw new Error(`${name} debe ser un número entero entre ${min} y ${max}; se recibió «${raw}».`);
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
  const metricsPort = intIn(env, 'METRICS_PORT', 1, 65535);
  const metricsToken = env.METRICS_TOKEN?.trim() || null;
  if (!metrics && (metricsPort || metricsToken))
    throw new Error('METRICS=off no sirve métricas: quite METRICS_PORT y METRICS_TOKEN, o ponga METRICS=on.');
  return {
    metrics,
    metricsPort,
    metricsHost: env.METRICS_HOST?.trim() || '127.0.0.1',
    metricsToken,
    shutdownDrainMs: intIn(env, 'SHUTDOWN_DRAIN_MS', 0, 600_000) ?? (env.NODE_ENV === 'production' ? PRODUCTION_DRAIN_MS : 0),
    shutdownGraceMs: intIn(env, 'SHUTDOWN_GRACE_MS', 1, 600_000) ?? 10_000,
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
  // LOG_LEVEL=trace: each statement's time as well (log-levels.rules.ts says what each level adds).
  if (logger.isLevelEnabled('trace'))
    observeStatements((seconds, dialect) => {
      if (settings.metrics) observeStatement(seconds, dialect);
      logger.trace({ dialect, ms: Math.round(seconds * 10_000) / 10 }, 'sql');
    });
  logOutgoingRequests(logger);
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
