import type { Sequelize, Transaction } from 'sequelize';
import { execute, insertReturningId, select, writeTransaction } from '../../db/sql.js';
import type { JobRow, JobRunner } from '../../jobs/queue.js';
import type { AlertHook } from '../alerts/hooks.js';
import { escalateAlert } from '../alerts/alerts.escalate.js';
import { DeliveryError, type ChannelMap } from './notifications.channels.js';
import { PREFERENCE_FLAGS, STAFF_CHANNELS } from '../users/users.preferences.js';
import { ALERT_STATUS } from '@vigia/contract/rules/alarms';
import {
  CHANNEL_ADDRESS,
  ESCALATION_DEFAULT_MINUTES,
  SEND_MAX_ATTEMPTS,
  caregiverMessage,
  caregiverTemplate,
  caregiverTold,
  digestMessage,
  digestSlot,
  escalationDueAt,
  escalationEntryText,
  failureText,
  initialsOf,
  rankAlerts,
  staffChannels,
  staffMessage,
  type AlertFacts,
  type Channel,
  type Reason,
  type TemplateCall,
  type StaffPreferences,
} from './notifications.rules.js';

/** Job kinds: plan who hears of a new alert; gather one person's waiting items into a message; send it; escalate. */
const PLAN_JOB = 'notifications.alert';
const DISPATCH_JOB = 'notifications.dispatch';
/** Sends run per channel, each channel in a pool of its own; the plain kind is the jobs queued before that. */
const SEND_JOB = 'notifications.send';
const sendJobOf = (channel: Channel) => `${SEND_JOB}.${channel}`;
const ESCALATE_JOB = 'notifications.escalate';
/** Every job kind this module registers (a runner may be limited to them). */
export const NOTIFICATION_JOB_KINDS = [PLAN_JOB, DISPATCH_JOB, SEND_JOB, ...STAFF_CHANNELS.map(sendJobOf), ESCALATE_JOB];

export interface NotificationDeps {
  sequelize: Sequelize;
  jobs: JobRunner;
  now: () => Date;
  log: (msg: string, err?: unknown) => void;
  /** The channels, one entry each (notifications.channels.ts). */
  channels: ChannelMap;
  /** PUBLIC_URL: the links in messages are absolute with it, paths without. */
  baseUrl: string | null;
}

/**
 * A new alert queues one job, in the alert's own transaction: the reading's request does nothing
 * else (issue 20), and the job exists only if the alert does.
 */
export const queueAlertNotifications: AlertHook = async (ctx, alert) => {
  await ctx.jobs.enqueue(
    { kind: PLAN_JOB, payload: { alert_id: alert.id }, key: `${PLAN_JOB}:${alert.id}`, clientId: alert.client_id, maxAttempts: 8 },
    ctx.transaction,
  );
};

interface AlertRow {
  id: number;
  client_id: number;
  patient_id: number;
  alert_type: number;
  status: number;
  priority: number;
  clinical_element: number | null;
  value: number | null;
  m_value: number | null;
  alarm_name: string | null;
  minimum_condition: number | null;
  maximum_condition: number | null;
  description: string | null;
  created_at: string | Date;
  first_name: string;
  last_name: string;
  nid: string | null;
  time_zone: string;
}

const ALERT_COLUMNS = `al.id, al.client_id, al.patient_id, al.alert_type, al.status, al.priority, al.clinical_element, al.value, m.value AS m_value,
    al.alarm_name, al.minimum_condition, al.maximum_condition, al.description, al.created_at, p.first_name, p.last_name, p.nid, p.time_zone`;
const ALERT_JOINS = 'JOIN patients p ON p.id = al.patient_id LEFT JOIN measurements m ON m.id = al.measurement_id';
const ALERT_FACTS = `SELECT ${ALERT_COLUMNS} FROM alerts al ${ALERT_JOINS}`;

function toFacts(r: AlertRow): AlertFacts {
  const value = r.value ?? r.m_value;
  return {
    id: Number(r.id),
    patient_id: Number(r.patient_id),
    patient_name: `${r.first_name} ${r.last_name}`.trim(),
    patient_initials: initialsOf(r.first_name, r.last_name),
    patient_document: r.nid,
    alert_type: Number(r.alert_type),
    priority: Number(r.priority),
    clinical_element: r.clinical_element == null ? null : Number(r.clinical_element),
    value: value == null ? null : Number(value),
    alarm_name: r.alarm_name,
    minimum_condition: r.minimum_condition == null ? null : Number(r.minimum_condition),
    maximum_condition: r.maximum_condition == null ? null : Number(r.maximum_condition),
    description: r.description,
    created_at: new Date(r.created_at),
    time_zone: r.time_zone,
  };
}

