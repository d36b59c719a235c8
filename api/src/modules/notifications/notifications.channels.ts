import { ChannelError, MESSAGING_TIMEOUT_MS, type MessagingChannel } from '../../adapters/messaging.js';
import { EMAIL_SEND_LIMIT_MS, EmailError, type EmailSender } from '../../adapters/email.js';
import type { Sequelize } from 'sequelize';
import { select } from '../../db/sql.js';
import { LOCK_MS } from '../../jobs/queue.js';
import type { Channel, TemplateCall, TemplateKind } from './notifications.rules.js';

/**
 * The channels the care team is told on (issue 40): a channel is its adapter, one entry here and
 * one preference column (`media_<channel>`, users.preferences.ts). The jobs never ask which
 * channel they hold.
 */

/** One message as the jobs hand it to a channel. */
export interface OutgoingNotification {
  clientId: number;
  to: string;
  subject: string;
  text: string;
  /** The same on every try of this message (Message-ID, idempotency key): a resend can be recognised. */
  key: string;
  /** The message as an approved template (null: a message stored before templates; sent as text). */
  template: TemplateCall | null;
}

/**
 * The approved WhatsApp template of each kind of message (issue 41), like MESSAGING_WELCOME_TEMPLATE:
 * its name from the environment, its body parameters in the order notifications.rules.ts gives.
 */
export type TemplateNames = Record<TemplateKind, string>;

export function loadTemplateNames(env: NodeJS.ProcessEnv = process.env): TemplateNames {
  return {
    alert: env.MESSAGING_ALERT_TEMPLATE || 'vigia_alerta',
    escalation: env.MESSAGING_ESCALATION_TEMPLATE || 'vigia_alerta_escalada',
    digest: env.MESSAGING_DIGEST_TEMPLATE || 'vigia_resumen',
    caregiver: env.MESSAGING_CAREGIVER_TEMPLATE || 'vigia_cuidador',
  };
}

/** WhatsApp's customer service window: free text only within 24 hours of the person's last message. */
export const CONVERSATION_WINDOW_MS = 24 * 3600_000;

/** True when `phone` wrote to this organisation's number within the last 24 hours (inbound messages are kept in `messages`). */
export function conversationOpen(sequelize: Sequelize, now: () => Date) {
  return async (clientId: number, phone: string): Promise<boolean> => {
    const rows = await select<{ one: number }>(
      sequelize,
      `SELECT 1 AS one FROM messages WHERE client_id = :clientId AND phone = :phone AND message_type = 'incoming' AND created_at > :since LIMIT 1`,
      { clientId, phone, since: new Date(now().getTime() - CONVERSATION_WINDOW_MS) },
    );
    return rows.length > 0;
  };
}

/** Why a send did not end accepted, in the record's terms. */
export class DeliveryError extends Error {
  constructor(
    message: string,
    /** refused: retrying cannot help; unavailable: not sent, may pass later; unknown: may have been accepted. */
    readonly kind: 'refused' | 'unavailable' | 'unknown',
    /** The provider's code (SMTP reply, HTTP status), when it answered one. */
    readonly code: number | null,
  ) {
    super(message);
  }
}

export interface NotificationChannel {
  send(message: OutgoingNotification): Promise<{ providerId: string | null }>;
  /** Sends of this channel run this many at once (one slow recipient holds one place). */
  pool: number;
  /** The send job's claim: longer than the adapter can wait, so no second process sends it meanwhile. */
  lockMs: number;
}

export type ChannelMap = Record<Channel, NotificationChannel>;

const POOL = 4;
const lockFor = (limitMs: number) => Math.max(LOCK_MS, limitMs + 5 * 60_000);

export function notificationChannels(adapters: {
  email: EmailSender;
  whatsapp: MessagingChannel;
  /** Whether a person has an open WhatsApp conversation with the organisation (conversationOpen). */
  conversationOpen: (clientId: number, phone: string) => Promise<boolean>;
  templates?: TemplateNames;
}): ChannelMap {
  const templates = adapters.templates ?? loadTemplateNames();
  return {
    email: {
      pool: POOL,
      lockMs: lockFor(EMAIL_SEND_LIMIT_MS),
      async send(m) {
        try {
          return await adapters.email.send({ to: m.to, subject: m.subject, text: m.text, key: m.key });
        } catch (err) {
          if (!(err instanceof EmailError)) throw err;
          throw new DeliveryError(err.message, err.outcomeUnknown ? 'unknown' : err.retryable ? 'unavailable' : 'refused', err.smtpCode);
        }
      },
    },
    whatsapp: {
      pool: POOL,
      lockMs: lockFor(MESSAGING_TIMEOUT_MS),
      async send(m) {
        try {
          // A business-initiated message is a template; free text only inside an open conversation.
          if (m.template && !(await adapters.conversationOpen(m.clientId, m.to)))
            return await adapters.whatsapp.send({
              to: m.to,
              kind: 'template',
              body: m.text,
              template: templates[m.template.kind],
              params: m.template.params,
              language: 'es',
              key: m.key,
            });
          return await adapters.whatsapp.send({ to: m.to, kind: 'text', body: m.text, key: m.key });
        } catch (err) {
          if (!(err instanceof ChannelError)) throw err;
          throw new DeliveryError(err.message, err.outcomeUnknown ? 'unknown' : err.retryable ? 'unavailable' : 'refused', err.httpStatus);
        }
      },
    },
  };
}
