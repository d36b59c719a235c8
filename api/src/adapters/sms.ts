import type { Sequelize } from 'sequelize';
import { insertReturningId } from '../db/sql.js';

interface SmsMessage {
  clientId: number | null;
  /** The patient it is for (a one-time code), so the record can name them. */
  patientId?: number | null;
  to: string;
  body: string;
}

export interface SmsSender {
  send(message: SmsMessage): Promise<void>;
}

/**
 * Every SMS is first written to the outbox table, so staff (role admin) can read what was sent
 * and the demo works without a provider. With SMS_URL set, the outbox row is then delivered by
 * POSTing `{to, body}` to the provider and marked sent or failed.
 */
export function createSmsSender(opts: {
  sequelize: Sequelize;
  url: string | null;
  token: string | null;
  now: () => Date;
  fetchImpl?: typeof fetch;
  log?: (msg: string, err?: unknown) => void;
  /** Without a provider in development, also print each SMS so a demo login needs no API call. */
  echo?: (line: string) => void;
}): SmsSender {
  const { sequelize, url, token } = opts;
  const doFetch = opts.fetchImpl ?? fetch;
  return {
    async send({ clientId, patientId, to, body }) {
      const id = await insertReturningId(
        sequelize,
        'INSERT INTO sms_outbox (client_id, patient_id, "to", body, status, created_at) VALUES (:clientId, :patientId, :to, :body, :status, :now) RETURNING id',
        { clientId, patientId: patientId ?? null, to, body, status: url ? 'queued' : 'sent', now: opts.now() },
      );
      if (!url) {
        opts.echo?.(`[sms] para ${to}: ${body}`);
        return;
      }
      let status = 'failed';
      let providerId: string | null = null;
      try {
        const res = await doFetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
          body: JSON.stringify({ to, body }),
          signal: AbortSignal.timeout(10_000),
        });
        if (res.ok) {
          status = 'sent';
          const data = (await res.json().catch(() => ({}))) as { id?: string };
          providerId = data.id ? String(data.id) : null;
        }
      } catch (err) {
        opts.log?.('sms delivery failed', err);
      }
      await sequelize.query('UPDATE sms_outbox SET status = :status, provider_id = :providerId WHERE id = :id', {
        replacements: { status, providerId, id },
      });
    },
  };
}
