import { DataTypes, type QueryInterface } from 'sequelize';

/** One row per patient status change (who, when, from, to): the status-changes report and the patient's history. */
export async function up({ context: qi }: { context: QueryInterface }) {
  await qi.createTable('patient_status_changes', {
    id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
    patient_id: { type: DataTypes.INTEGER, allowNull: false, references: { model: 'patients', key: 'id' }, onDelete: 'CASCADE' },
    client_id: { type: DataTypes.INTEGER, allowNull: false, references: { model: 'clients', key: 'id' }, onDelete: 'CASCADE' },
    from_status: { type: DataTypes.SMALLINT, allowNull: false },
    to_status: { type: DataTypes.SMALLINT, allowNull: false },
    user_id: { type: DataTypes.INTEGER, allowNull: true, references: { model: 'users', key: 'id' }, onDelete: 'SET NULL' },
    created_at: { type: DataTypes.DATE, allowNull: false },
  });
  // The reports page asks "this client's changes between two dates"; the patient's history by patient.
  await qi.addIndex('patient_status_changes', ['client_id', 'created_at'], { name: 'patient_status_changes_client_date' });
  await qi.addIndex('patient_status_changes', ['patient_id', 'created_at'], { name: 'patient_status_changes_patient_date' });
}

export async function down({ context: qi }: { context: QueryInterface }) {
  await qi.dropTable('patient_status_changes');
}
