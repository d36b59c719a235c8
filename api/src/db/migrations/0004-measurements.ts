import { DataTypes, type QueryInterface } from 'sequelize';

/**
 * Measurements: device gateways with their hashed secrets, the device's own reading id (so a
 * retried batch is stored once), and the indexes the charts, lists and exports read by.
 */
export async function up({ context: qi }: { context: QueryInterface }) {
  const { INTEGER, STRING, BOOLEAN, DATE } = DataTypes;
  await qi.createTable('devices', {
    id: { type: INTEGER, primaryKey: true, autoIncrement: true },
    client_id: { type: INTEGER, allowNull: false, references: { model: 'clients', key: 'id' } },
    // The gateway's card number is a physical serial: one device per card in the whole installation,
    // since the ingestion URL names the card and nothing else.
    card_id: { type: STRING(64), allowNull: false, unique: true },
    multipatient: { type: BOOLEAN, allowNull: false, defaultValue: false },
    name: { type: STRING(80), allowNull: true },
    secret_hash: { type: STRING(64), allowNull: false },
    secret_rotated_at: { type: DATE, allowNull: false },
    last_seen_at: { type: DATE, allowNull: true },
    created_at: { type: DATE, allowNull: false },
    updated_at: { type: DATE, allowNull: false },
  });
  await qi.addIndex('devices', ['client_id', 'card_id'], { name: 'devices_client_card' });

  await qi.addColumn('measurements', 'device_id', { type: INTEGER, allowNull: true });
  await qi.addColumn('measurements', 'reading_id', { type: STRING(64), allowNull: true });
  // NULL reading ids never collide (both databases treat NULLs as distinct), so only device readings
  // that carry an id are deduplicated. Blood pressure stores two rows under one reading id.
  await qi.addIndex('measurements', ['device_id', 'reading_id', 'clinical_element'], { unique: true, name: 'measurements_device_reading' });
  // Exports and all-element lists walk one patient's readings by time (keyset on when, id).
  await qi.addIndex('measurements', ['patient_id', 'when', 'id'], { name: 'measurements_patient_when' });
  // Patient lookups by gateway card (single- and multi-patient), scoped to the client.
  await qi.addIndex('patients', ['client_id', 'card_id'], { name: 'patients_client_card' });
  await qi.addIndex('patients', ['client_id', 'multipatient_card_id'], { name: 'patients_client_multicard' });
}

export async function down({ context: qi }: { context: QueryInterface }) {
  await qi.removeIndex('patients', 'patients_client_multicard');
  await qi.removeIndex('patients', 'patients_client_card');
  await qi.removeIndex('measurements', 'measurements_patient_when');
  await qi.removeIndex('measurements', 'measurements_device_reading');
  await qi.removeColumn('measurements', 'reading_id');
  await qi.removeColumn('measurements', 'device_id');
  await qi.dropTable('devices');
}
