import type { Transporter } from 'nodemailer';
import type { Sequelize } from 'sequelize';
import { insertReturningId } from '../db/sql.js';

/**
 * E-mail (D18, issue 20): `nodemailer` over SMTP when SMTP_URL is set (e.g.
 * `smtps://user:pass@smtp.example.com:465`), sending from SMTP_FROM. Without SMTP_URL the local
 * default keeps every e-mail in the `email_outbox` table, as the SMS adapter keeps its outbox, so
 * the demo works and staff can see what would have gone out.
 */

interface OutboundEmail {
  to: string;
  subject: string;
  text: string;
  /**
   * Our own id of the message, the same on every try: it becomes the Message-ID
   * (`<key@host>`), by which the receiving side can recognise a resend.
   */
  key?: string;
}

export interface EmailSender {
  readonly mode: 'local' | 'smtp';
  /** Sends and answers the server's message id; throws an EmailError when the server refuses or is down. */
  send(message: OutboundEmail): Promise<{ providerId: string | null }>;
}

export class EmailError extends Error {
  constructor(
    message: string,
    /** False when retrying cannot help (the server refused this recipient or message: 5xx). */
    readonly retryable: boolean,
    /** The SMTP reply code, when the server answered one. */
    readonly smtpCode: number | null = null,
    /**
     * The server went quiet after the connection was made: it may have accepted the message
     * (issue 41), so a retry must carry the same Message-ID.
     */
    readonly outcomeUnknown = false,
  ) {
    super(message);
  }
}

export interface EmailConfig {
  url: string | null;
  from: string | null;
  /** How long the server may stay silent at any stage (default SMTP_STAGE_TIMEOUT_MS); tests shorten it. */
  stageTimeoutMs?: number;
}

export function loadEmailConfig(env: NodeJS.ProcessEnv = process.env): EmailConfig {
  return { url: env.SMTP_URL || null, from: env.SMTP_FROM || null };
}

const DEFAULT_FROM = 'Vigía <no-responder@vigia.local>';

/**
 * Timeouts as SMTP's own (RFC 5321 §4.5.3.2): connecting and the greeting are short (a server
 * that does not answer them has not seen the message, so a retry is safe); once the message is
 * under way the server may take up to 10 minutes for the reply to its final '.', and a client
 * that gives up sooner makes the server's later acceptance a duplicate (issue 41: a server that
 * held a message 30 s got it three times).
 */
const CONNECT_TIMEOUT_MS = 30_000;
export const SMTP_STAGE_TIMEOUT_MS = 10 * 60_000;
/** The whole send, whatever the stages take: the send job's lock is longer (notifications.channels.ts). */
export const EMAIL_SEND_LIMIT_MS = 15 * 60_000;

/** The Message-ID's right side: the sender's own domain. */
function messageIdHost(from: string): string {
  return /@([A-Za-z0-9.-]+)>?\s*$/.exec(from)?.[1] ?? 'vigia.local';
}

export function createEmailSender(opts: { sequelize: Sequelize; config: EmailConfig; now: () => Date }): EmailSender {
  const { sequelize, config } = opts;
  if (!config.url) {
    return {
      mode: 'local',
      async send(m) {
        const id = await insertReturningId(
          sequelize,
          'INSERT INTO email_outbox ("to", subject, body, created_at) VALUES (:to, :subject, :body, :now) RETURNING id',
          { to: m.to, subject: m.subject, body: m.text, now: opts.now() },
        );
        return { providerId: `local-${id}` };
      },
    };
  }
  const url = config.url;
  const from = config.from ?? DEFAULT_FROM;
  const host = messageIdHost(from);
  const stageTimeout = config.stageTimeoutMs ?? SMTP_STAGE_TIMEOUT_MS;
  // nodemailer is loaded with the first e-mail, not at start-up (14 MB the server would hold before
  // any alert).
  let transport: Promise<Transporter> | null = null;
  const connect = () =>
    (transport ??= import('nodemailer').then(({ default: nodemailer }) =>
      nodemailer.createTransport(
        {
          url,
          connectionTimeout: Math.min(CONNECT_TIMEOUT_MS, stageTimeout),
          greetingTimeout: Math.min(CONNECT_TIMEOUT_MS, stageTimeout),
          socketTimeout: stageTimeout,
        },
        { from },
      ),
    ));
  return {
    mode: 'smtp',
    async send(m) {
      const smtp = await connect();
      let timer: NodeJS.Timeout | undefined;
      try {
        const info = await Promise.race([
          smtp.sendMail({ to: m.to, subject: m.subject, text: m.text, ...(m.key ? { messageId: `<${m.key}@${host}>` } : {}) }),
          new Promise<never>((_, reject) => {
            timer = setTimeout(
              () => reject(Object.assign(new Error('Timeout'), { code: 'ETIMEDOUT', timeoutType: 'SOCKET_TIMEOUT' })),
              Math.max(stageTimeout, EMAIL_SEND_LIMIT_MS),
            );
          }),
        ]);
        return { providerId: typeof info.messageId === 'string' ? info.messageId.slice(0, 200) : null };
      } catch (err) {
        const code = (err as { responseCode?: number }).responseCode ?? null;
        // 5xx is the server refusing this message for good; 4xx and no answer may pass later.
        const retryable = code == null || code < 500;
        // Silence after connecting and greeting: the message may have been accepted.
        const { code: errCode, timeoutType } = err as { code?: string; timeoutType?: string };
        const unknown = code == null && errCode === 'ETIMEDOUT' && timeoutType === 'SOCKET_TIMEOUT';
        throw new EmailError(
          code ? `El servidor de correo respondió ${code}` : `El servidor de correo no responde (${(err as Error).message})`,
          retryable,
          code,
          unknown,
        );
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
