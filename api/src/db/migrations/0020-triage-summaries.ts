import type { QueryInterface } from 'sequelize';

/**
 * 'Priorización' (issue 21): one summary per active patient with its score and flags, so the
 * first page is an index walk (client_id, score) with a LIMIT, never a scan of readings.
 *
 * `triage_dirty` holds the patients whose summary is out of date; the summary job recomputes
 * them off the request path. Stored readings marked their patients in the ingestion transaction
 * (a measurement hook; by trigger since 0023); everything else that feeds a flag marks by
 * trigger, whoever writes it: alerts opened or closed, orders created or moved, activities
 * moved, readings deleted, alarm rules assigned or edited, patients created or moved between
 * statuses. A change of the client's triage settings makes its summaries due (valid_until).
 * The backfill marks every active patient, so the first job run builds every summary.
 * indicator_months keeps the programme indicators of each month (see indicators.service.ts).
 */
const TABLES = [
  `CREATE TABLE triage_summaries (
     patient_id INTEGER PRIMARY KEY REFERENCES patients (id) ON DELETE CASCADE,
     client_id INTEGER NOT NULL,
     score INTEGER NOT NULL,
     flag_mask INTEGER NOT NULL,
     flags TEXT NOT NULL,
     last_reading_at TIMESTAMPTZ,
     computed_at TIMESTAMPTZ NOT NULL,
     valid_until TIMESTAMPTZ NOT NULL
   )`,
  'CREATE INDEX triage_summaries_rank ON triage_summaries (client_id, score, patient_id)',
  'CREATE INDEX triage_summaries_due ON triage_summaries (valid_until)',
  'CREATE TABLE triage_dirty (patient_id INTEGER PRIMARY KEY)',
  'ALTER TABLE clients ADD COLUMN triage_settings TEXT',
  // Programme indicators per client and month (GET /reports/indicators): a job writes the current
  // month as it goes and each past month once, so the dashboard reads at most 12 rows.
  `CREATE TABLE indicator_months (
     client_id INTEGER NOT NULL REFERENCES clients (id),
     month CHAR(7) NOT NULL,
     figures TEXT NOT NULL,
     as_of TIMESTAMPTZ NOT NULL,
     complete BOOLEAN NOT NULL,
     computed_at TIMESTAMPTZ NOT NULL,
     PRIMARY KEY (client_id, month)
   )`,
];

const ACTIVE = 1;
const BACKFILL = `INSERT INTO triage_dirty (patient_id) SELECT id FROM patients WHERE status = ${ACTIVE}`;

/** [table, events, condition on OLD/NEW, the patient id's column]. */
const MARKS: Array<[string, string, string | null, string]> = [
  ['patients', 'INSERT', null, 'id'],
  ['patients', 'UPDATE OF status', 'OLD.status IS DISTINCT FROM NEW.status', 'id'],
  ['alerts', 'INSERT', null, 'patient_id'],
  ['alerts', 'UPDATE OF status', 'OLD.status IS DISTINCT FROM NEW.status', 'patient_id'],
  ['orders', 'INSERT', null, 'patient_id'],
  ['orders', 'UPDATE OF status, start_at, clinical_element', null, 'patient_id'],
  ['activities', 'UPDATE OF status', 'OLD.status IS DISTINCT FROM NEW.status', 'patient_id'],
  ['measurements', 'UPDATE OF status', 'OLD.status IS DISTINCT FROM NEW.status', 'patient_id'],
  ['measurements', 'DELETE', null, 'patient_id'],
  ['patient_alarms', 'INSERT', null, 'patient_id'],
  ['patient_alarms', 'DELETE', null, 'patient_id'],
];

const triggerName = (table: string, events: string) => `triage_mark_${table}_${events.split(' ')[0].toLowerCase()}`;

function sqliteTriggers(): string[] {
  const marks = MARKS.map(([table, events, when, column]) => {
    const row = events === 'DELETE' ? 'OLD' : 'NEW';
    const condition = when ? ` WHEN ${when.replace(/IS DISTINCT FROM/g, 'IS NOT')}` : '';
    return `CREATE TRIGGER ${triggerName(table, events)} AFTER ${events} ON ${table}${condition} BEGIN
       INSERT INTO triage_dirty (patient_id) VALUES (${row}.${column}) ON CONFLICT DO NOTHING;
     END`;
  });
  return [
    ...marks,
    `CREATE TRIGGER triage_mark_alarms_update AFTER UPDATE OF clinical_element, minimum_condition, maximum_condition, status ON alarms BEGIN
       INSERT INTO triage_dirty (patient_id) SELECT patient_id FROM patient_alarms WHERE alarm_id = NEW.id ON CONFLICT DO NOTHING;
     END`,
    `CREATE TRIGGER triage_settings_update AFTER UPDATE OF triage_settings ON clients BEGIN
       UPDATE triage_summaries SET valid_until = computed_at WHERE client_id = NEW.id;
     END`,
  ];
}

