import { DataTypes, type QueryInterface } from 'sequelize';

const { INTEGER, STRING, DATE } = DataTypes;

/**
 * Password recovery and the sessions a user can see (issue 38).
 * - `password_resets`: one row per recovery link sent; only the SHA-256 of the link's token is kept
 *   (a copy of the table opens no account). A link is usable once (`used_at`), for 30 minutes
 *   (`expires_at`), and a newer request voids the older ones (`voided_at`).
 * - `sessions`: the browser (`user_agent`, parsed when listed) and the address the session was
 *   opened from, when it was last used (written at most every few minutes, not on every request),
 *   and why it ended (`ended_reason`), so the next request with its token is told why.
 */
export async function up({ context: qi }: { context: QueryInterface }) {
  await qi.createTable('password_resets', {
    id: { type: INTEGER, primaryKey: true, autoIncrement: true },
    user_id: { type: INTEGER, allowNull: false, references: { model: 'users', key: 'id' }, onDelete: 'CASCADE' },
    client_id: { type: INTEGER, allowNull: false, references: { model: 'clients', key: 'id' }, onDelete: 'CASCADE' },
    token_hash: { type: STRING(64), allowNull: false, unique: true },
    expires_at: { type: DATE, allowNull: false },
    used_at: { type: DATE, allowNull: true },
    voided_at: { type: DATE, allowNull: true },
    ip: { type: STRING(64), allowNull: true },
    created_at: { type: DATE, allowNull: false },
  });
  await qi.addIndex('password_resets', ['user_id'], { name: 'password_resets_user' });
  await qi.addColumn('sessions', 'user_agent', { type: STRING(400), allowNull: true });
  await qi.addColumn('sessions', 'ip', { type: STRING(64), allowNull: true });
  await qi.addColumn('sessions', 'last_used_at', { type: DATE, allowNull: true });
  // sign_out | ended_by_user | ended_by_admin | password_reset (NULL: not ended, or ended before this column)
  await qi.addColumn('sessions', 'ended_reason', { type: STRING(20), allowNull: true });
}

export async function down({ context: qi }: { context: QueryInterface }) {
  for (const column of ['ended_reason', 'last_used_at', 'ip', 'user_agent']) await qi.removeColumn('sessions', column);
  await qi.dropTable('password_resets');
}
