import { DataTypes, type QueryInterface } from 'sequelize';

/**
 * Inventory (supplies, stocks/batches, moves) and encounters (vaccination and generic) with their
 * observations. Users already exist (0001). Every list index starts with client_id.
 */
const { INTEGER, STRING, TEXT, BOOLEAN, DATE, DATEONLY, JSON: JSONT } = DataTypes;
const id = { type: INTEGER, primaryKey: true, autoIncrement: true };
const client = { type: INTEGER, allowNull: false, references: { model: 'clients', key: 'id' } };
const stamps = {
  created_at: { type: DATE, allowNull: false },
  updated_at: { type: DATE, allowNull: false },
};

export async function up({ context: qi }: { context: QueryInterface }) {
  await qi.createTable('supplies', {
    id,
    client_id: client,
    type: { type: STRING(20), allowNull: false },
    tradename: { type: STRING(120), allowNull: false },
    generic_name: { type: STRING(120), allowNull: true },
    invima_register: { type: STRING(60), allowNull: true },
    date_register: { type: DATEONLY, allowNull: true },
    active: { type: BOOLEAN, allowNull: false, defaultValue: true },
    ...stamps,
  });
  await qi.addIndex('supplies', ['client_id', 'type', 'tradename']);

  await qi.createTable('stocks', {
    id,
    client_id: client,
    serial: { type: STRING(16), allowNull: false },
    type: { type: STRING(20), allowNull: false },
    medical_supply_id: { type: INTEGER, allowNull: true, references: { model: 'supplies', key: 'id' } },
    expiration_date: { type: DATEONLY, allowNull: false },
    cuantity: { type: INTEGER, allowNull: false, defaultValue: 0 },
    active: { type: BOOLEAN, allowNull: false, defaultValue: true },
    batch: { type: BOOLEAN, allowNull: false, defaultValue: true },
    ...stamps,
  });
  await qi.addIndex('stocks', ['client_id', 'serial'], { unique: true });
  await qi.addIndex('stocks', ['client_id', 'medical_supply_id', 'expiration_date']);
  await qi.addIndex('stocks', ['client_id', 'expiration_date']);

  await qi.createTable('moves', {
    id,
    client_id: client,
    stock_id: { type: INTEGER, allowNull: false, references: { model: 'stocks', key: 'id' } },
    type: { type: STRING(20), allowNull: false },
    amount: { type: INTEGER, allowNull: false },
    notes: { type: STRING(400), allowNull: true },
    author: { type: INTEGER, allowNull: true, references: { model: 'users', key: 'id' } },
    encounter_id: { type: INTEGER, allowNull: true },
    created_at: { type: DATE, allowNull: false },
  });
  await qi.addIndex('moves', ['client_id', 'created_at']);
  await qi.addIndex('moves', ['stock_id', 'created_at']);

  await qi.createTable('encounters', {
    id,
    client_id: client,
    patient_id: { type: INTEGER, allowNull: false, references: { model: 'patients', key: 'id' } },
    kind: { type: STRING(20), allowNull: false },
    status: { type: STRING(20), allowNull: false },
    checkout: { type: DATE, allowNull: true },
    responsible: { type: INTEGER, allowNull: true, references: { model: 'users', key: 'id' } },
    created_by: { type: INTEGER, allowNull: true, references: { model: 'users', key: 'id' } },
    medication_id: { type: INTEGER, allowNull: true, references: { model: 'supplies', key: 'id' } },
    stock_id: { type: INTEGER, allowNull: true, references: { model: 'stocks', key: 'id' } },
    dose: { type: STRING(30), allowNull: true },
    management: { type: STRING(400), allowNull: true },
    vaccination_card: { type: BOOLEAN, allowNull: true },
    observations: { type: TEXT, allowNull: true },
    dispositivo: { type: STRING(120), allowNull: true },
    ...stamps,
  });
  await qi.addIndex('encounters', ['client_id', 'patient_id', 'created_at']);
  await qi.addIndex('encounters', ['stock_id', 'checkout']);

  await qi.createTable('encounter_observations', {
    id,
    client_id: client,
    encounter_id: { type: INTEGER, allowNull: false, references: { model: 'encounters', key: 'id' }, onDelete: 'CASCADE' },
    patient_id: { type: INTEGER, allowNull: false, references: { model: 'patients', key: 'id' } },
    clinical_element: { type: INTEGER, allowNull: false },
    date: { type: DATE, allowNull: false },
    source: { type: STRING(20), allowNull: false, defaultValue: 'staff' },
    value: { type: TEXT, allowNull: false },
    logs_obs: { type: JSONT, allowNull: false, defaultValue: [] },
    ...stamps,
  });
  await qi.addIndex('encounter_observations', ['encounter_id', 'clinical_element'], { unique: true });
  await qi.addIndex('encounter_observations', ['client_id', 'patient_id', 'date']);
}

export async function down({ context: qi }: { context: QueryInterface }) {
  for (const t of ['encounter_observations', 'encounters', 'moves', 'stocks', 'supplies']) await qi.dropTable(t);
}
