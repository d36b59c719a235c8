import { DataTypes, type QueryInterface } from 'sequelize';

const { INTEGER, BIGINT, STRING, TEXT, BOOLEAN, DATE, REAL } = DataTypes;

/**
 * Alarm rules, their assignment to patients, alerts and alert entries.
 * Lists of a million alerts stay fast: every list index starts with client_id (or patient_id) and
 * status, then created_at. One open alert per patient and rule is a unique partial index, so two
 * readings stored at once cannot open two alerts for the same rule (D10).
 */
export async function up({ context: qi }: { context: QueryInterface }) {
  await qi.createTable('alarms', {
    id: { type: INTEGER, primaryKey: true, autoIncrement: true },
    client_id: { type: INTEGER, allowNull: false, references: { model: 'clients', key: 'id' } },
    name: { type: STRING(100), allowNull: false },
    type: { type: INTEGER, allowNull: false, defaultValue: 1 },
    clinical_element: { type: INTEGER, allowNull: false },
    priority: { type: INTEGER, allowNull: false },
    minimum_condition: { type: REAL, allowNull: false },
    maximum_condition: { type: REAL, allowNull: false },
    ia_alarm: { type: BOOLEAN, allowNull: false, defaultValue: false },
    ia_script: { type: STRING(100), allowNull: true },
    prompt_ia: { type: TEXT, allowNull: true },
    request_repeat_measurement: { type: BOOLEAN, allowNull: false, defaultValue: false },
    alarm_default_new_patients: { type: BOOLEAN, allowNull: false, defaultValue: false },
    status: { type: INTEGER, allowNull: false, defaultValue: 1 },
    created_at: { type: DATE, allowNull: false },
    updated_at: { type: DATE, allowNull: false },
  });
  await qi.addIndex('alarms', ['client_id', 'name']);
  await qi.addIndex('alarms', ['client_id', 'alarm_default_new_patients']);

  await qi.createTable('patient_alarms', {
    patient_id: { type: INTEGER, allowNull: false, primaryKey: true, references: { model: 'patients', key: 'id' }, onDelete: 'CASCADE' },
    alarm_id: { type: INTEGER, allowNull: false, primaryKey: true, references: { model: 'alarms', key: 'id' }, onDelete: 'CASCADE' },
  });
  await qi.addIndex('patient_alarms', ['alarm_id', 'patient_id']);

  await qi.createTable('alerts', {
    id: { type: INTEGER, primaryKey: true, autoIncrement: true },
    client_id: { type: INTEGER, allowNull: false, references: { model: 'clients', key: 'id' } },
    patient_id: { type: INTEGER, allowNull: false, references: { model: 'patients', key: 'id' } },
    alert_type: { type: INTEGER, allowNull: false },
    status: { type: INTEGER, allowNull: false, defaultValue: 1 },
    priority: { type: INTEGER, allowNull: false },
    clinical_element: { type: INTEGER, allowNull: true },
    description: { type: TEXT, allowNull: true },
    alarm_id: { type: INTEGER, allowNull: true, references: { model: 'alarms', key: 'id' }, onDelete: 'SET NULL' },
    measurement_id: { type: BIGINT, allowNull: true },
    activity_id: { type: INTEGER, allowNull: true },
    value: { type: REAL, allowNull: true },
    // The rule as it was when the alert opened: a later edit or delete does not rewrite history.
    alarm_name: { type: STRING(100), allowNull: true },
    minimum_condition: { type: REAL, allowNull: true },
    maximum_condition: { type: REAL, allowNull: true },
    close_type: { type: STRING(16), allowNull: true },
    closed_by: { type: INTEGER, allowNull: true },
    closed_at: { type: DATE, allowNull: true },
    created_at: { type: DATE, allowNull: false },
    updated_at: { type: DATE, allowNull: false },
  });
  await qi.addIndex('alerts', ['client_id', 'status', 'created_at']);
  await qi.addIndex('alerts', ['client_id', 'created_at', 'priority']);
  await qi.addIndex('alerts', ['patient_id', 'status', 'created_at']);
  await qi.sequelize.query(
    'CREATE UNIQUE INDEX alerts_one_open_per_rule ON alerts (patient_id, alarm_id) WHERE status = 1 AND alarm_id IS NOT NULL',
  );

  // Later out-of-range readings of an open alert ('Mediciones posteriores').
  await qi.createTable('alert_measurements', {
    alert_id: { type: INTEGER, allowNull: false, primaryKey: true, references: { model: 'alerts', key: 'id' }, onDelete: 'CASCADE' },
    measurement_id: { type: BIGINT, allowNull: false, primaryKey: true },
  });

  await qi.createTable('alert_entries', {
    id: { type: INTEGER, primaryKey: true, autoIncrement: true },
    alert_id: { type: INTEGER, allowNull: false, references: { model: 'alerts', key: 'id' }, onDelete: 'CASCADE' },
    user_id: { type: INTEGER, allowNull: true },
    user_name: { type: STRING(120), allowNull: false },
    description: { type: TEXT, allowNull: false },
    created_at: { type: DATE, allowNull: false },
  });
  await qi.addIndex('alert_entries', ['alert_id', 'id']);
}

export async function down({ context: qi }: { context: QueryInterface }) {
  for (const t of ['alert_entries', 'alert_measurements', 'alerts', 'patient_alarms', 'alarms']) await qi.dropTable(t);
}
