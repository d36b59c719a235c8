import type { Sequelize } from 'sequelize';
import type { JobRunner } from '../../jobs/queue.js';
import type { MessagingChannel } from '../../adapters/messaging.js';
import type { AssistantModel } from '../../adapters/assistant.js';
import type { StaffPrincipal } from '../../http/auth.js';
import type { Downloads } from '../../http/downloads.js';
import { badRequest, conflict, forbidden, notFound } from '../../http/errors.js';
import { execute, select } from '../../db/sql.js';
import { can } from '@vigia/contract/rules/access';
import { PATIENT_STATUS } from '@vigia/contract/rules/access';
import { likeSafe } from '../catalogues/catalogues.service.js';
import { queueOutboundMessage } from './messages.outbox.js';
import { waId, welcomeText } from './messages.rules.js';
import type { components } from '@vigia/contract/openapi';

export interface MessagingDeps {
  sequelize: Sequelize;
  jobs: JobRunner;
  now: () => Date;
  log: (msg: string, err?: unknown) => void;
  channel: MessagingChannel;
  /** The AI assistant; null when AI_BASE_URL is not set. */
  model: AssistantModel | null;
  /** Attachments are stored under `${dataDir}/messages/<client_id>/`. */
  dataDir: string;
  /** Signed 5-minute links to attachments (D4's registry); set once the app has created it. */
  downloads: Downloads | null;
  welcomeTemplate: string;
  /** D11: a reminder that finally failed fails its activity (the orders module's write). */
  failActivity: (clientId: number, activityId: number) => Promise<void>;
}

/** Download kind of a chat attachment (image or audio). */
export const ATTACHMENT_DOWNLOAD = 'message_attachment';

export const CHAT_PAGE_SIZE = 3;
const WELCOME_SENT = 'Mensaje de bienvenida enviado exitosamente';

export interface MessageRow {
  id: number;
  client_id: number;
  patient_id: number | null;
  message_type: 'incoming' | 'outgoing';
  author_human: boolean | number;
  ai: boolean | number;
  /** What the column holds: the outbox writes its reasons, the inbound job 'patient' (ChatMessage.reason). */
  reason: NonNullable<components['schemas']['ChatMessage']['reason']>;
  user_id: number | null;
  phone: string | null;
  body: string | null;
  template: string | null;
  elements: unknown;
  /** Only ChatMessage.status values are written: 'received' inbound; 'queued', then the channel's receipts, outbound. */
  status: components['schemas']['ChatMessage']['status'];
  error: string | null;
  attempts: number;
  provider_id: string | null;
  activity_id: number | null;
  reply_to_id: number | null;
  attachment_kind: string | null;
  attachment_path: string | null;
  attachment_filename: string | null;
  attachment_mime: string | null;
  attachment_byte_size: number | null;
  transcription: string | null;
  created_at: string | Date;
}

interface PatientRow {
  id: number;
  client_id: number;
  first_name: string;
  last_name: string;
  status: number;
  prefix: string | null;
  cellphone: string | null;
  time_zone: string;
}

async function findPatientRow(sequelize: Sequelize, clientId: number, id: number): Promise<PatientRow> {
  if (!Number.isInteger(id) || id < 1) throw notFound();
  const [p] = await select<PatientRow>(
    sequelize,
    'SELECT id, client_id, first_name, last_name, status, prefix, cellphone, time_zone FROM patients WHERE id = :id AND client_id = :clientId',
    { id, clientId },
  );
  if (!p) throw notFound();
  return p;
}

const iso = (v: string | Date) => new Date(v).toISOString();
const parseJson = (v: unknown) => {
  if (typeof v !== 'string') return v ?? null;
  try {
    return JSON.parse(v);
  } catch {
    return null;
  }
};

/** The chat message of 01 §3, with signed links to its attachment. */
function toChatMessage(deps: Pick<MessagingDeps, 'downloads'>, m: MessageRow, userNames: Map<number, string> = new Map()) {
  const url =
    m.attachment_path && deps.downloads ? deps.downloads.link(m.client_id, ATTACHMENT_DOWNLOAD, { message: Number(m.id) }).url : null;
  return {
    id: Number(m.id),
    created_at: iso(m.created_at),
    message_type: m.message_type,
    author_human: Boolean(m.author_human),
    ai: Boolean(m.ai),
    reason: m.reason,
    author_name: m.user_id ? (userNames.get(m.user_id) ?? null) : null,
    custom_message: m.body,
    template: m.template,
    elements: parseJson(m.elements),
    // Still on its way to the patient (queued, possibly being retried).
    load: m.status === 'queued',
    status: m.status,
    error: m.error,
    attachments: {
      image: m.attachment_kind === 'image' ? { url, thumbnail: url } : null,
      audio:
        m.attachment_kind === 'audio'
          ? {
              url,
              filename: m.attachment_filename ?? `audio-${m.id}`,
              byte_size: Number(m.attachment_byte_size ?? 0),
              transcription: m.transcription,
            }
          : null,
    },
  };
}

