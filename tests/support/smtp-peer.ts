import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { simpleParser } from 'mailparser';
import { createHolds } from './hold.js';

/** An e-mail as it arrived at the loopback SMTP server, parsed with mailparser. */
export interface ReceivedMail {
  from: string;
  to: string[];
  subject: string;
  text: string;
  messageId: string;
}

export interface SmtpPeer {
  /** smtp://127.0.0.1:<port>, for SMTP_URL. */
  url: string;
  received: ReceivedMail[];
  /** Next answers to a message's data, by SMTP reply code (empty = accepted). */
  failNext: number[];
  /** How long to hold a message before accepting it (a slow server); 0 = at once. */
  holdMs: (mail: ReceivedMail) => number;
  /**
   * Messages received again with a Message-ID already accepted: answered 250 and not kept twice,
   * as a server can recognise a resend by its Message-ID (issue 41).
   */
  duplicates: ReceivedMail[];
  close(): Promise<void>;
}

/** A real SMTP server on loopback (smtp-server), without TLS or authentication, that keeps what it receives. */
export async function startSmtpPeer(): Promise<SmtpPeer> {
  const state = {
    received: [] as ReceivedMail[],
    failNext: [] as number[],
    duplicates: [] as ReceivedMail[],
    holdMs: (() => 0) as (mail: ReceivedMail) => number,
  };
  // Held and then accepted even when the client has gone meanwhile: the message is here.
  const { hold, release } = createHolds();
  const server = new SMTPServer({
    disabledCommands: ['AUTH', 'STARTTLS'],
    authOptional: true,
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then(async (mail) => {
          const fail = state.failNext.shift();
          if (fail) return callback(Object.assign(new Error('Servicio no disponible'), { responseCode: fail }));
          const received: ReceivedMail = {
            from: mail.from?.text ?? '',
            to: session.envelope.rcptTo.map((r) => r.address),
            subject: mail.subject ?? '',
            // mailparser ends the text with the message's final line break.
            text: (mail.text ?? '').replace(/\n$/, ''),
            messageId: mail.messageId ?? '',
          };
          await hold(state.holdMs(received));
          if (received.messageId && state.received.some((m) => m.messageId === received.messageId)) state.duplicates.push(received);
          else state.received.push(received);
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return Object.assign(state, {
    url: `smtp://127.0.0.1:${port}`,
    close: () => {
      release();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  });
}