function postgresTriggers(): string[] {
  const marks = MARKS.map(([table, events, when, column]) => {
    const condition = when ? ` WHEN (${when})` : '';
    return `CREATE TRIGGER ${triggerName(table, events)} AFTER ${events} ON ${table} FOR EACH ROW${condition}
            EXECUTE FUNCTION triage_mark_patient('${column}')`;
  });
  return [
    // The patient id's column is the trigger's argument: one function for every table.
    `CREATE FUNCTION triage_mark_patient() RETURNS trigger LANGUAGE plpgsql AS $$
     DECLARE row_data jsonb;
     BEGIN
       IF TG_OP = 'DELETE' THEN row_data := to_jsonb(OLD); ELSE row_data := to_jsonb(NEW); END IF;
       INSERT INTO triage_dirty (patient_id) VALUES ((row_data ->> TG_ARGV[0])::integer) ON CONFLICT DO NOTHING;
       RETURN NULL;
     END $$`,
    `CREATE FUNCTION triage_mark_alarm() RETURNS trigger LANGUAGE plpgsql AS $$
     BEGIN
       INSERT INTO triage_dirty (patient_id) SELECT patient_id FROM patient_alarms WHERE alarm_id = NEW.id ON CONFLICT DO NOTHING;
       RETURN NULL;
     END $$`,
    `CREATE FUNCTION triage_settings_changed() RETURNS trigger LANGUAGE plpgsql AS $$
     BEGIN
       UPDATE triage_summaries SET valid_until = computed_at WHERE client_id = NEW.id;
       RETURN NULL;
     END $$`,
    ...marks,
    `CREATE TRIGGER triage_mark_alarms_update AFTER UPDATE OF clinical_element, minimum_condition, maximum_condition, status ON alarms
     FOR EACH ROW EXECUTE FUNCTION triage_mark_alarm()`,
    `CREATE TRIGGER triage_settings_update AFTER UPDATE OF triage_settings ON clients
     FOR EACH ROW WHEN (OLD.triage_settings IS DISTINCT FROM NEW.triage_settings) EXECUTE FUNCTION triage_settings_changed()`,
  ];
}

export async function up({ context: qi }: { context: QueryInterface }) {
  const postgres = qi.sequelize.getDialect() === 'postgres';
  await qi.sequelize.transaction(async (transaction) => {
    const run = (sql: string) => qi.sequelize.query(postgres ? sql : sql.replace(/TIMESTAMPTZ/g, 'DATETIME'), { transaction });
    for (const sql of TABLES) await run(sql);
    for (const sql of postgres ? postgresTriggers() : sqliteTriggers()) await run(sql);
    await run(BACKFILL);
  });
}

export async function down({ context: qi }: { context: QueryInterface }) {
  const postgres = qi.sequelize.getDialect() === 'postgres';
  const names = [...MARKS.map(([table, events]) => [table, triggerName(table, events)]), ['alarms', 'triage_mark_alarms_update']];
  for (const [table, name] of names) await qi.sequelize.query(`DROP TRIGGER IF EXISTS ${name}${postgres ? ` ON ${table}` : ''}`);
  await qi.sequelize.query(`DROP TRIGGER IF EXISTS triage_settings_update${postgres ? ' ON clients' : ''}`);
  if (postgres)
    for (const f of ['triage_mark_patient', 'triage_mark_alarm', 'triage_settings_changed'])
      await qi.sequelize.query(`DROP FUNCTION IF EXISTS ${f}()`);
  await qi.removeColumn('clients', 'triage_settings');
  await qi.sequelize.query('DROP TABLE IF EXISTS indicator_months');
  await qi.sequelize.query('DROP TABLE IF EXISTS triage_dirty');
  await qi.sequelize.query('DROP TABLE IF EXISTS triage_summaries');
}
