import { ChannelError, MESSAGING_TIMEOUT_MS, type MessagingChannel } from '../../adapters/messaging.js';
import { EMAIL_SEND_LIMIT_MS, EmailError, type EmailSender } from '../../adapters/email.js';
import { LOCK_MS } from '../../jobs/queue.js';
import type { Channel } from './notifications.rules.js';

/**
 * The channels the care team is told on (issue 40): a channel is its adapter, one entry here and
 * one preference column (`media_<channel>`, users.preferences.ts). The jobs never ask which
 * channel they hold.
 */

/** One message as the jobs hand it to a channel. */
export interface OutgoingNotification {
  to: string;
  subject: string;
  text: string;
  /** The same on every try of this message (Message-ID, idempotency key): a resend can be recognised. */
  key: string;
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

export function notificationChannels(adapters: { email: EmailSender; whatsapp: MessagingChannel }): ChannelMap {
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
          return await adapters.whatsapp.send({ to: m.to, kind: 'text', body: m.text, key: m.key });
        } catch (err) {
          if (!(err instanceof ChannelError)) throw err;
          throw new DeliveryError(err.message, err.outcomeUnknown ? 'unknown' : err.retryable ? 'unavailable' : 'refused', err.httpStatus);
        }
      },
    },
  };
}
