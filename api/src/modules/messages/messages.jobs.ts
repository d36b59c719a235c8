import fs from 'node:fs/promises';
import path from 'node:path';
import { ChannelError } from '../../adapters/messaging.js';
import { execute, insertReturningId, select } from '../../db/sql.js';
import type { JobRow } from '../../jobs/queue.js';
import { ASSISTANT_REPLY_JOB, SEND_MESSAGE_JOB } from './messages.outbox.js';
import {
  acceptedNoteText,
  attachmentFileName,
  attachmentKind,
  deliveryFailureText,
  matchPatient,
  MEDIA_FAILURE_TEXT,
  nextStatus,
  phoneCandidates,
  sendFailureText,
  type InboundEvent,
} from './messages.rules.js';
import type { MessageRow, MessagingDeps } from './messages.service.js';

const MEDIA_JOB = 'messaging.media';

/** Marks a message failed once and applies its consequences. */
async function markMessageFailed(deps: MessagingDeps, messageId: number, error: string) {
  const now = deps.now();
  const changed = await execute(
    deps.sequelize,
    "UPDATE messages SET status = 'failed', error = :error, updated_at = :now WHERE id = :id AND status <> 'failed'",
    {
      id: messageId,
      error: error.slice(0, 1000),
      now,
    },
  );
  if (!changed) return;
  const [m] = await select<MessageRow>(deps.sequelize, 'SELECT * FROM messages WHERE id = :id', { id: messageId });
  // D11: its activity fails with it (the orders module writes activities).
  if (m?.activity_id) await deps.failActivity(m.client_id, m.activity_id);
}

/** A unique index refused the write (here: the provider's message id already belongs to another row). */
const isUniqueConflict = (err: unknown) => (err as Error)?.name === 'SequelizeUniqueConstraintError';

/**
 * Records a send the provider accepted. From here on nothing throws: the job must finish, since
 * a retry would send the message again (P148). A provider id already held by another message
 * (the provider reused it) is not stored on this one: this row stays sent with a note, the other
 * keeps the id and its delivery receipts. Any other failure to store is retried here, briefly.
 */
