/**
 * Issue 21's build rows: the triage summaries of every patient rebuilt from the readings (what
 * `npm run triage:rebuild` does), timed, beside the floor of that work on the bare driver (reading
 * the same two windows of readings, batch by batch, and nothing else); then the programme
 * indicators' 12 months for each client, as their job computes them; and the alerts' kept totals
 * folded, as their job leaves them. Run before the API starts, so the measured API finds its
 * summaries, indicators and totals as a live installation has them, and its jobs idle.
 */
import { openDatabase } from '../api/src/db/database.js';
import { migrate } from '../api/src/db/migrate.js';
import { execute, sqlDate } from '../api/src/db/sql.js';
import { rebuildSummaries } from '../api/src/modules/triage/triage.summaries.js';
import { refreshClientIndicators } from '../api/src/modules/indicators/indicators.service.js';
import { foldFilterCounts } from '../api/src/modules/alerts/alerts.counts.js';
import { TRIAGE_DEFAULTS } from '@vigia/contract/rules/triage';
import { openDriver, type DriverTarget } from './driver.js';

export interface TriageBuildResult {
  patients: number;
  seconds: number;
  /** The same batches' readings read on the driver, nothing computed or written. */
  baselineSeconds: number;
  clients: number;
  indicatorSeconds: number;
}

const BATCH = 500;
const DAY_MS = 86_400_000;

async function readingsFloor(target: DriverTarget, now: Date): Promise<number> {
  const driver = await openDriver(target, { connections: 1 });
  const started = performance.now();
  try {
    const from = new Date(now.getTime() - 2 * TRIAGE_DEFAULTS.window_days * DAY_MS);
    const at = (d: Date) => (driver.dialect === 'sqlite' ? sqlDate(d).slice(1, -1) : d.toISOString());
    let after = 0;
    for (;;) {
      const ids = await driver.all<{ id: number }>(`SELECT id FROM patients WHERE id > $1 ORDER BY id LIMIT ${BATCH}`, [after]);
      if (!ids.length) break;
      after = Number(ids[ids.length - 1].id);
      const list = ids.map((r) => Number(r.id)).join(',');
      await driver.all(
        `SELECT patient_id, clinical_element, value, "when" FROM measurements
          WHERE patient_id IN (${list}) AND "when" > $1 AND "when" <= $2 AND status = 0`,
        [at(from), at(now)],
      );
    }
  } finally {
    await driver.close();
  }
  return (performance.now() - started) / 1000;
}

export async function buildTriage(opts: {
  dataDir: string;
  databaseUrl: string | null;
  target: DriverTarget;
  /** The run's clock (the data set's instant): the 14-day window ends there. */
  now: Date;
  log: (line: string) => void;
}): Promise<TriageBuildResult> {
  const sequelize = await openDatabase({ dataDir: opts.dataDir, databaseUrl: opts.databaseUrl });
  try {
    await migrate(sequelize);
    const { now } = opts;
    let started = performance.now();
    const rebuilt = await rebuildSummaries(sequelize, now);
    const seconds = (performance.now() - started) / 1000;
    // The data set does not change meanwhile: the seed's marks are all rebuilt.
    await execute(sequelize, 'DELETE FROM triage_dirty', {});
    // As dataset.ts does for the whole database: a live table has been through autovacuum (visibility
    // map set, so the list's count is an index-only scan, and statistics of its 156,000 new rows).
    if (sequelize.getDialect() === 'postgres') await sequelize.query('VACUUM ANALYZE triage_summaries, triage_dirty');
    opts.log(`Resúmenes de priorización: ${rebuilt.patients} pacientes en ${seconds.toFixed(1)} s`);
    const baselineSeconds = await readingsFloor(opts.target, now);
    const clients = (await sequelize.query('SELECT id FROM clients ORDER BY id', { type: 'SELECT' })) as Array<{ id: number }>;
    started = performance.now();
    for (const c of clients) await refreshClientIndicators(sequelize, Number(c.id), now);
    const indicatorSeconds = (performance.now() - started) / 1000;
    opts.log(`Indicadores (12 meses × ${clients.length} clientes) en ${indicatorSeconds.toFixed(1)} s`);
    // The alerts' kept totals as a live installation has them: its fold job runs every five minutes
    // (P199), while the seed's triggers appended one row per alert (997,576 at the size, so
    // the badge summed a million index entries instead of ~35 rows per client and status).
    started = performance.now();
    const folded = await foldFilterCounts(sequelize);
    if (sequelize.getDialect() === 'postgres') await sequelize.query('VACUUM ANALYZE alert_filter_counts');
    opts.log(`Totales de alertas plegados: ${folded} filas menos en ${((performance.now() - started) / 1000).toFixed(1)} s`);
    return { patients: rebuilt.patients, seconds, baselineSeconds, clients: clients.length, indicatorSeconds };
  } finally {
    await sequelize.close();
  }
}