/** 01 §7 'wa messages': newest first, page size 3, with has_next and total_count. */
export async function listMessages(deps: MessagingDeps, clientId: number, patientId: number, page: number, perPage: number) {
  await findPatientRow(deps.sequelize, clientId, patientId);
  const size = Math.min(Math.max(perPage || CHAT_PAGE_SIZE, 1), 50);
  const p = Math.max(page || 1, 1);
  const [{ n }] = await select<{ n: number }>(
    deps.sequelize,
    'SELECT COUNT(*) AS n FROM messages WHERE client_id = :clientId AND patient_id = :patientId',
    { clientId, patientId },
  );
  const rows = await select<MessageRow>(
    deps.sequelize,
    `SELECT * FROM messages WHERE client_id = :clientId AND patient_id = :patientId
     ORDER BY created_at DESC, id DESC LIMIT :limit OFFSET :offset`,
    { clientId, patientId, limit: size, offset: (p - 1) * size },
  );
  const userIds = [...new Set(rows.map((r) => r.user_id).filter((v): v is number => v != null))];
  const names = new Map<number, string>();
  if (userIds.length) {
    for (const u of await select<{ id: number; first_name: string; last_name: string }>(
      deps.sequelize,
      'SELECT id, first_name, last_name FROM users WHERE id IN (:ids) AND client_id = :clientId',
      { ids: userIds, clientId },
    )) {
      names.set(u.id, `${u.first_name} ${u.last_name}`.trim());
    }
  }
  const total = Number(n);
  return {
    messages: rows.map((r) => toChatMessage(deps, r, names)),
    page: p,
    per_page: size,
    total_count: total,
    has_next: p * size < total,
  };
}

/** 01 §3 'Messaging info': enabled unless turned off, the channel id (wa_id) and what the channel told us. */
export async function getSmeInfo(deps: MessagingDeps, clientId: number, patientId: number) {
  const p = await findPatientRow(deps.sequelize, clientId, patientId);
  const [row] = await select<{ sme_enabled: boolean | number; sme_id: string | null; sme_metadata: unknown }>(
    deps.sequelize,
    'SELECT sme_enabled, sme_id, sme_metadata FROM patient_messaging WHERE patient_id = :id AND client_id = :clientId',
    { id: patientId, clientId },
  );
  const id = row?.sme_id ?? waId(p.prefix, p.cellphone);
  return {
    sme_enabled: (row ? Boolean(row.sme_enabled) : true) && id != null && p.status !== PATIENT_STATUS.deceased,
    sme_id: id,
    sme_metadata: {
      channel: deps.channel.mode === 'local' ? 'local' : 'whatsapp',
      assistant: deps.model != null,
      ...((parseJson(row?.sme_metadata) as object) ?? {}),
    },
  };
}

function assertCanMessage(principal: StaffPrincipal, p: PatientRow) {
  if (!can(principal.role, 'clinical.write')) throw forbidden();
  if (p.status === PATIENT_STATUS.deceased) throw forbidden('El paciente está registrado como fallecido; su ficha no admite cambios.');
  if (!waId(p.prefix, p.cellphone))
    throw badRequest('cellphone', 'El paciente no tiene un número de celular registrado para recibir mensajes.');
}

