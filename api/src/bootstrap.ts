import type { Sequelize } from 'sequelize';
import { createClock, type Config } from './config.js';
import { openDatabase } from './db/database.js';
import { migrate } from './db/migrate.js';
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

/** Opens the database, migrates it, loads the catalogues and builds the app: shared by server and tests. */
export async function bootstrap(
  config: Config,
  opts: { now?: () => Date; otpLength?: string; serveFrontEnds?: boolean; logger?: Logger } = {},
): Promise<Product> {
  const sequelize = await openDatabase(config);
  // New tables or indexes need statistics now; later growth is the recurring job's (statistics.ts).
  if (await migrate(sequelize)) await refreshPlannerStatistics(sequelize);
  await syncCatalogues(sequelize.getQueryInterface());
  initModels(sequelize);
  const catalogues = await loadCatalogues(sequelize);
  const now = opts.now ?? createClock(config.clockOffsetMs);
  const sms = createSmsSender({
    sequelize,
    url: config.smsUrl,
    token: config.smsToken,
    now,
    echo: config.env === 'development' ? (line) => console.log(line) : undefined,
  });
  const logger = opts.logger ?? createLogger(loadLogSettings(process.env, config.env));
  const log = logFunction(logger);
  const jobs = createJobRunner({ sequelize, now, log: logFunction(logger.child({ part: 'tareas' })) });
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