async function recordAccepted(deps: MessagingDeps, messageId: number, providerId: string | null) {
  let note = acceptedNoteText('no_id', null);
  if (providerId) {
    try {
      await execute(
        deps.sequelize,
        "UPDATE messages SET status = 'sent', provider_id = :providerId, error = NULL, attempts = attempts + 1, updated_at = :now WHERE id = :id AND status = 'queued'",
        { providerId, now: deps.now(), id: messageId },
      );
      return;
    } catch (err) {
      const conflict = isUniqueConflict(err);
      note = acceptedNoteText(conflict ? 'id_conflict' : 'store_failed', providerId);
      deps.log(
        conflict
          ? `mensajería: el proveedor aceptó el mensaje ${messageId} con el identificador ${providerId}, que ya tenía otro mensaje`
          : `mensajería: el proveedor aceptó el mensaje ${messageId} (${providerId}) y no se pudo guardar su identificador`,
        conflict ? undefined : err,
      );
    }
  }
  for (let attempt = 1; ; attempt++) {
    try {
      await execute(
        deps.sequelize,
        "UPDATE messages SET status = 'sent', error = :note, attempts = attempts + 1, updated_at = :now WHERE id = :id AND status = 'queued'",
        { note, now: deps.now(), id: messageId },
      );
      return;
    } catch (err) {
      if (attempt >= 3) {
        // Left queued in the chat, but never sent again: the job ends normally.
        deps.log(`mensajería: el proveedor aceptó el mensaje ${messageId} y no se pudo marcar como enviado`, err);
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
    }
  }
}

async function sendQueued(deps: MessagingDeps, job: JobRow) {
  const messageId = Number((job.payload as { message_id: number }).message_id);
  const [m] = await select<MessageRow>(deps.sequelize, 'SELECT * FROM messages WHERE id = :id', { id: messageId });
  // Already sent (or given up): a re-run of the job does nothing.
  if (!m || m.status !== 'queued') return;
  if (!m.phone) {
    await markMessageFailed(deps, messageId, sendFailureText('no_phone', null, false));
    return;
  }
  let accepted: { providerId: string | null };
  try {
    const params = typeof m.elements === 'string' ? (JSON.parse(m.elements) as string[]) : ((m.elements as string[] | null) ?? []);
    accepted = await deps.channel.send({
      to: m.phone,
      kind: m.template ? 'template' : 'text',
      body: m.body ?? '',
      template: m.template,
      params,
    });
  } catch (err) {
    const channel = err instanceof ChannelError ? err : null;
    if (!channel) deps.log(`mensajería: error al enviar el mensaje ${messageId}`, err);
    const failure = channel?.failure ?? 'internal';
    const status = channel?.httpStatus ?? null;
    // A refusal is final; otherwise the job's back-off tries again until its last attempt.
    const last = (channel != null && !channel.retryable) || job.attempts >= job.max_attempts;
    if (last) {
      await markMessageFailed(deps, messageId, sendFailureText(failure, status, false));
      if (channel && !channel.retryable) return;
    } else {
      await execute(deps.sequelize, 'UPDATE messages SET error = :error, attempts = attempts + 1, updated_at = :now WHERE id = :id', {
        error: sendFailureText(failure, status, true),
        now: deps.now(),
        id: messageId,
      });
    }
    throw err;
  }
  await recordAccepted(deps, messageId, accepted.providerId);
}

async function downloadMedia(deps: MessagingDeps, job: JobRow) {
  const messageId = Number((job.payload as { message_id: number }).message_id);
  const [m] = await select<MessageRow & { attachment_media_id: string | null }>(deps.sequelize, 'SELECT * FROM messages WHERE id = :id', {
    id: messageId,
  });
  if (!m || m.attachment_path || !m.attachment_media_id) return;
  const file = await deps.channel.fetchMedia(m.attachment_media_id);
  const mime = m.attachment_mime ?? file.mime;
  const dir = path.join(deps.dataDir, 'messages', String(m.client_id));
  await fs.mkdir(dir, { recursive: true });
  const name = attachmentFileName(messageId, mime);
  await fs.writeFile(path.join(dir, name), file.bytes);
  await execute(
    deps.sequelize,
    'UPDATE messages SET attachment_path = :p, attachment_byte_size = :size, attachment_mime = :mime, updated_at = :now WHERE id = :id',
    {
      p: path.posix.join(String(m.client_id), name),
      size: file.bytes.length,
      mime,
      now: deps.now(),
      id: messageId,
    },
  );
}

export function registerMessagingJobs(deps: MessagingDeps) {
  deps.jobs.register(SEND_MESSAGE_JOB, {
    handler: (job) => sendQueued(deps, job),
    // The handler marks the message failed with its reason on the last attempt; this covers a job
    // that failed before reaching the channel. The job's error text is not shown: it may be English.
    onFailed: async (job) =>
      markMessageFailed(deps, Number((job.payload as { message_id: number }).message_id), sendFailureText('internal', null, false)),
  });
  deps.jobs.register(MEDIA_JOB, {
    handler: (job) => downloadMedia(deps, job),
    onFailed: async (job) => {
      await execute(deps.sequelize, 'UPDATE messages SET error = :error WHERE id = :id', {
        error: MEDIA_FAILURE_TEXT,
        id: Number((job.payload as { message_id: number }).message_id),
      });
    },
  });
}

/** Records the patient's messaging info from what the channel says (profile name, last message). */
async function touchPatientMessaging(
  deps: MessagingDeps,
  clientId: number,
  patientId: number,
  smeId: string,
  profileName: string | null,
  at: Date,
) {
  const metadata = JSON.stringify({ profile_name: profileName, last_incoming_at: at.toISOString() });
  await execute(
    deps.sequelize,
    `INSERT INTO patient_messaging (patient_id, client_id, sme_enabled, sme_id, sme_metadata, created_at, updated_at)
     VALUES (:patientId, :clientId, :enabled, :smeId, :metadata, :now, :now)
     ON CONFLICT (patient_id) DO UPDATE SET sme_id = :smeId, sme_metadata = :metadata, updated_at = :now`,
    { patientId, clientId, enabled: true, smeId, metadata, now: at },
  );
}

/**
 * Stores what a verified webhook delivered: each patient message once (by provider id), found by
 * phone within the client (unknown numbers kept with no patient); attachments are fetched and
 * replies asked of the assistant by jobs; delivery statuses move outgoing messages forward.
 */
export async function handleInbound(deps: MessagingDeps, clientId: number, events: InboundEvent[]) {
  let stored = 0;
  for (const e of events) {
    const now = deps.now();
    if (e.type === 'status') {
      const [m] = await select<{ id: number; status: string }>(
        deps.sequelize,
        'SELECT id, status FROM messages WHERE provider_id = :pid AND client_id = :clientId',
        { pid: e.providerId, clientId },
      );
      if (!m) continue;
      if (e.status === 'failed') await markMessageFailed(deps, Number(m.id), deliveryFailureText(e.errorCode));
      else {
        const status = nextStatus(m.status, e.status);
        if (status !== m.status)
          await execute(deps.sequelize, 'UPDATE messages SET status = :status, updated_at = :now WHERE id = :id', {
            status,
            now,
            id: m.id,
          });
      }
      continue;
    }
    const [dup] = await select<{ id: number }>(deps.sequelize, 'SELECT id FROM messages WHERE provider_id = :pid', { pid: e.providerId });
    if (dup) continue;
    const candidates = await select<{ id: number; prefix: string | null; cellphone: string | null; status: number }>(
      deps.sequelize,
      'SELECT id, prefix, cellphone, status FROM patients WHERE client_id = :clientId AND cellphone IN (:phones)',
      { clientId, phones: phoneCandidates(e.from) },
    );
    const patient = matchPatient(e.from, candidates);
    const kind = e.kind === 'image' || e.kind === 'audio' ? (attachmentKind(e.mime ?? `${e.kind}/*`) ?? e.kind) : null;
    // The conversation is in the order Vigía received it (P148): a message that arrives late is
    // stored at its arrival, after whatever was sent meanwhile, never back-dated to the provider's time.
    const at = now;
    const body = e.kind === 'other' ? '[Mensaje de un tipo no soportado]' : e.text;
    let id: number;
    try {
      id = await insertReturningId(
        deps.sequelize,
        `INSERT INTO messages (client_id, patient_id, message_type, author_human, ai, reason, phone, body, status, attempts, provider_id,
                               attachment_kind, attachment_media_id, attachment_filename, attachment_mime, transcription, created_at, updated_at)
         VALUES (:clientId, :patientId, 'incoming', :human, :ai, 'patient', :phone, :body, 'received', 0, :pid,
                 :kind, :mediaId, :filename, :mime, :transcription, :at, :now) RETURNING id`,
        {
          clientId,
          patientId: patient?.id ?? null,
          human: true,
          ai: false,
          phone: e.from,
          body,
          pid: e.providerId,
          kind,
          mediaId: e.mediaId,
          filename: e.filename ?? (kind === 'audio' ? `audio-${e.providerId}` : null),
          mime: e.mime,
          transcription: e.transcription,
          at,
          now,
        },
      );
    } catch (err) {
      // Two deliveries of the same webhook at once: the unique provider id keeps one.
      if ((err as Error).name === 'SequelizeUniqueConstraintError') continue;
      throw err;
    }
    stored++;
    if (kind && e.mediaId)
      await deps.jobs.enqueue({ kind: MEDIA_JOB, payload: { message_id: id }, key: `${MEDIA_JOB}:${id}`, clientId, maxAttempts: 6 });
    if (!patient) continue;
    await touchPatientMessaging(deps, clientId, patient.id, e.from, e.profileName, at);
    if (deps.model && patient.status !== 3) {
      const [pm] = await select<{ sme_enabled: boolean | number }>(
        deps.sequelize,
        'SELECT sme_enabled FROM patient_messaging WHERE patient_id = :id',
        { id: patient.id },
      );
      if (pm && !pm.sme_enabled) continue;
      await deps.jobs.enqueue({
        kind: ASSISTANT_REPLY_JOB,
        payload: { message_id: id },
        key: `${ASSISTANT_REPLY_JOB}:${id}`,
        clientId,
        maxAttempts: 8,
      });
    }
  }
  return stored;
}
