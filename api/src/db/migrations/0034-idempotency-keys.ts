import { DataTypes, type QueryInterface } from 'sequelize';

const { INTEGER, STRING, DATE, TEXT, SMALLINT } = DataTypes;

/**
 * Idempotency keys (issue 50): a nurse's phone that loses the answer to a write sends it again with
 * the same `Idempotency-Key`, and the API answers what it answered the first time instead of writing
 * twice. One row per key of a user of an organisation; the unique index is what decides, on both
 * databases, which of two requests sent together with one key does the work (the other finds the row).
 * `request_hash` is the method, path and body the key was first used with; `status` and `body` are
 * the stored answer, null while the first request is still running (since `started_at`).
 */
export async function up({ context: qi }: { context: QueryInterface }) {
  await qi.createTable('idempotency_keys', {
    id: { type: INTEGER, primaryKey: true, autoIncrement: true },
    client_id: { type: INTEGER, allowNull: false, references: { model: 'clients', key: 'id' }, onDelete: 'CASCADE' },
    user_id: { type: INTEGER, allowNull: false, references: { model: 'users', key: 'id' }, onDelete: 'CASCADE' },
    key: { type: STRING(64), allowNull: false },
    request_hash: { type: STRING(64), allowNull: false },
    status: { type: SMALLINT, allowNull: true },
    body: { type: TEXT, allowNull: true },
    started_at: { type: DATE, allowNull: false },
    expires_at: { type: DATE, allowNull: false },
  });
  await qi.addIndex('idempotency_keys', ['client_id', 'user_id', 'key'], { unique: true, name: 'idempotency_keys_owner_key' });
  await qi.addIndex('idempotency_keys', ['expires_at'], { name: 'idempotency_keys_expires' });
}

export async function down({ context: qi }: { context: QueryInterface }) {
  await qi.dropTable('idempotency_keys');
}
