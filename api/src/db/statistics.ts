import type { Sequelize } from 'sequelize';
import type { JobRunner } from '../jobs/queue.js';
import { isPostgres } from './database.js';

const STATISTICS_KIND = 'db.statistics';
const EVERY_MS = 6 * 3600_000;

/**
 * SQLite's planner knows nothing of the data until ANALYZE has run (PostgreSQL's autovacuum keeps
 * its statistics itself). Without them it judged `client_id = ?` as selective as a patient id: the
 * alerts manager's name search counted through every alert of the client (1 s at 1M alerts)
 * instead of the few patients found (12 ms). With analysis_limit each index is sampled, not read
 * whole: 36 ms on the benchmark's 4 GB file.
 */
export async function refreshPlannerStatistics(sequelize: Sequelize): Promise<void> {
  if (isPostgres(sequelize)) return;
  await sequelize.query('PRAGMA analysis_limit = 1000');
  await sequelize.query('ANALYZE');
}

/** Every six hours (the first run at the first poll after start-up), as the tables grow. */
export function registerStatisticsJob(deps: { jobs: JobRunner }): void {
  deps.jobs.every({ kind: STATISTICS_KIND, everyMs: EVERY_MS, handler: ({ sequelize }) => refreshPlannerStatistics(sequelize) });
}
