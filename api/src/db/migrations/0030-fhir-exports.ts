import { DataTypes, type QueryInterface } from 'sequelize';

const { INTEGER, STRING, DATE, TEXT } = DataTypes;

/**
 * FHIR Bulk Data exports (issue 37). One row per kick-off, by an API client (`api_client_id`) or
 * an administrator (`user_id`), always of one organisation (`client_id`). The job on the durable
 * queue writes NDJSON files under DATA_DIR/fhir-exports/<id>/ and keeps here what a restart needs
 * to go on: `files` (JSON: the files of the types already complete, with their counts), `resources`
 * and `progress`. `transaction_time` is fixed at kick-off: nothing stored after it is exported, so
 * a run resumed after a restart writes what a run without one would have.
 */
export async function up({ context: qi }: { context: QueryInterface }) {
  await qi.createTable('fhir_exports', {
    id: { type: INTEGER, primaryKey: true, autoIncrement: true },
    client_id: { type: INTEGER, allowNull: false, references: { model: 'clients', key: 'id' }, onDelete: 'CASCADE' },
    api_client_id: { type: INTEGER, allowNull: true, references: { model: 'api_clients', key: 'id' }, onDelete: 'CASCADE' },
    user_id: { type: INTEGER, allowNull: true, references: { model: 'users', key: 'id' }, onDelete: 'SET NULL' },
    // system | patient | group
    level: { type: STRING(10), allowNull: false },
    group_id: { type: INTEGER, allowNull: true },
    types: { type: TEXT, allowNull: false },
    since: { type: DATE, allowNull: true },
    // The URL the client asked, as the manifest's `request` repeats it.
    request: { type: TEXT, allowNull: false },
    // queued | running | completed | failed | cancelled | expired
    status: { type: STRING(12), allowNull: false },
    transaction_time: { type: DATE, allowNull: false },
    files: { type: TEXT, allowNull: false, defaultValue: '[]' },
    done_types: { type: TEXT, allowNull: false, defaultValue: '[]' },
    resources: { type: INTEGER, allowNull: false, defaultValue: 0 },
    progress: { type: STRING(200), allowNull: true },
    error: { type: TEXT, allowNull: true },
    created_at: { type: DATE, allowNull: false },
    updated_at: { type: DATE, allowNull: false },
    finished_at: { type: DATE, allowNull: true },
    expires_at: { type: DATE, allowNull: true },
  });
  await qi.addIndex('fhir_exports', ['client_id', 'created_at'], { name: 'fhir_exports_client_created' });
  await qi.addIndex('fhir_exports', ['status', 'expires_at'], { name: 'fhir_exports_status_expires' });
}

export async function down({ context: qi }: { context: QueryInterface }) {
  await qi.dropTable('fhir_exports');
}
