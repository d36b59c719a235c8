import { DataTypes, type QueryInterface } from 'sequelize';

/**
 * Messaging with patients and the AI assistant.
 * - `messages`: the chat of 01 §2 (incoming and outgoing, text, templates, image and audio
 *   attachments) plus messages from numbers that match no patient (patient_id NULL, kept, not dropped).
 * - `patient_messaging`: the per-patient messaging info (sme_enabled, sme_id, sme_metadata).
 * - `assistant_actions`: what the assistant's tool calls already did, so a retried reply never
 *   records a measurement, alert or note twice.
 */
const { INTEGER, BIGINT, STRING, TEXT, BOOLEAN, DATE, JSON: JSONT } = DataTypes;

export async function up({ context: qi }: { context: QueryInterface }) {
  await qi.createTable('messages', {
    id: { type: BIGINT, primaryKey: true, autoIncrement: true },
    client_id: { type: INTEGER, allowNull: false },
    patient_id: { type: INTEGER, allowNull: true },
    // incoming (from the patient) | outgoing (to the patient)
    message_type: { type: STRING(10), allowNull: false },
    // Written by a person (patient or staff); false for the assistant and automatic messages.
    author_human: { type: BOOLEAN, allowNull: false, defaultValue: true },
    ai: { type: BOOLEAN, allowNull: false, defaultValue: false },
    // welcome | reminder | alarm | assistant | staff | patient
    reason: { type: STRING(12), allowNull: false },
    user_id: { type: INTEGER, allowNull: true },
    phone: { type: STRING(20), allowNull: true },
    body: { type: TEXT, allowNull: true },
    template: { type: STRING(80), allowNull: true },
    elements: { type: JSONT, allowNull: true },
    // queued → sent → delivered → read | failed; received for incoming
    status: { type: STRING(10), allowNull: false },
    error: { type: TEXT, allowNull: true },
    attempts: { type: INTEGER, allowNull: false, defaultValue: 0 },
    provider_id: { type: STRING(120), allowNull: true },
    activity_id: { type: INTEGER, allowNull: true },
    reply_to_id: { type: BIGINT, allowNull: true },
    alert_id: { type: INTEGER, allowNull: true },
    attachment_kind: { type: STRING(8), allowNull: true },
    attachment_media_id: { type: STRING(200), allowNull: true },
    attachment_path: { type: STRING(300), allowNull: true },
    attachment_filename: { type: STRING(200), allowNull: true },
    attachment_mime: { type: STRING(100), allowNull: true },
    attachment_byte_size: { type: INTEGER, allowNull: true },
    transcription: { type: TEXT, allowNull: true },
    created_at: { type: DATE, allowNull: false },
    updated_at: { type: DATE, allowNull: false },
  });
  // The chat page: one patient's messages, newest first.
  await qi.addIndex('messages', ['client_id', 'patient_id', 'created_at', 'id'], { name: 'messages_patient_chat' });
  await qi.addIndex('messages', ['provider_id'], { name: 'messages_provider_id', unique: true });
  await qi.addIndex('messages', ['client_id', 'phone', 'created_at'], { name: 'messages_phone' });
  await qi.addIndex('messages', ['reply_to_id'], { name: 'messages_reply_to' });
  await qi.addIndex('messages', ['alert_id'], { name: 'messages_alert' });

  await qi.createTable('patient_messaging', {
    patient_id: { type: INTEGER, primaryKey: true },
    client_id: { type: INTEGER, allowNull: false },
    sme_enabled: { type: BOOLEAN, allowNull: false, defaultValue: true },
    sme_id: { type: STRING(40), allowNull: true },
    sme_metadata: { type: JSONT, allowNull: true },
    created_at: { type: DATE, allowNull: false },
    updated_at: { type: DATE, allowNull: false },
  });
  await qi.addIndex('patient_messaging', ['client_id', 'sme_id'], { name: 'patient_messaging_sme_id' });

  await qi.createTable('assistant_actions', {
    id: { type: BIGINT, primaryKey: true, autoIncrement: true },
    client_id: { type: INTEGER, allowNull: false },
    message_id: { type: BIGINT, allowNull: false },
    action_key: { type: STRING(200), allowNull: false },
    result: { type: TEXT, allowNull: true },
    created_at: { type: DATE, allowNull: false },
  });
  await qi.addIndex('assistant_actions', ['message_id', 'action_key'], { name: 'assistant_actions_once', unique: true });
  // An inbound message finds its patient by phone number within the client.
  await qi.addIndex('patients', ['client_id', 'cellphone'], { name: 'patients_client_cellphone' });
}

export async function down({ context: qi }: { context: QueryInterface }) {
  await qi.removeIndex('patients', 'patients_client_cellphone');
  await qi.dropTable('assistant_actions');
  await qi.dropTable('patient_messaging');
  await qi.dropTable('messages');
}
