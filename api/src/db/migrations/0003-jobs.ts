import { DataTypes, type QueryInterface } from 'sequelize';

/**
 * Durable background jobs (scheduler ticks, webhook deliveries, outbound messages). A job is a row:
 * it survives a restart, and `key` makes enqueueing idempotent (the same event is queued once).
 */
export async function up({ context: qi }: { context: QueryInterface }) {
  await qi.createTable('jobs', {
    id: { type: DataTypes.BIGINT, autoIncrement: true, primaryKey: true },
    kind: { type: DataTypes.STRING(60), allowNull: false },
    key: { type: DataTypes.STRING(200), allowNull: true, unique: true },
    client_id: { type: DataTypes.INTEGER, allowNull: true },
    payload: { type: DataTypes.TEXT, allowNull: false },
    // pending → running → done | failed (and back to pending for a retry)
    status: { type: DataTypes.STRING(10), allowNull: false, defaultValue: 'pending' },
    run_at: { type: DataTypes.DATE, allowNull: false },
    attempts: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
    max_attempts: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 8 },
    locked_until: { type: DataTypes.DATE, allowNull: true },
    last_error: { type: DataTypes.TEXT, allowNull: true },
    created_at: { type: DataTypes.DATE, allowNull: false },
    updated_at: { type: DataTypes.DATE, allowNull: false },
  });
  await qi.addIndex('jobs', ['status', 'run_at'], { name: 'jobs_due' });
  await qi.addIndex('jobs', ['kind', 'client_id'], { name: 'jobs_kind_client' });
}

export async function down({ context: qi }: { context: QueryInterface }) {
  await qi.dropTable('jobs');
}