/** 'Enviar Bienvenida' (01 §2): the welcome template, only while the chat is empty. */
export async function sendWelcome(deps: MessagingDeps, principal: StaffPrincipal, patientId: number) {
  const p = await findPatientRow(deps.sequelize, principal.clientId, patientId);
  assertCanMessage(principal, p);
  const [client] = await select<{ name: string }>(deps.sequelize, 'SELECT name FROM clients WHERE id = :id', { id: principal.clientId });
  const now = deps.now();
  await deps.sequelize.transaction(async (transaction) => {
    const [{ n }] = await select<{ n: number }>(
      deps.sequelize,
      'SELECT COUNT(*) AS n FROM messages WHERE client_id = :c AND patient_id = :p',
      { c: principal.clientId, p: patientId },
      transaction,
    );
    if (Number(n) > 0) throw conflict('El paciente ya tiene mensajes; la bienvenida solo se envía cuando el chat está vacío.');
    const first = p.first_name.trim().split(/\s+/)[0] ?? '';
    await queueOutboundMessage(
      { sequelize: deps.sequelize, transaction, now, jobs: deps.jobs },
      {
        client_id: principal.clientId,
        patient_id: patientId,
        kind: 'template',
        template: deps.welcomeTemplate,
        params: [first.charAt(0).toUpperCase() + first.slice(1).toLowerCase(), client?.name ?? ''],
        body: welcomeText(p.first_name, client?.name ?? ''),
        reason: 'welcome',
        user_id: principal.userId,
      },
    );
  });
  return { notification: { message: WELCOME_SENT, type: 'success' as const } };
}

/** A message written by staff in the chat composer. */
export async function sendStaffMessage(deps: MessagingDeps, principal: StaffPrincipal, patientId: number, text: string) {
  const p = await findPatientRow(deps.sequelize, principal.clientId, patientId);
  assertCanMessage(principal, p);
  const body = String(text ?? '').trim();
  if (!body) throw badRequest('text', 'El campo es requerido');
  const now = deps.now();
  const id = await queueOutboundMessage(
    { sequelize: deps.sequelize, now, jobs: deps.jobs },
    { client_id: principal.clientId, patient_id: patientId, kind: 'text', body, reason: 'staff', user_id: principal.userId },
  );
  const [row] = await select<MessageRow>(deps.sequelize, 'SELECT * FROM messages WHERE id = :id', { id });
  // The author's name at once, as the conversation's reads give it (it showed only after a refresh).
  const author = `${principal.user.first_name} ${principal.user.last_name}`.trim();
  return toChatMessage(deps, row, new Map([[principal.userId, author]]));
}

/** Messages from numbers that match no patient: kept for staff to review (admin); `q` searches text or number. */
export async function listUnknownMessages(deps: MessagingDeps, clientId: number, start: number, end: number, q: string | null = null) {
  const text = q ? `%${likeSafe(q.toLowerCase())}%` : null;
  const digits = q?.replace(/\D/g, '') ?? '';
  const where = `client_id = :clientId AND patient_id IS NULL${text ? ` AND (LOWER(COALESCE(body, '')) LIKE :text${digits ? ' OR phone LIKE :phone' : ''})` : ''}`;
  const filter = { clientId, text, phone: `%${digits}%` };
  const [{ n }] = await select<{ n: number }>(deps.sequelize, `SELECT COUNT(*) AS n FROM messages WHERE ${where}`, filter);
  const rows = await select<MessageRow>(
    deps.sequelize,
    `SELECT * FROM messages WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT :limit OFFSET :offset`,
    { ...filter, limit: Math.max(end - start, 1), offset: start },
  );
  return { rows: rows.map((r) => ({ ...toChatMessage(deps, r), phone: r.phone })), total: Number(n) };
}

export async function setMessagingEnabled(deps: MessagingDeps, clientId: number, patientId: number, enabled: boolean) {
  const p = await findPatientRow(deps.sequelize, clientId, patientId);
  if (p.status === PATIENT_STATUS.deceased) throw forbidden('El paciente está registrado como fallecido; su ficha no admite cambios.');
  const now = deps.now();
  const changed = await execute(
    deps.sequelize,
    'UPDATE patient_messaging SET sme_enabled = :enabled, updated_at = :now WHERE patient_id = :id AND client_id = :clientId',
    {
      enabled,
      now,
      id: patientId,
      clientId,
    },
  );
  if (!changed) {
    await execute(
      deps.sequelize,
      `INSERT INTO patient_messaging (patient_id, client_id, sme_enabled, sme_id, sme_metadata, created_at, updated_at)
       VALUES (:id, :clientId, :enabled, :smeId, NULL, :now, :now) ON CONFLICT (patient_id) DO UPDATE SET sme_enabled = :enabled, updated_at = :now`,
      { id: patientId, clientId, enabled, smeId: waId(p.prefix, p.cellphone), now },
    );
  }
  return getSmeInfo(deps, clientId, patientId);
}
