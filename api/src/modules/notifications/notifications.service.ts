import type { Sequelize } from 'sequelize';
import { select } from '../../db/sql.js';
import { filterSql, sortSql, type ListFields, type ListParams } from '../../http/list-params.js';
import { notFound } from '../../http/errors.js';
import type { components } from '@vigia/contract/openapi';
import { initialsOf, maskDigits, maskRecipient, patientLabel } from './notifications.rules.js';
import { PREFERENCE_FLAGS, writeNotificationPreferences } from '../users/users.preferences.js';

type NotificationRecord = components['schemas']['NotificationRecord'];
type MyNotifications = components['schemas']['MyNotifications'];
type MyNotificationsInput = components['schemas']['MyNotificationsInput'];

/** The record's filters and sort (the contract declares the same parameters). */
export const NOTIFICATION_FIELDS: ListFields = {
  channel: { column: 'x.channel', kind: 'enum', operators: ['eq'] },
  reason: { column: 'x.reason', kind: 'enum', operators: ['eq'] },
  audience: { column: 'x.audience', kind: 'enum', operators: ['eq'] },
  state: { column: 'x.state', kind: 'enum', operators: ['eq'] },
  alert_id: { column: 'x.alert_id', kind: 'integer', operators: ['eq'] },
  created_at: { column: 'x.created_at', kind: 'datetime', sort: true },
};

/**
 * Every message the product sent or tried for one client (issue 20), from the three places that
 * keep them: the care-team notifications, the messages to patients (reminders, welcome, chat,
 * alarm messages) and the SMS outbox (one-time codes). Values the branches lack are typed NULLs,
 * so PostgreSQL can unite them.
 */
const RECORD = `
  SELECT 'n' || CAST(n.id AS TEXT) AS id, n.channel, n.recipient, n.recipient_name, n.audience, n.reason, n.state, n.alert_id, n.patient_id,
         n.alert_count, n.subject AS summary, n.error, n.attempts, n.created_at, n.sent_at, n.id AS source_id
  FROM notifications n WHERE n.client_id = :clientId
  UNION ALL
  SELECT 'm' || CAST(m.id AS TEXT), 'whatsapp', COALESCE(m.phone, ''), CASE WHEN p.id IS NULL THEN NULL ELSE p.first_name || ' ' || p.last_name END, 'patient',
         CASE m.reason WHEN 'reminder' THEN 'reminder' WHEN 'welcome' THEN 'welcome' WHEN 'alarm' THEN 'alert' ELSE 'chat' END,
         CASE m.status WHEN 'queued' THEN 'queued' WHEN 'failed' THEN 'failed' ELSE 'sent' END,
         m.alert_id, m.patient_id, CASE WHEN m.alert_id IS NULL THEN 0 ELSE 1 END, SUBSTR(COALESCE(m.body, m.template, ''), 1, 160), m.error, m.attempts,
         m.created_at, CASE WHEN m.status IN ('sent', 'delivered', 'read') THEN m.updated_at END, m.id
  FROM messages m LEFT JOIN patients p ON p.id = m.patient_id WHERE m.client_id = :clientId AND m.message_type = 'outgoing'
  UNION ALL
  SELECT 's' || CAST(s.id AS TEXT), 'sms', s."to", CAST(NULL AS TEXT), 'patient', 'otp',
         CASE s.status WHEN 'queued' THEN 'queued' WHEN 'failed' THEN 'failed' ELSE 'sent' END,
         CAST(NULL AS INTEGER), s.patient_id, 0, SUBSTR(s.body, 1, 160), CAST(NULL AS TEXT), 1, s.created_at,
         CASE WHEN s.status = 'sent' THEN s.created_at END, s.id
  FROM sms_outbox s WHERE s.client_id = :clientId`;

interface RecordRow {
  id: string;
  channel: NotificationRecord['channel'];
  recipient: string;
  recipient_name: string | null;
  audience: NotificationRecord['audience'];
  reason: NotificationRecord['reason'];
  state: NotificationRecord['state'];
  alert_id: number | null;
  patient_id: number | null;
  alert_count: number;
  summary: string;
  error: string | null;
  attempts: number;
  created_at: string | Date;
  sent_at: string | Date | null;
}

