import { BOOLEAN, INTEGER, TEXT, type QueryInterface } from 'sequelize';

/**
 * What the care team's messages show of a patient (issue 41): e-mail subjects and WhatsApp
 * previews reach lock screens and shared inboxes. By default the initials and the document's last
 * digits, the value and the priority; the organisation may choose the full name and the rule's
 * name (a rule such as '… en hipertensión' can reveal a condition).
 *
 * `sms_outbox.patient_id`: the patient a code was sent to, so the record names them (several
 * patients of a family may share the number the SMS went to).
 *
 * `notifications.template`: the message as an approved WhatsApp template (JSON: kind and body
 * parameters), sent when no conversation is open (issue 41).
 */
export async function up({ context: qi }: { context: QueryInterface }) {
  await qi.addColumn('clients', 'message_full_name', { type: BOOLEAN, allowNull: false, defaultValue: false });
  await qi.addColumn('clients', 'message_rule_name', { type: BOOLEAN, allowNull: false, defaultValue: false });
  await qi.addColumn('sms_outbox', 'patient_id', { type: INTEGER, allowNull: true });
  await qi.addColumn('notifications', 'template', { type: TEXT, allowNull: true });
}

export async function down({ context: qi }: { context: QueryInterface }) {
  await qi.removeColumn('notifications', 'template');
  await qi.removeColumn('sms_outbox', 'patient_id');
  await qi.removeColumn('clients', 'message_rule_name');
  await qi.removeColumn('clients', 'message_full_name');
}
