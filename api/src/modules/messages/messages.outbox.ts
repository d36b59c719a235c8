import type { Sequelize, Transaction } from 'sequelize';
import type { JobRunner } from '../../jobs/queue.js';
import { insertReturningId, select } from '../../db/sql.js';
import { waId } from './messages.rules.js';

/** Job kind of the assistant's answer to an inbound message: queued by messages.jobs.ts, handled in assistant.service.ts. */
export const ASSISTANT_REPLY_JOB = 'assistant.reply';

export interface OutboundMessage {
  client_id: number;
  patient_id: number;
  /** Free text, or a template (the welcome message) with its parameters. */
  kind: 'text' | 'template';
  body: string;
  template?: string | null;
  /** Template body parameters, in order. */
  params?: string[];
  /** Why it is sent: shown to staff and used to react to a final failure. */
  reason: 'welcome' | 'reminder' | 'alarm' | 'assistant' | 'staff';
  /** A reminder's activity: it becomes 'Fallida' (4) if the message finally cannot be delivered (D11). */
  activity_id?: number | null;
  /** The assistant wrote it (shown with the AI marker). */
  ai?: boolean;
  /** The staff member who wrote it (reason 'staff'). */
  user_id?: number | null;
  /** The incoming message this answers (assistant replies). */
  reply_to_id?: number | null;
  /** The alert an ia_alarm rule's message is about. */
  alert_id?: number | null;
}

/** Job kind that delivers one queued message through the channel (messages.jobs.ts). */
export const SEND_MESSAGE_JOB = 'messaging.send';
/** Tries before a message is marked failed: 30 s, 1, 2, 4, 8 min back-off (jobs.rules.ts). */
export const SEND_MAX_ATTEMPTS = 6;

/**
 * Queues a message to the patient through the messaging channel, durably: the message row and its
 * delivery job are written in the caller's transaction, and the job sends it, retried with back-off.
 * Answers the message id (shown at once in the chat with status 'queued').
 */
export async function queueOutboundMessage(
  ctx: { sequelize: Sequelize; transaction?: Transaction; now: Date; jobs: JobRunner },
  message: OutboundMessage,
): Promise<number> {
  const [patient] = await select<{ prefix: string | null; cellphone: string | null }>(
    ctx.sequelize,
    'SELECT prefix, cellphone FROM patients WHERE id = :id AND client_id = :clientId',
    { id: message.patient_id, clientId: message.client_id },
    ctx.transaction,
  );
  if (!patient) throw new Error(`queueOutboundMessage: paciente ${message.patient_id} no existe en el cliente ${message.client_id}`);
  const id = await insertReturningId(
    ctx.sequelize,
    `INSERT INTO messages (client_id, patient_id, message_type, author_human, ai, reason, user_id, phone, body, template, elements, status, attempts,
                           activity_id, reply_to_id, alert_id, created_at, updated_at)
     VALUES (:clientId, :patientId, 'outgoing', :human, :ai, :reason, :userId, :phone, :body, :template, :elements, 'queued', 0,
             :activityId, :replyTo, :alertId, :now, :now) RETURNING id`,
    {
      clientId: message.client_id,
      patientId: message.patient_id,
      human: message.reason === 'staff' && !message.ai,
      ai: Boolean(message.ai),
      reason: message.reason,
      userId: message.user_id ?? null,
      phone: waId(patient.prefix, patient.cellphone),
      body: message.body,
      template: message.kind === 'template' ? (message.template ?? null) : null,
      elements: message.kind === 'template' ? JSON.stringify(message.params ?? []) : null,
      activityId: message.activity_id ?? null,
      replyTo: message.reply_to_id ?? null,
      alertId: message.alert_id ?? null,
      now: ctx.now,
    },
    ctx.transaction,
  );
  await ctx.jobs.enqueue(
    {
      kind: SEND_MESSAGE_JOB,
      payload: { message_id: id },
      key: `${SEND_MESSAGE_JOB}:${id}`,
      clientId: message.client_id,
      maxAttempts: SEND_MAX_ATTEMPTS,
      runAt: ctx.now,
    },
    ctx.transaction,
  );
  return id;
}
