import { DataTypes, type QueryInterface } from 'sequelize';

const { INTEGER, STRING, DATE, TEXT } = DataTypes;

/**
 * The second factor (issue 38, second half).
 * - `user_totps`: one authenticator app per user; its key AES-256-GCM encrypted with a key derived
 *   from the server's secret (never returned once confirmed); `confirmed_at` NULL while pending;
 *   `last_step` is the 30 s step of the last code accepted, so a code is refused in its own step again.
 * - `user_passkeys`: WebAuthn credentials (public key, signature counter, a name each).
 * - `user_recovery_codes`: ten one-use codes per enrolment, only their keyed hash (HMAC-SHA256) kept.
 * - `sign_in_tokens`: the 5-minute intermediate token between the password and the second factor
 *   (usable once), with the pending WebAuthn challenge of the sign-in or enrolment.
 * - `webauthn_challenges`: a signed-in user's registration challenge (5 minutes, once).
 * - `clients.second_factor_roles`: the roles that must have a factor (JSON list; '[]' = none).
 */
export async function up({ context: qi }: { context: QueryInterface }) {
  const user = { type: INTEGER, allowNull: false, references: { model: 'users', key: 'id' }, onDelete: 'CASCADE' } as const;
  const client = { type: INTEGER, allowNull: false, references: { model: 'clients', key: 'id' }, onDelete: 'CASCADE' } as const;
  await qi.createTable('user_totps', {
    user_id: { ...user, primaryKey: true },
    client_id: client,
    secret_enc: { type: STRING(200), allowNull: false },
    confirmed_at: { type: DATE, allowNull: true },
    last_step: { type: INTEGER, allowNull: true },
    created_at: { type: DATE, allowNull: false },
  });
  await qi.createTable('user_passkeys', {
    id: { type: INTEGER, primaryKey: true, autoIncrement: true },
    user_id: user,
    client_id: client,
    credential_id: { type: STRING(1400), allowNull: false, unique: true },
    public_key: { type: TEXT, allowNull: false },
    counter: { type: INTEGER, allowNull: false, defaultValue: 0 },
    transports: { type: STRING(200), allowNull: true },
    name: { type: STRING(60), allowNull: false },
    created_at: { type: DATE, allowNull: false },
    last_used_at: { type: DATE, allowNull: true },
  });
  await qi.addIndex('user_passkeys', ['user_id'], { name: 'user_passkeys_user' });
  await qi.createTable('user_recovery_codes', {
    id: { type: INTEGER, primaryKey: true, autoIncrement: true },
    user_id: user,
    client_id: client,
    code_hash: { type: STRING(64), allowNull: false },
    used_at: { type: DATE, allowNull: true },
    created_at: { type: DATE, allowNull: false },
  });
  await qi.addIndex('user_recovery_codes', ['user_id'], { name: 'user_recovery_codes_user' });
  await qi.createTable('sign_in_tokens', {
    id: { type: STRING(64), primaryKey: true },
    user_id: user,
    client_id: client,
    // second_factor | enrolment
    step: { type: STRING(20), allowNull: false },
    expires_at: { type: DATE, allowNull: false },
    used_at: { type: DATE, allowNull: true },
    challenge: { type: STRING(200), allowNull: true },
    challenge_expires_at: { type: DATE, allowNull: true },
    created_at: { type: DATE, allowNull: false },
  });
  await qi.createTable('webauthn_challenges', {
    id: { type: INTEGER, primaryKey: true, autoIncrement: true },
    user_id: user,
    client_id: client,
    challenge: { type: STRING(200), allowNull: false },
    expires_at: { type: DATE, allowNull: false },
    used_at: { type: DATE, allowNull: true },
    created_at: { type: DATE, allowNull: false },
  });
  await qi.addIndex('webauthn_challenges', ['user_id'], { name: 'webauthn_challenges_user' });
  await qi.addColumn('clients', 'second_factor_roles', { type: STRING(100), allowNull: false, defaultValue: '[]' });
}

export async function down({ context: qi }: { context: QueryInterface }) {
  await qi.removeColumn('clients', 'second_factor_roles');
  for (const t of ['webauthn_challenges', 'sign_in_tokens', 'user_recovery_codes', 'user_passkeys', 'user_totps']) await qi.dropTable(t);
}
