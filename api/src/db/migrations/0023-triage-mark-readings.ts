import type { QueryInterface } from 'sequelize';

/**
 * A stored reading marks its patient for the triage summary job (issue 21) by trigger, like every
 * other write that feeds a flag (migration 0020), instead of a statement of its own in the
 * ingestion group (issue 22: at a steady rate a group holds one reading, and each of its statements
 * is a turn of the event loop, or a round trip on PostgreSQL). A reading the INSERT skipped (a
 * retried reading id) changes nothing and marks nothing.
 *
 * SQLite runs the trigger per row, inside the INSERT. PostgreSQL runs it once per statement over
 * the statement's new rows (a transition table), patients in id order, so two groups that mark the
 * same patients take their locks in the same order.
 */
const SQLITE = `CREATE TRIGGER triage_mark_measurements_insert AFTER INSERT ON measurements BEGIN
   INSERT INTO triage_dirty (patient_id) VALUES (NEW.patient_id) ON CONFLICT DO NOTHING;
 END`;

const POSTGRES = [
  `CREATE FUNCTION triage_mark_readings() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     INSERT INTO triage_dirty (patient_id) SELECT DISTINCT patient_id FROM new_readings ORDER BY patient_id ON CONFLICT DO NOTHING;
     RETURN NULL;
   END $$`,
  `CREATE TRIGGER triage_mark_measurements_insert AFTER INSERT ON measurements
   REFERENCING NEW TABLE AS new_readings FOR EACH STATEMENT EXECUTE FUNCTION triage_mark_readings()`,
];

export async function up({ context: qi }: { context: QueryInterface }) {
  const postgres = qi.sequelize.getDialect() === 'postgres';
  for (const sql of postgres ? POSTGRES : [SQLITE]) await qi.sequelize.query(sql);
}

export async function down({ context: qi }: { context: QueryInterface }) {
  const postgres = qi.sequelize.getDialect() === 'postgres';
  await qi.sequelize.query(`DROP TRIGGER IF EXISTS triage_mark_measurements_insert${postgres ? ' ON measurements' : ''}`);
  if (postgres) await qi.sequelize.query('DROP FUNCTION IF EXISTS triage_mark_readings()');
}
