import type { Sequelize } from 'sequelize';
import { execute, select, writeTransaction } from '../../db/sql.js';
import type { JobRunner } from '../../jobs/queue.js';

/**
 * alert_filter_counts (migration 0021, P199): the client's alerts per status, priority, type and
 * element, as rows the triggers only ever append (+1 for an alert that appears in a kind, -1 for
 * one that leaves it). A total is the sum of the matching rows.
 */

/**
 * The alerts of the client matching `where`, summed from alert_filter_counts. `where` are the list's
 * own clauses on `al.client_id`, `al.status`, `al.priority`, `al.alert_type` and
 * `al.clinical_element`, which the counts table has under the same names.
 */
export async function countFromFilterCounts(sequelize: Sequelize, where: string[], params: Record<string, unknown>): Promise<number> {
  const [{ n }] = await select<{ n: number | string | null }>(
    sequelize,
    `SELECT SUM(al.n) AS n FROM alert_filter_counts al WHERE ${where.join(' AND ')}`,
    params,
  );
  return Number(n ?? 0);
}

const KIND = 'client_id, status, priority, alert_type, clinical_element';

/**
 * Folds the appended rows into one per kind (kinds that sum to 0 disappear), leaving every total as
 * it was. On PostgreSQL in one statement, so it sums exactly the rows it deletes: a row a
 * concurrent transaction commits meanwhile is neither summed nor deleted, and is folded next time.
 * SQLite has one writer: the rows up to the highest id, summed then deleted in one transaction.
 * Answers the rows removed.
 */
export async function foldFilterCounts(sequelize: Sequelize): Promise<number> {
  if (sequelize.getDialect() === 'postgres') {
    const [{ before, after }] = await select<{ before: string | number; after: string | number }>(
      sequelize,
      `WITH gone AS (DELETE FROM alert_filter_counts RETURNING ${KIND}, n),
            kept AS (INSERT INTO alert_filter_counts (${KIND}, n)
                     SELECT ${KIND}, SUM(n) FROM gone GROUP BY ${KIND} HAVING SUM(n) <> 0 RETURNING 1)
       SELECT (SELECT COUNT(*) FROM gone) AS before, (SELECT COUNT(*) FROM kept) AS after`,
    );
    return Number(before) - Number(after);
  }
  return writeTransaction(sequelize, async (transaction) => {
    const [{ top }] = await select<{ top: number | null }>(sequelize, 'SELECT MAX(id) AS top FROM alert_filter_counts', {}, transaction);
    if (top == null) return 0;
    const added = await execute(
      sequelize,
      `INSERT INTO alert_filter_counts (${KIND}, n)
       SELECT ${KIND}, SUM(n) FROM alert_filter_counts WHERE id <= :top GROUP BY ${KIND} HAVING SUM(n) <> 0`,
      { top },
      transaction,
    );
    const removed = await execute(sequelize, 'DELETE FROM alert_filter_counts WHERE id <= :top', { top }, transaction);
    return removed - added;
  });
}

/** Every five minutes: the rows appended since the last fold are few whatever the installation's size. */
export const ALERT_COUNTS_FOLD_EVERY_MS = 5 * 60_000;

export function registerAlertCountJobs(deps: { sequelize: Sequelize; jobs: JobRunner }): void {
  deps.jobs.every({
    kind: 'alerts.fold_counts',
    everyMs: ALERT_COUNTS_FOLD_EVERY_MS,
    handler: async () => {
      await foldFilterCounts(deps.sequelize);
    },
  });
}