interface Item {
  recipient_key: string;
  channel: Channel;
}

/** The staff (and, for reason 'alert', the caregivers) to tell of `alert`, one item per person and channel. */
async function recipientsOf(sequelize: Sequelize, alert: AlertRow, reason: Reason, transaction?: Transaction): Promise<Item[]> {
  const users = await select<StaffPreferences & { id: number }>(
    sequelize,
    `SELECT id, status, email, prefix, cellphone, ${PREFERENCE_FLAGS.join(', ')} FROM users WHERE client_id = :clientId ORDER BY id`,
    { clientId: alert.client_id },
    transaction,
  );
  const items: Item[] = users.flatMap((u) =>
    staffChannels(u, Number(alert.priority)).map((channel) => ({ recipient_key: `u${u.id}`, channel })),
  );
  if (reason !== 'alert') return items;
  const caregivers = await select<{ id: number; notification: boolean | number; prefix: string | null; cellphone: string | null }>(
    sequelize,
    `SELECT c.id, c.notification, c.prefix, c.cellphone FROM caregivers c JOIN patient_caregivers pc ON pc.caregiver_id = c.id
     WHERE pc.patient_id = :patientId AND c.client_id = :clientId ORDER BY c.id`,
    { patientId: alert.patient_id, clientId: alert.client_id },
    transaction,
  );
  for (const c of caregivers) if (caregiverTold(c, Number(alert.priority))) items.push({ recipient_key: `c${c.id}`, channel: 'whatsapp' });
  return items;
}

/**
 * Stores what each person must be told of `alert` (once: the unique index drops a second item for
 * the same alert, reason, channel and person) and queues the gathering of each person's items: at
 * once, and again at the end of the digest window for what arrives meanwhile (P171).
 */
async function queueItems(deps: NotificationDeps, alert: AlertRow, reason: Reason, now: Date, transaction?: Transaction) {
  const items = await recipientsOf(deps.sequelize, alert, reason, transaction);
  if (!items.length) return;
  // One statement for all the alert's items, and two gathering jobs per client and minute (most
  // of them already queued by an earlier alert): on SQLite every write takes the one writer's
  // turn, which ingestion shares.
  const values: Record<string, unknown> = { clientId: alert.client_id, alertId: alert.id, reason, priority: alert.priority, now };
  const rows = items.map((item, i) => {
    values[`c${i}`] = item.channel;
    values[`r${i}`] = item.recipient_key;
    return `(:clientId, :alertId, :reason, :c${i}, :r${i}, :priority, :now)`;
  });
  const inserted = await execute(
    deps.sequelize,
    `INSERT INTO notification_items (client_id, alert_id, reason, channel, recipient_key, priority, created_at)
     VALUES ${rows.join(', ')} ON CONFLICT (alert_id, reason, channel, recipient_key) DO NOTHING`,
    values,
    transaction,
  );
  if (!inserted) return;
  const { slot, endsAt } = digestSlot(now);
  for (const [suffix, runAt] of [
    ['', now],
    [':end', endsAt],
  ] as const)
    await deps.jobs.enqueue(
      {
        kind: DISPATCH_JOB,
        payload: { client_id: Number(alert.client_id) },
        key: `${DISPATCH_JOB}:${alert.client_id}:${slot}${suffix}`,
        clientId: alert.client_id,
        runAt,
        maxAttempts: 8,
      },
      transaction,
    );
}

async function planAlert(deps: NotificationDeps, job: JobRow, now: Date) {
  const alertId = Number((job.payload as { alert_id: number }).alert_id);
  const [alert] = await select<AlertRow>(deps.sequelize, `${ALERT_FACTS} WHERE al.id = :alertId`, { alertId });
  // Closed before anyone was told (or gone): nothing to say.
  if (!alert || Number(alert.status) !== ALERT_STATUS.open) return;
  await writeTransaction(deps.sequelize, async (transaction) => {
    await queueItems(deps, alert, 'alert', now, transaction);
    if (Number(alert.priority) !== 1) return;
    const minutes = await escalationMinutes(deps.sequelize, Number(alert.client_id), transaction);
    await deps.jobs.enqueue(
      {
        kind: ESCALATE_JOB,
        payload: { alert_id: alertId },
        key: `${ESCALATE_JOB}:${alertId}`,
        clientId: alert.client_id,
        runAt: escalationDueAt(new Date(alert.created_at), minutes),
        maxAttempts: 8,
      },
      transaction,
    );
  });
}

