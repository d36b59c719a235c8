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
  ) {
    super(message);
  }
}

export interface EmailConfig {
  url: string | null;
  from: string | null;
}

export function loadEmailConfig(env: NodeJS.ProcessEnv = process.env): EmailConfig {
  return { url: env.SMTP_URL || null, from: env.SMTP_FROM || null };
}

const DEFAULT_FROM = 'Vigía <no-responder@vigia.local>';

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
  // nodemailer is loaded with the first e-mail, not at start-up (14 MB the server would hold before
  // any alert). Short timeouts: a stalled server must fail the try well within the job's lock (5 minutes).
  let transport: Promise<Transporter> | null = null;
  const connect = () =>
    (transport ??= import('nodemailer').then(({ default: nodemailer }) =>
      nodemailer.createTransport(
        { url, connectionTimeout: 15_000, greetingTimeout: 15_000, socketTimeout: 30_000 },
        { from: config.from ?? DEFAULT_FROM },
      ),
    ));
  return {
    mode: 'smtp',
    async send(m) {
      const smtp = await connect();
      try {
        const info = await smtp.sendMail({ to: m.to, subject: m.subject, text: m.text });
        return { providerId: typeof info.messageId === 'string' ? info.messageId.slice(0, 200) : null };
      } catch (err) {
        const code = (err as { responseCode?: number }).responseCode ?? null;
        // 5xx is the server refusing this message for good; 4xx and no answer may pass later.
        const retryable = code == null || code < 500;
        throw new EmailError(
          code ? `El servidor de correo respondió ${code}` : `El servidor de correo no responde (${(err as Error).message})`,
          retryable,
          code,
        );
      }
    },
  };
}
