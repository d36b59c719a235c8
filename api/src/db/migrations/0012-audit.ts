import { DataTypes, type QueryInterface } from 'sequelize';

const { INTEGER, BIGINT, STRING, TEXT, DATE, SMALLINT } = DataTypes;

/**
 * The audit trail (issue 8): one row per successful staff or patient change and per sign-in,
 * written once after the response by the recorder middleware; never updated or deleted by the product.
 */
export async function up({ context: qi }: { context: QueryInterface }) {
  await qi.createTable('audit_events', {
    id: { type: BIGINT, primaryKey: true, autoIncrement: true },
    client_id: { type: INTEGER, allowNull: false, references: { model: 'clients', key: 'id' }, onDelete: 'CASCADE' },
    // Kept when the user is later removed: the trail outlives the account.
    user_id: { type: INTEGER, allowNull: true },
    // staff | patient | device | system
    actor_kind: { type: STRING(10), allowNull: false },
    // create | update | delete | close | sign_in | sign_in_failed | sign_out | ...
    action: { type: STRING(24), allowNull: false },
    // patient | alert | order | alarm | tag | user | settings | webhook | ...
    resource: { type: STRING(32), allowNull: false },
    resource_id: { type: STRING(64), allowNull: true },
    patient_id: { type: INTEGER, allowNull: true },
    summary: { type: STRING(300), allowNull: false },
    // JSON of the fields sent and their new values; secrets replaced by '••••', long values cut.
    changes: { type: TEXT, allowNull: true },
    method: { type: STRING(8), allowNull: false },
    // The route pattern ('/patients/:id/alerts/:alertId'), never the raw URL with its query.
    path: { type: STRING(200), allowNull: false },
    status: { type: SMALLINT, allowNull: false },
    ip: { type: STRING(64), allowNull: true },
    created_at: { type: DATE, allowNull: false },
  });
  // The 'Auditoría' page: this client's events between two dates; the patient tab: one patient's.
  await qi.addIndex('audit_events', ['client_id', 'created_at'], { name: 'audit_events_client_date' });
  await qi.addIndex('audit_events', ['client_id', 'patient_id', 'created_at'], { name: 'audit_events_client_patient_date' });
}

export async function down({ context: qi }: { context: QueryInterface }) {
  await qi.dropTable('audit_events');
}
