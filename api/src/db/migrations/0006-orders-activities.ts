import { DataTypes, type QueryInterface } from 'sequelize';

/**
 * Orders, their activities and the medicines catalogue (02 §3). Every list starts with
 * client_id or patient_id; the scheduler reads activities by (status, programmed_at) and orders by
 * (status, id), so its sweeps touch only rows that are due.
 */
const { INTEGER, BIGINT, STRING, TEXT, BOOLEAN, DATE } = DataTypes;

export async function up({ context: qi }: { context: QueryInterface }) {
  await qi.createTable('medicines', {
    id: { type: INTEGER, primaryKey: true },
    name: { type: STRING(120), allowNull: false },
    presentation: { type: STRING(80), allowNull: false },
    search_name: { type: STRING(120), allowNull: false },
  });
  await qi.addIndex('medicines', ['search_name']);

  await qi.createTable('orders', {
    id: { type: INTEGER, primaryKey: true, autoIncrement: true },
    client_id: { type: INTEGER, allowNull: false, references: { model: 'clients', key: 'id' } },
    patient_id: { type: INTEGER, allowNull: false, references: { model: 'patients', key: 'id' } },
    user_id: { type: INTEGER, allowNull: true, references: { model: 'users', key: 'id' } },
    order_type: { type: INTEGER, allowNull: false },
    status: { type: INTEGER, allowNull: false, defaultValue: 0 },
    notify: { type: BOOLEAN, allowNull: false, defaultValue: true },
    permanent: { type: BOOLEAN, allowNull: false, defaultValue: false },
    clinical_element: { type: INTEGER, allowNull: true },
    medicine_id: { type: INTEGER, allowNull: true, references: { model: 'medicines', key: 'id' } },
    frecuency: { type: INTEGER, allowNull: true },
    time_unit: { type: INTEGER, allowNull: true },
    during: { type: INTEGER, allowNull: false },
    dose: { type: INTEGER, allowNull: true },
    amount: { type: STRING(8), allowNull: true },
    medication_unit: { type: INTEGER, allowNull: true },
    frequency_type: { type: INTEGER, allowNull: true },
    days: { type: STRING(20), allowNull: false, defaultValue: '[]' },
    hours: { type: TEXT, allowNull: false, defaultValue: '[]' },
    start_at: { type: DATE, allowNull: true },
    to_human: { type: STRING(400), allowNull: true },
    /** Permanent orders: activities exist up to here (rolling 30 days, D11). */
    generated_until: { type: DATE, allowNull: true },
    /** The stale-data alert was raised; cleared by the next reading of the element. */
    stale_alerted_at: { type: DATE, allowNull: true },
    created_at: { type: DATE, allowNull: false },
    updated_at: { type: DATE, allowNull: false },
  });
  await qi.addIndex('orders', ['client_id', 'status', 'id']);
  await qi.addIndex('orders', ['patient_id', 'status', 'id']);
  await qi.addIndex('orders', ['status', 'id']);

  await qi.createTable('activities', {
    id: { type: BIGINT, primaryKey: true, autoIncrement: true },
    client_id: { type: INTEGER, allowNull: false, references: { model: 'clients', key: 'id' } },
    patient_id: { type: INTEGER, allowNull: false, references: { model: 'patients', key: 'id' } },
    order_id: { type: INTEGER, allowNull: false, references: { model: 'orders', key: 'id' }, onDelete: 'CASCADE' },
    /** The generated time: with order_id it makes generation idempotent even after a reschedule. */
    slot_at: { type: DATE, allowNull: false },
    programmed_at: { type: DATE, allowNull: false },
    status: { type: INTEGER, allowNull: false, defaultValue: 0 },
    completed_at: { type: DATE, allowNull: true },
    measurement_id: { type: BIGINT, allowNull: true },
    alert_id: { type: INTEGER, allowNull: true },
    reminded_at: { type: DATE, allowNull: true },
    created_at: { type: DATE, allowNull: false },
    updated_at: { type: DATE, allowNull: false },
  });
  await qi.addIndex('activities', ['order_id', 'slot_at'], { unique: true, name: 'activities_order_slot' });
  await qi.addIndex('activities', ['order_id', 'programmed_at']);
  await qi.addIndex('activities', ['patient_id', 'programmed_at']);
  await qi.addIndex('activities', ['status', 'programmed_at']);
}

export async function down({ context: qi }: { context: QueryInterface }) {
  await qi.dropTable('activities');
  await qi.dropTable('orders');
  await qi.dropTable('medicines');
}
