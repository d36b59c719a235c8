import { DataTypes, type QueryInterface } from 'sequelize';

const { INTEGER, STRING, DATE, TEXT, BOOLEAN } = DataTypes;

/**
 * The RDA documents (Resolución 1888 de 2025, issue 51) and each organisation's connection to the
 * Ministry's platform (IHCE).
 * - `rdas`: one row per document version as built, kept verbatim (`bundle`), so what is read back,
 *   exported or resent is exactly what was (or will be) sent. `identifier` is the Bundle's
 *   identifier, unique: the send job is keyed by it, so a document is never sent twice in parallel
 *   and a resend after a crash carries the same identifier. `outcome` holds the Ministry's
 *   OperationOutcome issues of a refusal; `status_reason` why it is not sent yet.
 * - `ihce_settings`: one row per organisation; the client secret and the subscription key are
 *   sealed (AES-256-GCM under a key derived from the server's secret), never answered by any GET.
 */
export async function up({ context: qi }: { context: QueryInterface }) {
  await qi.createTable('rdas', {
    id: { type: INTEGER, primaryKey: true, autoIncrement: true },
    client_id: { type: INTEGER, allowNull: false, references: { model: 'clients', key: 'id' }, onDelete: 'CASCADE' },
    patient_id: { type: INTEGER, allowNull: false, references: { model: 'patients', key: 'id' }, onDelete: 'CASCADE' },
    encounter_id: { type: INTEGER, allowNull: true },
    // consulta | paciente
    kind: { type: STRING(10), allowNull: false },
    identifier: { type: STRING(36), allowNull: false, unique: true },
    version: { type: INTEGER, allowNull: false, defaultValue: 1 },
    replaces_id: { type: INTEGER, allowNull: true },
    bundle: { type: TEXT, allowNull: false },
    // sin_enviar | pendiente | enviado | rechazado | corregido (openapi.yaml RdaStatus)
    status: { type: STRING(12), allowNull: false },
    status_reason: { type: STRING(300), allowNull: true },
    outcome: { type: TEXT, allowNull: true },
    remote_id: { type: STRING(200), allowNull: true },
    attempts: { type: INTEGER, allowNull: false, defaultValue: 0 },
    next_attempt_at: { type: DATE, allowNull: true },
    sent_at: { type: DATE, allowNull: true },
    created_at: { type: DATE, allowNull: false },
    updated_at: { type: DATE, allowNull: false },
  });
  await qi.addIndex('rdas', ['client_id', 'id'], { name: 'rdas_client_id' });
  await qi.addIndex('rdas', ['client_id', 'status', 'id'], { name: 'rdas_client_status' });
  await qi.addIndex('rdas', ['client_id', 'patient_id', 'id'], { name: 'rdas_client_patient' });

  await qi.createTable('ihce_settings', {
    client_id: { type: INTEGER, primaryKey: true, references: { model: 'clients', key: 'id' }, onDelete: 'CASCADE' },
    enabled: { type: BOOLEAN, allowNull: false, defaultValue: false },
    token_url: { type: STRING(500), allowNull: true },
    base_url: { type: STRING(500), allowNull: true },
    oauth_client_id: { type: STRING(200), allowNull: true },
    client_secret_enc: { type: TEXT, allowNull: true },
    subscription_key_enc: { type: TEXT, allowNull: true },
    scope: { type: STRING(500), allowNull: true },
    created_at: { type: DATE, allowNull: false },
    updated_at: { type: DATE, allowNull: false },
  });
}

export async function down({ context: qi }: { context: QueryInterface }) {
  await qi.dropTable('ihce_settings');
  await qi.dropTable('rdas');
}
