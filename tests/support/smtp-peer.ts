import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { simpleParser } from 'mailparser';

/** An e-mail as it arrived at the loopback SMTP server, parsed with mailparser. */
export interface ReceivedMail {
  from: string;
  to: string[];
  subject: string;
  text: string;
}

export interface SmtpPeer {
  /** smtp://127.0.0.1:<port>, for SMTP_URL. */
  url: string;
  received: ReceivedMail[];
  /** Next answers to a message's data, by SMTP reply code (empty = accepted). */
  failNext: number[];
  close(): Promise<void>;
}

/** A real SMTP server on loopback (smtp-server), without TLS or authentication, that keeps what it receives. */
export async function startSmtpPeer(): Promise<SmtpPeer> {
  const state = { received: [] as ReceivedMail[], failNext: [] as number[] };
  const server = new SMTPServer({
    disabledCommands: ['AUTH', 'STARTTLS'],
    authOptional: true,
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((mail) => {
          const fail = state.failNext.shift();
          if (fail) return callback(Object.assign(new Error('Servicio no disponible'), { responseCode: fail }));
          state.received.push({
            from: mail.from?.text ?? '',
            to: session.envelope.rcptTo.map((r) => r.address),
            subject: mail.subject ?? '',
            // mailparser ends the text with the message's final line break.
            text: (mail.text ?? '').replace(/\n$/, ''),
          });
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return Object.assign(state, {
    url: `smtp://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}
