import { DataTypes, type QueryInterface } from 'sequelize';

const { INTEGER, BIGINT, STRING, TEXT, DATE } = DataTypes;

/**
 * FHIR webhook deliveries (D19) and their attempt log, the webhook's failure streak and off-switch
 * reason on the client, and the pending single sign-on requests (state, PKCE verifier, nonce).
 */
export async function up({ context: qi }: { context: QueryInterface }) {
  await qi.addColumn('clients', 'webhook_failures', { type: INTEGER, allowNull: false, defaultValue: 0 });
  await qi.addColumn('clients', 'webhook_failing_since', { type: DATE, allowNull: true });
  await qi.addColumn('clients', 'webhook_disabled_at', { type: DATE, allowNull: true });
  await qi.addColumn('clients', 'webhook_disabled_reason', { type: STRING(300), allowNull: true });

  await qi.createTable('webhook_deliveries', {
    id: { type: BIGINT, primaryKey: true, autoIncrement: true },
    client_id: { type: INTEGER, allowNull: false, references: { model: 'clients', key: 'id' }, onDelete: 'CASCADE' },
    patient_id: { type: INTEGER, allowNull: true },
    // measurement | alert | test
    event_type: { type: STRING(16), allowNull: false },
    // 'measurement:12' / 'measurement:12,13' (blood-pressure panel) / 'alert:7': one delivery per event.
    event_key: { type: STRING(80), allowNull: false },
    // The Standard Webhooks `webhook-id`: stable across retries and resends, so a receiver dedupes.
    webhook_id: { type: STRING(40), allowNull: false, unique: true },
    resource_type: { type: STRING(40), allowNull: false },
    payload: { type: TEXT, allowNull: false },
    // pending → sending → delivered | failed (and back to pending for a retry or a resend)
    status: { type: STRING(10), allowNull: false, defaultValue: 'pending' },
    attempts: { type: INTEGER, allowNull: false, defaultValue: 0 },
    resends: { type: INTEGER, allowNull: false, defaultValue: 0 },
    last_status_code: { type: INTEGER, allowNull: true },
    last_error: { type: STRING(300), allowNull: true },
    locked_until: { type: DATE, allowNull: true },
    delivered_at: { type: DATE, allowNull: true },
    created_at: { type: DATE, allowNull: false },
    updated_at: { type: DATE, allowNull: false },
  });
  await qi.addIndex('webhook_deliveries', ['client_id', 'event_key'], { unique: true, name: 'webhook_deliveries_event' });
  // The delivery log, newest first, optionally by status.
  await qi.addIndex('webhook_deliveries', ['client_id', 'id'], { name: 'webhook_deliveries_client' });
  await qi.addIndex('webhook_deliveries', ['client_id', 'status', 'id'], { name: 'webhook_deliveries_client_status' });
  // In-order delivery per patient: "is an earlier one of this patient still pending?"
  await qi.addIndex('webhook_deliveries', ['patient_id', 'status', 'id'], { name: 'webhook_deliveries_patient_status' });

  await qi.createTable('webhook_attempts', {
    id: { type: BIGINT, primaryKey: true, autoIncrement: true },
    delivery_id: { type: BIGINT, allowNull: false, references: { model: 'webhook_deliveries', key: 'id' }, onDelete: 'CASCADE' },
    client_id: { type: INTEGER, allowNull: false },
    url: { type: STRING(500), allowNull: false },
    status_code: { type: INTEGER, allowNull: true },
    error: { type: STRING(300), allowNull: true },
    duration_ms: { type: INTEGER, allowNull: false },
    created_at: { type: DATE, allowNull: false },
  });
  await qi.addIndex('webhook_attempts', ['delivery_id', 'id'], { name: 'webhook_attempts_delivery' });

  await qi.createTable('sso_requests', {
    // SHA-256 of the `state` sent to the identity provider.
    state_hash: { type: STRING(64), primaryKey: true },
    code_verifier: { type: STRING(128), allowNull: false },
    nonce: { type: STRING(128), allowNull: false },
    expires_at: { type: DATE, allowNull: false },
    created_at: { type: DATE, allowNull: false },
  });
  await qi.addIndex('sso_requests', ['expires_at'], { name: 'sso_requests_expiry' });
}

export async function down({ context: qi }: { context: QueryInterface }) {
  await qi.dropTable('sso_requests');
  await qi.dropTable('webhook_attempts');
  await qi.dropTable('webhook_deliveries');
  for (const c of ['webhook_disabled_reason', 'webhook_disabled_at', 'webhook_failing_since', 'webhook_failures'])
    await qi.removeColumn('clients', c);
}
