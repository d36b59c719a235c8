import type { Sequelize } from 'sequelize';
import { Webhook } from 'standardwebhooks';
import { execute, select } from '../../db/sql.js';
import type { JobRunner } from '../../jobs/queue.js';
import type { ClientWebhookState } from '../clients/clients.webhook-state.js';
import { DELIVERY_JOB } from './webhooks.queue.js';
import {
  DELIVERY_MAX_ATTEMPTS,
  DELIVERY_TIMEOUT_MS,
  attemptError,
  shouldSwitchOff,
  switchOffReason,
  webhookSecret,
} from './webhooks.rules.js';

export interface WebhookDeps {
  sequelize: Sequelize;
  jobs: JobRunner;
  now: () => Date;
  log: (msg: string, err?: unknown) => void;
  fetchImpl?: typeof fetch;
  /** The webhook state on the client row: the clients module writes it (composition root). */
  clientState: ClientWebhookState;
}

interface DeliveryRow {
  id: number;
  client_id: number;
  patient_id: number | null;
  webhook_id: string;
  payload: string;
  status: string;
  attempts: number;
  resends: number;
  webhook_url: string | null;
  security_phrase: string | null;
  webhook_validated: boolean | number;
  time_zone: string;
}

export interface AttemptResult {
  ok: boolean;
  statusCode: number | null;
  error: string | null;
}

/** POSTs a signed body once, with a timeout, and logs the attempt. Redirects count as failures. */
export async function postSigned(
  deps: Pick<WebhookDeps, 'sequelize' | 'fetchImpl'>,
  target: { deliveryId: number; clientId: number; url: string; phrase: string; webhookId: string; body: string },
  now: Date,
): Promise<AttemptResult> {
  const signature = new Webhook(webhookSecret(target.phrase)).sign(target.webhookId, now, target.body);
  const started = Date.now();
  let statusCode: number | null = null;
  let error: string | null = null;
  try {
    const res = await (deps.fetchImpl ?? fetch)(target.url, {
      method: 'POST',
      redirect: 'manual',
      signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
      headers: {
        'content-type': 'application/fhir+json',
        'user-agent': 'Vigia-Webhooks/1.0',
        'webhook-id': target.webhookId,
        'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
        'webhook-signature': signature,
      },
      body: target.body,
    });
    statusCode = res.status;
    await res.body?.cancel().catch(() => undefined);
    if (res.status < 200 || res.status >= 300) error = attemptError(res.status, null);
  } catch (err) {
    error = attemptError(null, err);
  }
  await execute(
    deps.sequelize,
    `INSERT INTO webhook_attempts (delivery_id, client_id, url, status_code, error, duration_ms, created_at)
     VALUES (:deliveryId, :clientId, :url, :statusCode, :error, :duration, :now)`,
    {
      deliveryId: target.deliveryId,
      clientId: target.clientId,
      url: target.url.slice(0, 500),
      statusCode,
      error,
      duration: Date.now() - started,
      now,
    },
  );
  return { ok: error == null, statusCode, error };
}

/** The next waiting delivery of the same patient gets its own job once an earlier one is finished. */
async function kickNext(deps: WebhookDeps, d: Pick<DeliveryRow, 'id' | 'client_id' | 'patient_id' | 'resends'>) {
  if (d.patient_id == null) return;
  const [next] = await select<{ id: number }>(
    deps.sequelize,
    `SELECT id FROM webhook_deliveries WHERE patient_id = :patientId AND client_id = :clientId AND status = 'pending' AND id > :id ORDER BY id LIMIT 1`,
    { patientId: d.patient_id, clientId: d.client_id, id: d.id },
  );
  if (!next) return;
  await deps.jobs.enqueue({
    kind: DELIVERY_JOB,
    payload: { deliveryId: Number(next.id) },
    key: `webhook-delivery:${next.id}:after:${d.id}:${d.resends}`,
    clientId: d.client_id,
    maxAttempts: DELIVERY_MAX_ATTEMPTS,
  });
}

async function finish(deps: WebhookDeps, d: DeliveryRow, status: 'delivered' | 'failed', now: Date, last: Partial<AttemptResult> = {}) {
  await execute(
    deps.sequelize,
    `UPDATE webhook_deliveries SET status = :status, locked_until = NULL, delivered_at = :deliveredAt, updated_at = :now,
       last_status_code = COALESCE(:code, last_status_code), last_error = :error WHERE id = :id`,
    { status, deliveredAt: status === 'delivered' ? now : null, now, code: last.statusCode ?? null, error: last.error ?? null, id: d.id },
  );
  await kickNext(deps, d);
}

