import { DataTypes, type QueryInterface } from 'sequelize';

const { INTEGER, BIGINT, STRING, TEXT, DATE } = DataTypes;

/**
 * Care-team notifications (issue 20).
 * - `notifications`: one row per message sent or tried to a member of staff or a caregiver (one
 *   e-mail, one WhatsApp message); a digest is one row for several alerts.
 * - `notification_items`: what each person must be told, once: one row per (alert, reason, channel,
 *   recipient), unique, so an alert never tells the same person twice on one channel; the message
 *   that carried it is `notification_id` (NULL while waiting to be gathered).
 * - `email_outbox`: the e-mails the local adapter kept (no SMTP_URL), like `sms_outbox`.
 * - `alerts.escalated_at`: the 'Escalada' mark; `clients.escalation_minutes`: the delay (default 30).
 */
export async function up({ context: qi }: { context: QueryInterface }) {
  await qi.createTable('notifications', {
    id: { type: BIGINT, primaryKey: true, autoIncrement: true },
    client_id: { type: INTEGER, allowNull: false, references: { model: 'clients', key: 'id' }, onDelete: 'CASCADE' },
    // email | whatsapp
    channel: { type: STRING(10), allowNull: false },
    // staff | caregiver
    audience: { type: STRING(10), allowNull: false },
    // alert | escalation
    reason: { type: STRING(12), allowNull: false },
    user_id: { type: INTEGER, allowNull: true },
    caregiver_id: { type: INTEGER, allowNull: true },
    recipient: { type: STRING(254), allowNull: false },
    recipient_name: { type: STRING(120), allowNull: true },
    alert_id: { type: INTEGER, allowNull: true },
    patient_id: { type: INTEGER, allowNull: true },
    alert_count: { type: INTEGER, allowNull: false, defaultValue: 1 },
    subject: { type: STRING(200), allowNull: false },
    body: { type: TEXT, allowNull: false },
    // queued → sent | failed
    state: { type: STRING(10), allowNull: false, defaultValue: 'queued' },
    attempts: { type: INTEGER, allowNull: false, defaultValue: 0 },
    error: { type: STRING(300), allowNull: true },
    provider_id: { type: STRING(200), allowNull: true },
    sent_at: { type: DATE, allowNull: true },
    created_at: { type: DATE, allowNull: false },
    updated_at: { type: DATE, allowNull: false },
  });
  await qi.addIndex('notifications', ['client_id', 'created_at', 'id'], { name: 'notifications_client' });
  await qi.addIndex('notifications', ['alert_id'], { name: 'notifications_alert' });

  await qi.createTable('notification_items', {
    id: { type: BIGINT, primaryKey: true, autoIncrement: true },
    client_id: { type: INTEGER, allowNull: false, references: { model: 'clients', key: 'id' }, onDelete: 'CASCADE' },
    alert_id: { type: INTEGER, allowNull: false, references: { model: 'alerts', key: 'id' }, onDelete: 'CASCADE' },
    reason: { type: STRING(12), allowNull: false },
    channel: { type: STRING(10), allowNull: false },
    // 'u<user id>' or 'c<caregiver id>': one column, so the unique index holds without NULLs.
    recipient_key: { type: STRING(20), allowNull: false },
    priority: { type: INTEGER, allowNull: false },
    notification_id: { type: BIGINT, allowNull: true },
    created_at: { type: DATE, allowNull: false },
  });
  await qi.addIndex('notification_items', ['alert_id', 'reason', 'channel', 'recipient_key'], {
    unique: true,
    name: 'notification_items_once',
  });
  await qi.addIndex('notification_items', ['client_id', 'recipient_key', 'channel', 'reason', 'notification_id'], {
    name: 'notification_items_waiting',
  });

  await qi.createTable('email_outbox', {
    id: { type: BIGINT, primaryKey: true, autoIncrement: true },
    to: { type: STRING(254), allowNull: false },
    subject: { type: STRING(200), allowNull: false },
    body: { type: TEXT, allowNull: false },
    created_at: { type: DATE, allowNull: false },
  });

  await qi.addColumn('alerts', 'escalated_at', { type: DATE, allowNull: true });
  await qi.addColumn('clients', 'escalation_minutes', { type: INTEGER, allowNull: false, defaultValue: 30 });
}

export async function down({ context: qi }: { context: QueryInterface }) {
  await qi.removeColumn('clients', 'escalation_minutes');
  await qi.removeColumn('alerts', 'escalated_at');
  for (const t of ['email_outbox', 'notification_items', 'notifications']) await qi.dropTable(t);
}