interface Recipient {
  address: string;
  name: string;
  active: boolean;
}

async function recipientOf(sequelize: Sequelize, clientId: number, key: string, channel: Channel): Promise<Recipient | null> {
  const id = Number(key.slice(1));
  if (key.startsWith('u')) {
    const [u] = await select<{
      email: string;
      prefix: string | null;
      cellphone: string | null;
      first_name: string;
      last_name: string;
      status: number;
    }>(sequelize, 'SELECT email, prefix, cellphone, first_name, last_name, status FROM users WHERE id = :id AND client_id = :clientId', {
      id,
      clientId,
    });
    if (!u) return null;
    const address = CHANNEL_ADDRESS[channel](u);
    return address ? { address, name: `${u.first_name} ${u.last_name}`.trim(), active: Number(u.status) === 0 } : null;
  }
  const [c] = await select<{
    prefix: string | null;
    cellphone: string | null;
    first_name: string;
    last_name: string;
    notification: boolean | number;
  }>(sequelize, 'SELECT prefix, cellphone, first_name, last_name, notification FROM caregivers WHERE id = :id AND client_id = :clientId', {
    id,
    clientId,
  });
  const address = c ? CHANNEL_ADDRESS[channel]({ email: null, prefix: c.prefix, cellphone: c.cellphone }) : null;
  return c && address ? { address, name: `${c.first_name} ${c.last_name}`.trim(), active: Boolean(c.notification) } : null;
}

/** Marker of items that will never be sent (the person was disabled or lost the address meanwhile). */
const NOT_SENT = 0;

type Waiting = AlertRow & { item_id: number; recipient_key: string; channel: Channel; reason: Reason };

/**
 * Gathers a client's waiting items, person by person, channel by channel and reason by reason,
 * into one message each (a digest when there are several alerts), and queues their sending.
 */
async function dispatch(deps: NotificationDeps, job: JobRow, now: Date) {
  const clientId = Number((job.payload as { client_id: number }).client_id);
  const waiting = await select<Waiting>(
    deps.sequelize,
    `SELECT i.id AS item_id, i.recipient_key, i.channel, i.reason, ${ALERT_COLUMNS}
     FROM notification_items i JOIN alerts al ON al.id = i.alert_id ${ALERT_JOINS}
     WHERE i.client_id = :clientId AND i.notification_id IS NULL ORDER BY i.id`,
    { clientId },
  );
  const groups = new Map<string, Waiting[]>();
  for (const w of waiting) {
    const key = `${w.recipient_key}|${w.channel}|${w.reason}`;
    groups.set(key, [...(groups.get(key) ?? []), w]);
  }
  for (const group of groups.values()) await deliverGroup(deps, clientId, group, now);
}

/**
 * One person's waiting items for one channel and reason become one message. Claiming the items is
 * a conditional UPDATE, so two processes gathering at once send one message.
 */
