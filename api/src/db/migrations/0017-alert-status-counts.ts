import type { QueryInterface } from 'sequelize';

/**
 * Alerts per client and status, kept by the database itself: the badge ('Alertas abiertas /
 * cerradas'), the dashboard's open alerts and a list filtered by status alone read one row instead
 * of counting the index (bench, 1M alerts: 441,705 closed alerts of one client counted in ~60 ms).
 * Triggers keep it exact whoever writes alerts (API, jobs, seeds, SQL by hand); the backfill and
 * the triggers are created in one transaction, so no alert written meanwhile is missed.
 */
const BACKFILL =
  'INSERT INTO alert_status_counts (client_id, status, n) SELECT client_id, status, COUNT(*) FROM alerts GROUP BY client_id, status';

const SQLITE = [
  `CREATE TRIGGER alert_status_counts_insert AFTER INSERT ON alerts BEGIN
     INSERT INTO alert_status_counts (client_id, status, n) VALUES (NEW.client_id, NEW.status, 1)
     ON CONFLICT (client_id, status) DO UPDATE SET n = n + 1;
   END`,
  `CREATE TRIGGER alert_status_counts_delete AFTER DELETE ON alerts BEGIN
     UPDATE alert_status_counts SET n = n - 1 WHERE client_id = OLD.client_id AND status = OLD.status;
   END`,
  `CREATE TRIGGER alert_status_counts_update AFTER UPDATE OF client_id, status ON alerts
   WHEN OLD.client_id IS NOT NEW.client_id OR OLD.status IS NOT NEW.status BEGIN
     UPDATE alert_status_counts SET n = n - 1 WHERE client_id = OLD.client_id AND status = OLD.status;
     INSERT INTO alert_status_counts (client_id, status, n) VALUES (NEW.client_id, NEW.status, 1)
     ON CONFLICT (client_id, status) DO UPDATE SET n = n + 1;
   END`,
];

const POSTGRES = [
  `CREATE FUNCTION alert_status_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     IF TG_OP = 'UPDATE' AND OLD.client_id = NEW.client_id AND OLD.status = NEW.status THEN
       RETURN NULL;
     END IF;
     IF TG_OP <> 'INSERT' THEN
       UPDATE alert_status_counts SET n = n - 1 WHERE client_id = OLD.client_id AND status = OLD.status;
     END IF;
     IF TG_OP <> 'DELETE' THEN
       INSERT INTO alert_status_counts (client_id, status, n) VALUES (NEW.client_id, NEW.status, 1)
       ON CONFLICT (client_id, status) DO UPDATE SET n = alert_status_counts.n + 1;
     END IF;
     RETURN NULL;
   END $$`,
  `CREATE TRIGGER alert_status_counts_change AFTER INSERT OR DELETE OR UPDATE OF client_id, status ON alerts
   FOR EACH ROW EXECUTE FUNCTION alert_status_counts_apply()`,
];

export async function up({ context: qi }: { context: QueryInterface }) {
  const postgres = qi.sequelize.getDialect() === 'postgres';
  await qi.sequelize.transaction(async (transaction) => {
    await qi.sequelize.query(
      `CREATE TABLE alert_status_counts (client_id INTEGER NOT NULL, status INTEGER NOT NULL, n ${postgres ? 'BIGINT' : 'INTEGER'} NOT NULL, PRIMARY KEY (client_id, status))`,
      { transaction },
    );
    if (postgres) await qi.sequelize.query('LOCK TABLE alerts IN SHARE ROW EXCLUSIVE MODE', { transaction });
    await qi.sequelize.query(BACKFILL, { transaction });
    for (const sql of postgres ? POSTGRES : SQLITE) await qi.sequelize.query(sql, { transaction });
  });
}

export async function down({ context: qi }: { context: QueryInterface }) {
  if (qi.sequelize.getDialect() === 'postgres') {
    await qi.sequelize.query('DROP TRIGGER IF EXISTS alert_status_counts_change ON alerts');
    await qi.sequelize.query('DROP FUNCTION IF EXISTS alert_status_counts_apply()');
  } else {
    for (const t of ['insert', 'delete', 'update']) await qi.sequelize.query(`DROP TRIGGER IF EXISTS alert_status_counts_${t}`);
  }
  await qi.sequelize.query('DROP TABLE IF EXISTS alert_status_counts');
}
