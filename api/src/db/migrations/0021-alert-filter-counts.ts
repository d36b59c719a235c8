import type { QueryInterface } from 'sequelize';

/**
 * The alerts manager's totals for its filters (status, priority, type, element) without a date or a
 * name (P199). Counting them from the index took up to 46 ms on PostgreSQL at 1M alerts (266,848
 * alerts of one priority), most of the list's 50 ms. The database keeps them itself, by triggers,
 * whoever writes alerts.
 *
 * Unlike alert_status_counts (one row per client and status), these rows are never updated in
 * place: each change of an alert appends a +1 and/or a -1 row. Transactions that raise or close
 * alerts of several kinds (an ingestion group, the auto-close job, two API processes) would
 * otherwise lock several count rows each, in whatever order their alerts came, and could deadlock
 * on PostgreSQL. A total is the sum of a client's rows; the alert-count job folds the appended rows
 * into one per kind (alerts.counts.ts). The backfill and the triggers are created in one
 * transaction, so no alert written meanwhile is missed.
 */
const KIND = 'client_id, status, priority, alert_type, clinical_element';

const BACKFILL = `INSERT INTO alert_filter_counts (${KIND}, n) SELECT ${KIND}, COUNT(*) FROM alerts GROUP BY ${KIND}`;

const row = (of: 'NEW' | 'OLD', n: 1 | -1) =>
  `INSERT INTO alert_filter_counts (${KIND}, n) VALUES (${of}.client_id, ${of}.status, ${of}.priority, ${of}.alert_type, ${of}.clinical_element, ${n});`;

const CHANGED = ['client_id', 'status', 'priority', 'alert_type', 'clinical_element'];

const SQLITE = [
  `CREATE TRIGGER alert_filter_counts_insert AFTER INSERT ON alerts BEGIN ${row('NEW', 1)} END`,
  `CREATE TRIGGER alert_filter_counts_delete AFTER DELETE ON alerts BEGIN ${row('OLD', -1)} END`,
  `CREATE TRIGGER alert_filter_counts_update AFTER UPDATE OF ${CHANGED.join(', ')} ON alerts
   WHEN ${CHANGED.map((c) => `OLD.${c} IS NOT NEW.${c}`).join(' OR ')} BEGIN ${row('OLD', -1)} ${row('NEW', 1)} END`,
];

const POSTGRES = [
  `CREATE FUNCTION alert_filter_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     IF TG_OP = 'UPDATE' AND ${CHANGED.map((c) => `OLD.${c} IS NOT DISTINCT FROM NEW.${c}`).join(' AND ')} THEN
       RETURN NULL;
     END IF;
     IF TG_OP <> 'INSERT' THEN ${row('OLD', -1)} END IF;
     IF TG_OP <> 'DELETE' THEN ${row('NEW', 1)} END IF;
     RETURN NULL;
   END $$`,
  `CREATE TRIGGER alert_filter_counts_change AFTER INSERT OR DELETE OR UPDATE OF ${CHANGED.join(', ')} ON alerts
   FOR EACH ROW EXECUTE FUNCTION alert_filter_counts_apply()`,
];

export async function up({ context: qi }: { context: QueryInterface }) {
  const postgres = qi.sequelize.getDialect() === 'postgres';
  await qi.sequelize.transaction(async (transaction) => {
    await qi.sequelize.query(
      `CREATE TABLE alert_filter_counts (
         id ${postgres ? 'BIGSERIAL' : 'INTEGER'} PRIMARY KEY,
         client_id INTEGER NOT NULL, status INTEGER NOT NULL, priority INTEGER NOT NULL, alert_type INTEGER NOT NULL,
         clinical_element INTEGER, n ${postgres ? 'BIGINT' : 'INTEGER'} NOT NULL)`,
      { transaction },
    );
    await qi.sequelize.query(`CREATE INDEX alert_filter_counts_kind ON alert_filter_counts (${KIND}, n)`, { transaction });
    if (postgres) await qi.sequelize.query('LOCK TABLE alerts IN SHARE ROW EXCLUSIVE MODE', { transaction });
    await qi.sequelize.query(BACKFILL, { transaction });
    for (const sql of postgres ? POSTGRES : SQLITE) await qi.sequelize.query(sql, { transaction });
  });
}

export async function down({ context: qi }: { context: QueryInterface }) {
  if (qi.sequelize.getDialect() === 'postgres') {
    await qi.sequelize.query('DROP TRIGGER IF EXISTS alert_filter_counts_change ON alerts');
    await qi.sequelize.query('DROP FUNCTION IF EXISTS alert_filter_counts_apply()');
  } else {
    for (const t of ['insert', 'delete', 'update']) await qi.sequelize.query(`DROP TRIGGER IF EXISTS alert_filter_counts_${t}`);
  }
  await qi.sequelize.query('DROP TABLE IF EXISTS alert_filter_counts');
}