async function deliverGroup(deps: NotificationDeps, clientId: number, waiting: Waiting[], now: Date) {
  const { recipient_key: recipientKey, channel, reason } = waiting[0];
  const itemIds = waiting.map((w) => Number(w.item_id));
  const recipient = await recipientOf(deps.sequelize, clientId, recipientKey, channel);
  if (!recipient || !recipient.active) {
    await execute(deps.sequelize, 'UPDATE notification_items SET notification_id = :none WHERE id IN (:ids) AND notification_id IS NULL', {
      none: NOT_SENT,
      ids: itemIds,
    });
    return;
  }
  const facts = waiting.map(toFacts);
  const caregiver = recipientKey.startsWith('c');
  const [client] = await select<{
    name: string;
    escalation_minutes: number;
    message_full_name: boolean | number;
    message_rule_name: boolean | number;
  }>(deps.sequelize, 'SELECT name, escalation_minutes, message_full_name, message_rule_name FROM clients WHERE id = :id', { id: clientId });
  const opts = {
    baseUrl: deps.baseUrl,
    minutes: Number(client?.escalation_minutes ?? ESCALATION_DEFAULT_MINUTES),
    // What the organisation lets a message show (issue 41).
    privacy: { fullName: Boolean(client?.message_full_name), ruleName: Boolean(client?.message_rule_name) },
  };
  const message = caregiver
    ? {
        subject: 'Alerta de prioridad alta',
        text: caregiverMessage(facts, client?.name ?? '', opts.privacy),
        template: caregiverTemplate(facts, client?.name ?? '', opts.privacy),
      }
    : facts.length === 1
      ? staffMessage(facts[0], reason, opts)
      : digestMessage(facts, reason, opts);
  const [worst] = rankAlerts(facts);
  await writeTransaction(deps.sequelize, async (transaction) => {
    const id = await insertReturningId(
      deps.sequelize,
      `INSERT INTO notifications (client_id, channel, audience, reason, user_id, caregiver_id, recipient, recipient_name, alert_id, patient_id, alert_count,
                                  subject, body, template, state, attempts, created_at, updated_at)
       VALUES (:clientId, :channel, :audience, :reason, :userId, :caregiverId, :recipient, :name, :alertId, :patientId, :count,
               :subject, :body, :template, 'queued', 0, :now, :now) RETURNING id`,
      {
        clientId,
        channel,
        audience: caregiver ? 'caregiver' : 'staff',
        reason,
        userId: caregiver ? null : Number(recipientKey.slice(1)),
        caregiverId: caregiver ? Number(recipientKey.slice(1)) : null,
        recipient: recipient.address,
        name: recipient.name,
        alertId: worst.id,
        patientId: worst.patient_id,
        count: facts.length,
        subject: message.subject.slice(0, 200),
        body: message.text,
        template: JSON.stringify(message.template),
        now,
      },
      transaction,
    );
    const claimed = await execute(
      deps.sequelize,
      'UPDATE notification_items SET notification_id = :id WHERE id IN (:ids) AND notification_id IS NULL',
      { id, ids: itemIds },
      transaction,
    );
    // Another process gathered some of them first: undo this message; the retry gathers what is left.
    if (claimed !== itemIds.length) throw new Error('notificaciones: elementos ya reunidos por otro proceso');
    await deps.jobs.enqueue(
      {
        kind: sendJobOf(channel),
        payload: { notification_id: id },
        key: `${SEND_JOB}:${id}`,
        clientId,
        maxAttempts: SEND_MAX_ATTEMPTS,
        runAt: now,
      },
      transaction,
    );
  });
}

interface NotificationRow {
  id: number;
  client_id: number;
  template: string | null;
  channel: Channel;
  recipient: string;
  subject: string;
  body: string;
  state: string;
}

async function markFailed(deps: NotificationDeps, id: number, error: string) {
  await execute(
    deps.sequelize,
    "UPDATE notifications SET state = 'failed', error = :error, attempts = attempts + 1, updated_at = :now WHERE id = :id AND state = 'queued'",
    { id, error: error.slice(0, 300), now: deps.now() },
  );
}

/** Our id of a message on every try: the Message-ID's left side, the provider's idempotency key. */
export const notificationKey = (id: number) => `notif-${id}`;

/**
 * Sends one message. A failure the provider may overcome is retried with the queue's back-off and
 * noted on the record; a refusal, or the last try, ends it 'fallido' with the reason. An accepted
 * send is never repeated (P148): the row is marked sent and the job ends. A try whose outcome is
 * unknown (the peer went quiet after the message went out) is noted as such and retried with the
 * same key, which the provider or the mail server can recognise (issue 41).
 */
async function send(deps: NotificationDeps, job: JobRow) {
  const id = Number((job.payload as { notification_id: number }).notification_id);
  const [n] = await select<NotificationRow>(
    deps.sequelize,
    'SELECT id, client_id, channel, recipient, subject, body, template, state FROM notifications WHERE id = :id',
    { id },
  );
  if (!n || n.state !== 'queued') return;
  let providerId: string | null;
  try {
    ({ providerId } = await deps.channels[n.channel].send({
      clientId: Number(n.client_id),
      to: n.recipient,
      subject: n.subject,
      text: n.body,
      template: n.template ? (JSON.parse(n.template) as TemplateCall) : null,
      key: notificationKey(id),
    }));
  } catch (err) {
    const known = err instanceof DeliveryError ? err : null;
    if (!known) deps.log(`notificaciones: error al enviar ${id}`, err);
    const kind = known?.kind ?? 'internal';
    const last = kind === 'refused' || job.attempts >= job.max_attempts;
    if (last) {
      await markFailed(deps, id, failureText(kind, known?.code ?? null, true));
      if (kind === 'refused') return;
    } else {
      await execute(deps.sequelize, 'UPDATE notifications SET error = :error, attempts = attempts + 1, updated_at = :now WHERE id = :id', {
        error: failureText(kind, known?.code ?? null, false),
        now: deps.now(),
        id,
      });
    }
    throw err;
  }
  // The time it was accepted, not when the try began: a slow peer may have taken minutes.
  const now = deps.now();
  await execute(
    deps.sequelize,
    "UPDATE notifications SET state = 'sent', provider_id = :providerId, error = NULL, attempts = attempts + 1, sent_at = :now, updated_at = :now WHERE id = :id AND state = 'queued'",
    { providerId, now, id },
  );
}

