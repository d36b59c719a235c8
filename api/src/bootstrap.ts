import type { Sequelize } from 'sequelize';
import { createClock, type Config } from './config.js';
import { openDatabase } from './db/database.js';
import { migrate, underStartLock } from './db/migrate.js';
import { refreshPlannerStatistics, registerStatisticsJob } from './db/statistics.js';
import { initModels } from './db/models/index.js';
import { loadCatalogues, type Catalogues } from './modules/catalogues/catalogues.service.js';
import { createSmsSender } from './adapters/sms.js';
import { createApp } from './app.js';
import { flushAuditTrail } from './modules/audit/audit.recorder.js';
import { createJobRunner, type JobRunner } from './jobs/queue.js';
import { otpLength } from './modules/otp/otp.rules.js';
import { syncCatalogues } from './modules/catalogues/catalogues.sync.js';
import { createLogger, loadLogSettings, logFunction, type Logger } from './observability/logger.js';
import { createObservability, type Observability } from './observability/observability.js';
import { echoesSmsToConsole } from './observability/log-levels.rules.js';

export interface Product {
  app: ReturnType<typeof createApp>;
  sequelize: Sequelize;
  catalogues: Catalogues;
  /** Background jobs: the server polls them; tests call jobs.runDue({ now }) or jobs.drain(). */
  jobs: JobRunner;
  /** The clock every part of the app reads (opts.now, else the wall clock moved by config.clockOffsetMs). */
  now: () => Date;
  /** Logger, metrics and the process's readiness (issue 39). */
  observability: Observability;
  close(): Promise<void>;
}

export interface BootstrapOptions {
  now?: () => Date;
  otpLength?: string;
  serveFrontEnds?: boolean;
  logger?: Logger;
  /**
   * Runs right after the migrations and the catalogues, still under the start lock (migrate.ts):
   * the server's demo data for an empty database, so a second process started with it sees the
   * first one's organisations instead of seeding its own.
   */
  firstStart?: (sequelize: Sequelize, now: () => Date) => Promise<void>;
  /** Told once when another process holds the start lock and this one waits for it. */
  onStartLockWait?: () => void;
}

/** Opens the database, migrates it, loads the catalogues and builds the app: shared by server and tests. */
export async function bootstrap(config: Config, opts: BootstrapOptions = {}): Promise<Product> {
  const sequelize = await openDatabase(config);
  const now = opts.now ?? createClock(config.clockOffsetMs);
  await underStartLock(
    sequelize,
    async () => {
      // New tables or indexes need statistics now; later growth is the recurring job's (statistics.ts).
      if (await migrate(sequelize)) await refreshPlannerStatistics(sequelize);
      await syncCatalogues(sequelize.getQueryInterface());
      await opts.firstStart?.(sequelize, now);
    },
    opts.onStartLockWait,
  );
  initModels(sequelize);
  const catalogues = await loadCatalogues(sequelize);
  const logSettings = loadLogSettings(process.env, config.env);
  const sms = createSmsSender({
    sequelize,
    url: config.smsUrl,
    token: config.smsToken,
    now,
    echo: echoesSmsToConsole({ nodeEnv: config.env, logFile: logSettings.file, stdoutIsTty: Boolean(process.stdout.isTTY) })
      ? (line) => console.log(line)
      : undefined,
  });
  const logger = opts.logger ?? createLogger(logSettings);
  const log = logFunction(logger);
  const jobsLogger = logger.child({ part: 'tareas' });
  const jobs = createJobRunner({ sequelize, now, log: logFunction(jobsLogger), lines: jobsLogger });
  const observability = createObservability({ sequelize, jobs, now, logger });
  registerStatisticsJob({ jobs });
  const app = createApp({
    sequelize,
    catalogues,
    sms,
    jobs,
    jwtSecret: config.jwtSecret,
    tokenTtlSeconds: config.tokenTtlSeconds,
    otpLength: otpLength(opts.otpLength ?? process.env.OTP_LENGTH),
    env: config.env,
    now,
    serveFrontEnds: opts.serveFrontEnds,
    dataDir: config.dataDir,
    allowHttpServices: config.allowHttpServices ?? false,
    log,
    observability,
  });
  const close = async () => {
    await flushAuditTrail(sequelize);
    await sequelize.close();
  };
  return { app, sequelize, catalogues, jobs, now, observability, close };
}