/** Records a failed attempt on the client's streak; switches the webhook off (visible reason) when it keeps failing. */
async function recordFailure(
  deps: Pick<WebhookDeps, 'sequelize' | 'clientState'>,
  clientId: number,
  error: string,
  now: Date,
): Promise<boolean> {
  await deps.clientState.countFailure(deps.sequelize, clientId, now);
  const [c] = await select<{
    webhook_failures: number;
    webhook_failing_since: string | null;
    time_zone: string;
    webhook_validated: boolean | number;
  }>(deps.sequelize, 'SELECT webhook_failures, webhook_failing_since, time_zone, webhook_validated FROM clients WHERE id = :id', {
    id: clientId,
  });
  if (!c || !c.webhook_validated) return false;
  const since = c.webhook_failing_since ? new Date(c.webhook_failing_since) : now;
  if (!shouldSwitchOff(Number(c.webhook_failures), since, now)) return false;
  await deps.clientState.switchOff(deps.sequelize, clientId, now, switchOffReason(Number(c.webhook_failures), since, error, c.time_zone));
  return true;
}

export async function recordSuccess(deps: Pick<WebhookDeps, 'sequelize' | 'clientState'>, clientId: number): Promise<void> {
  await deps.clientState.clearFailures(deps.sequelize, clientId);
}

async function load(deps: WebhookDeps, id: number): Promise<DeliveryRow | undefined> {
  const [d] = await select<DeliveryRow>(
    deps.sequelize,
    `SELECT d.id, d.client_id, d.patient_id, d.webhook_id, d.payload, d.status, d.attempts, d.resends, c.webhook_url, c.security_phrase, c.webhook_validated, c.time_zone
     FROM webhook_deliveries d JOIN clients c ON c.id = d.client_id WHERE d.id = :id`,
    { id },
  );
  return (
    d && {
      ...d,
      id: Number(d.id),
      client_id: Number(d.client_id),
      patient_id: d.patient_id == null ? null : Number(d.patient_id),
      attempts: Number(d.attempts),
      resends: Number(d.resends),
    }
  );
}

/**
 * One delivery job: waits (does nothing) while an earlier delivery of the same patient is pending,
 * claims the delivery, POSTs it, and either finishes it or throws so the job queue retries it with
 * back-off. The last attempt, or a webhook switched off meanwhile, marks it failed.
 */
async function runDelivery(deps: WebhookDeps, deliveryId: number, now: Date, lastAttempt: boolean): Promise<void> {
  const d = await load(deps, deliveryId);
  if (!d || d.status === 'delivered' || d.status === 'failed') return;
  if (d.patient_id != null) {
    const [earlier] = await select<{ id: number }>(
      deps.sequelize,
      `SELECT id FROM webhook_deliveries WHERE patient_id = :patientId AND client_id = :clientId AND status IN ('pending', 'sending') AND id < :id LIMIT 1`,
      { patientId: d.patient_id, clientId: d.client_id, id: d.id },
    );
    if (earlier) return;
  }
  const claimed = await execute(
    deps.sequelize,
    `UPDATE webhook_deliveries SET status = 'sending', locked_until = :lock, attempts = attempts + 1, updated_at = :now
     WHERE id = :id AND (status = 'pending' OR (status = 'sending' AND locked_until < :now))`,
    { id: d.id, now, lock: new Date(now.getTime() + 2 * DELIVERY_TIMEOUT_MS) },
  );
  if (!claimed) return;
  if (!d.webhook_url || !d.security_phrase || !d.webhook_validated) {
    await finish(deps, d, 'failed', now, { error: 'El webhook no está activo.' });
    return;
  }
  const result = await postSigned(
    deps,
    { deliveryId: d.id, clientId: d.client_id, url: d.webhook_url, phrase: d.security_phrase, webhookId: d.webhook_id, body: d.payload },
    now,
  );
  if (result.ok) {
    await recordSuccess(deps, d.client_id);
    await finish(deps, d, 'delivered', now, result);
    return;
  }
  const switchedOff = await recordFailure(deps, d.client_id, result.error!, now);
  if (switchedOff || lastAttempt || d.attempts + 1 >= DELIVERY_MAX_ATTEMPTS) {
    await finish(deps, d, 'failed', now, result);
    return;
  }
  await execute(
    deps.sequelize,
    `UPDATE webhook_deliveries SET status = 'pending', locked_until = NULL, last_status_code = :code, last_error = :error, updated_at = :now WHERE id = :id`,
    { id: d.id, code: result.statusCode, error: result.error, now },
  );
  throw new Error(`webhook ${d.webhook_id}: ${result.error}`);
}

export function registerWebhookJobs(deps: WebhookDeps): void {
  deps.jobs.register(DELIVERY_JOB, {
    handler: (job, ctx) =>
      runDelivery(deps, Number((job.payload as { deliveryId: number }).deliveryId), ctx.now, job.attempts >= job.max_attempts),
    // An unexpected error on the last attempt: the delivery must not block its patient's queue forever.
    onFailed: async (job, error, ctx) => {
      const d = await load(deps, Number((job.payload as { deliveryId: number }).deliveryId));
      if (d && d.status !== 'delivered' && d.status !== 'failed') await finish(deps, d, 'failed', ctx.now, { error: error.slice(0, 300) });
    },
  });
}