/**
 * Escalates a high-priority alert still open with no entry (issue 20) through the alerts module,
 * then tells the users with high priority again. The client's delay is read now, not when the job
 * was queued: a delay changed meanwhile counts from the alert's opening (issue 41); a job that
 * finds the alert not yet due under it queues its follow-up for then.
 */
async function escalate(deps: NotificationDeps, job: JobRow, now: Date) {
  const alertId = Number((job.payload as { alert_id: number }).alert_id);
  await writeTransaction(deps.sequelize, async (transaction) => {
    const [alert] = await select<AlertRow>(deps.sequelize, `${ALERT_FACTS} WHERE al.id = :alertId`, { alertId }, transaction);
    if (!alert) return;
    const minutes = await escalationMinutes(deps.sequelize, Number(alert.client_id), transaction);
    const due = escalationDueAt(new Date(alert.created_at), minutes);
    if (due > now) {
      await deps.jobs.enqueue(
        {
          kind: ESCALATE_JOB,
          payload: { alert_id: alertId },
          key: `${ESCALATE_JOB}:${alertId}:${due.getTime()}`,
          clientId: alert.client_id,
          runAt: due,
          maxAttempts: 8,
        },
        transaction,
      );
      return;
    }
    if (!(await escalateAlert(deps.sequelize, { alertId, entryText: escalationEntryText(minutes), now }, transaction))) return;
    await queueItems(deps, alert, 'escalation', now, transaction);
  });
}

async function escalationMinutes(sequelize: Sequelize, clientId: number, transaction?: Transaction): Promise<number> {
  const [client] = await select<{ escalation_minutes: number }>(
    sequelize,
    'SELECT escalation_minutes FROM clients WHERE id = :clientId',
    { clientId },
    transaction,
  );
  return Number(client?.escalation_minutes ?? ESCALATION_DEFAULT_MINUTES);
}

/**
 * A client's delay changed: the escalations still pending of its open high-priority alerts move
 * to their opening time plus the new delay (issue 41), at once when that has passed.
 */
export async function retimeEscalations(deps: Pick<NotificationDeps, 'sequelize' | 'jobs'>, clientId: number, minutes: number) {
  const open = await select<{ id: number; created_at: string | Date }>(
    deps.sequelize,
    `SELECT id, created_at FROM alerts WHERE client_id = :clientId AND status = ${ALERT_STATUS.open} AND priority = 1 AND escalated_at IS NULL`,
    { clientId },
  );
  for (const a of open)
    await deps.jobs.reschedule(ESCALATE_JOB, `${ESCALATE_JOB}:${a.id}`, escalationDueAt(new Date(a.created_at), minutes));
}

export function registerNotificationJobs(deps: NotificationDeps) {
  deps.jobs.register(PLAN_JOB, (job, ctx) => planAlert(deps, job, ctx.now));
  deps.jobs.register(DISPATCH_JOB, (job, ctx) => dispatch(deps, job, ctx.now));
  deps.jobs.register(ESCALATE_JOB, (job, ctx) => escalate(deps, job, ctx.now));
  const sendKind = (lockMs: number, concurrency?: number) => ({
    handler: (job: JobRow) => send(deps, job),
    concurrency,
    lockMs,
    // The handler marks the last failure itself; this covers a job that failed before reaching the provider.
    onFailed: async (job: JobRow) =>
      markFailed(deps, Number((job.payload as { notification_id: number }).notification_id), failureText('internal', null, true)),
  });
  for (const channel of STAFF_CHANNELS)
    deps.jobs.register(sendJobOf(channel), sendKind(deps.channels[channel].lockMs, deps.channels[channel].pool));
  deps.jobs.register(SEND_JOB, sendKind(Math.max(...STAFF_CHANNELS.map((c) => deps.channels[c].lockMs))));
}