/** The one place a record row becomes the contract's NotificationRecord: the recipient masked, a code's digits hidden. */
function toRecord(r: RecordRow): NotificationRecord {
  return {
    id: r.id,
    channel: r.channel,
    recipient: maskRecipient(r.channel, r.recipient),
    recipient_name: r.recipient_name,
    audience: r.audience,
    reason: r.reason,
    state: r.state,
    alert_id: r.alert_id == null ? null : Number(r.alert_id),
    patient_id: r.patient_id == null ? null : Number(r.patient_id),
    alert_count: Number(r.alert_count),
    summary: r.reason === 'otp' ? maskDigits(r.summary ?? '') : (r.summary ?? ''),
    error: r.error,
    attempts: Number(r.attempts),
    created_at: new Date(r.created_at).toISOString(),
    sent_at: r.sent_at ? new Date(r.sent_at).toISOString() : null,
  };
}

export async function listNotifications(sequelize: Sequelize, clientId: number, p: ListParams) {
  const params: Record<string, unknown> = { clientId, limit: p.limit, offset: p.offset };
  const where = filterSql(p.filters, params);
  const cond = where.length ? `WHERE ${where.join(' AND ')}` : '';
  const rows = await select<RecordRow>(
    sequelize,
    `SELECT x.* FROM (${RECORD}) x ${cond} ORDER BY ${sortSql(p, 'x.created_at DESC', 'x.source_id DESC')} LIMIT :limit OFFSET :offset`,
    params,
  );
  const [{ n }] = await select<{ n: number }>(sequelize, `SELECT COUNT(*) AS n FROM (${RECORD}) x ${cond}`, params);
  await nameCodeRecipients(sequelize, clientId, rows);
  return { rows: rows.map(toRecord), total: Number(n) };
}

/**
 * A code's SMS names its patient (found by the number it went to), as the organisation's messages
 * name patients: initials and document ending unless it chose the full name (issue 41).
 */
async function nameCodeRecipients(sequelize: Sequelize, clientId: number, rows: RecordRow[]) {
  const ids = [...new Set(rows.filter((r) => r.reason === 'otp' && r.patient_id != null).map((r) => Number(r.patient_id)))];
  if (!ids.length) return;
  const patients = await select<{ id: number; first_name: string; last_name: string; nid: string | null }>(
    sequelize,
    'SELECT id, first_name, last_name, nid FROM patients WHERE id IN (:ids) AND client_id = :clientId',
    { ids, clientId },
  );
  const [client] = await select<{ message_full_name: boolean | number }>(
    sequelize,
    'SELECT message_full_name FROM clients WHERE id = :clientId',
    {
      clientId,
    },
  );
  const privacy = { fullName: Boolean(client?.message_full_name), ruleName: false };
  const byId = new Map(patients.map((p) => [Number(p.id), p]));
  for (const r of rows) {
    const p = r.reason === 'otp' && r.patient_id != null ? byId.get(Number(r.patient_id)) : undefined;
    if (p)
      r.recipient_name = patientLabel(
        {
          patient_name: `${p.first_name} ${p.last_name}`.trim(),
          patient_initials: initialsOf(p.first_name, p.last_name),
          patient_document: p.nid,
        },
        privacy,
      );
  }
}

type Flag = (typeof PREFERENCE_FLAGS)[number];

export async function getMyNotifications(sequelize: Sequelize, clientId: number, userId: number): Promise<MyNotifications> {
  const [u] = await select<Record<Flag, boolean | number> & { email: string; cellphone: string | null; prefix: string | null }>(
    sequelize,
    `SELECT ${PREFERENCE_FLAGS.join(', ')}, email, cellphone, prefix FROM users WHERE id = :userId AND client_id = :clientId`,
    { userId, clientId },
  );
  if (!u) throw notFound('El usuario no existe.');
  const flags = Object.fromEntries(PREFERENCE_FLAGS.map((f) => [f, Boolean(u[f])])) as Record<Flag, boolean>;
  return { ...flags, email: u.email, cellphone: u.cellphone, prefix: u.prefix };
}

/** 'Mis notificaciones': a user changes only their own channels and priorities, through the users module (the table's one writer). */
export async function updateMyNotifications(
  sequelize: Sequelize,
  clientId: number,
  userId: number,
  input: MyNotificationsInput,
  now: Date,
): Promise<MyNotifications> {
  await writeNotificationPreferences(sequelize, clientId, userId, input, now);
  return getMyNotifications(sequelize, clientId, userId);
}
