import { DataTypes, type QueryInterface } from 'sequelize';

const { INTEGER, STRING, DATE, TEXT } = DataTypes;

/**
 * API clients (issue 37): systems that read the organisation's data through FHIR with SMART
 * Backend Services.
 * - `api_clients`: `client_id` is the organisation, as in every table; `public_id` is the random
 *   client id the system signs its assertions with (`iss` = `sub`), unique across organisations
 *   because the token endpoint finds the client by it alone. Its public keys are a pasted JWKS
 *   (`jwks`, JSON text) or an URL (`jwks_url`); `scopes` a JSON list of SMART v2 system scopes.
 * - `oauth_jtis`: each assertion's `jti` until the assertion expires, so a replay is refused.
 */
export async function up({ context: qi }: { context: QueryInterface }) {
  await qi.createTable('api_clients', {
    id: { type: INTEGER, primaryKey: true, autoIncrement: true },
    client_id: { type: INTEGER, allowNull: false, references: { model: 'clients', key: 'id' }, onDelete: 'CASCADE' },
    public_id: { type: STRING(64), allowNull: false, unique: true },
    name: { type: STRING(100), allowNull: false },
    jwks: { type: TEXT, allowNull: true },
    jwks_url: { type: STRING(500), allowNull: true },
    scopes: { type: TEXT, allowNull: false },
    // active | suspended
    status: { type: STRING(20), allowNull: false, defaultValue: 'active' },
    last_token_at: { type: DATE, allowNull: true },
    created_at: { type: DATE, allowNull: false },
    updated_at: { type: DATE, allowNull: false },
  });
  await qi.addIndex('api_clients', ['client_id', 'name'], { name: 'api_clients_client_name' });
  await qi.createTable('oauth_jtis', {
    id: { type: INTEGER, primaryKey: true, autoIncrement: true },
    api_client_id: { type: INTEGER, allowNull: false, references: { model: 'api_clients', key: 'id' }, onDelete: 'CASCADE' },
    jti: { type: STRING(255), allowNull: false },
    expires_at: { type: DATE, allowNull: false },
  });
  await qi.addIndex('oauth_jtis', ['api_client_id', 'jti'], { unique: true, name: 'oauth_jtis_client_jti' });
  await qi.addIndex('oauth_jtis', ['expires_at'], { name: 'oauth_jtis_expires' });
}

export async function down({ context: qi }: { context: QueryInterface }) {
  await qi.dropTable('oauth_jtis');
  await qi.dropTable('api_clients');
}
