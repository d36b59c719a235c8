import type { QueryInterface } from 'sequelize';
import * as statusCounts from './0017-alert-status-counts.js';

/**
 * alert_status_counts (migration 0017) goes (P200): alert_filter_counts (0021) keeps the same
 * totals per client and status, and more, in rows that are only ever appended. The old table's
 * rows were updated in place by every alert opened or closed: on PostgreSQL a transaction waited
 * for any other that had changed the same client's count, and the alarm check had to open alerts in
 * client order so two groups could not deadlock on them (P134).
 */
export async function up({ context: qi }: { context: QueryInterface }) {
  await statusCounts.down({ context: qi });
}

export async function down({ context: qi }: { context: QueryInterface }) {
  await statusCounts.up({ context: qi });
}
