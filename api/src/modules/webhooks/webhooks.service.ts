import { execute, insertReturning, select } from '../../db/sql.js';
import { AppError, badRequest, conflict, notFound } from '../../http/errors.js';
import type { ListParams } from '../../http/list-params.js';
import { displayName } from '@vigia/contract/rules/names';
import type { components } from '@vigia/contract/openapi';
import { DELIVERY_JOB } from './webhooks.queue.js';
import { postSigned, recordSuccess, type WebhookDeps } from './webhooks.delivery.js';
import { testEventFor } from '../fhir/fhir.mappers.js';
import { DELIVERY_MAX_ATTEMPTS, newWebhookId } from './webhooks.rules.js';

type Notification = components['schemas']['Notification'];
type WebhookDeliveryDto = components['schemas']['WebhookDelivery'];

const VALIDATED_MESSAGE = 'El webhook respondió correctamente y quedó validado.';

interface ClientWebhook {
  id: number;
  name: string;
  webhook_url: string | null;
  security_phrase: string | null;
}

/** 'Validar' (D19): a signed test event, sent now; a 2xx answer marks the webhook validated and switches it back on. */
export async function validateWebhook(deps: WebhookDeps, clientId: number, id: number): Promise<Notification> {
  if (clientId !== id) throw notFound('El cliente no existe.');
  const [c] = await select<ClientWebhook>(deps.sequelize, 'SELECT id, name, webhook_url, security_phrase FROM clients WHERE id = :id', {
    id,
  });
  if (!c) throw notFound('El cliente no existe.');
  if (!c.webhook_url || !c.security_phrase)
    throw badRequest('webhook_url', 'Registre primero la URL del webhook y la palabra de seguridad.');
  const now = deps.now();
  const deliveryId = await enqueueTestDelivery(deps, c, now);
  const [d] = await select<{ webhook_id: string; payload: string }>(
    deps.sequelize,
    'SELECT webhook_id, payload FROM webhook_deliveries WHERE id = :id',
    { id: deliveryId },
  );
  const result = await postSigned(
    deps,
    { deliveryId, clientId: id, url: c.webhook_url, phrase: c.security_phrase, webhookId: d.webhook_id, body: d.payload },
    now,
  );
  await execute(
    deps.sequelize,
    `UPDATE webhook_deliveries SET status = :status, attempts = 1, last_status_code = :code, last_error = :error, delivered_at = :deliveredAt, updated_at = :now WHERE id = :id`,
    {
      status: result.ok ? 'delivered' : 'failed',
      code: result.statusCode,
      error: result.error,
      deliveredAt: result.ok ? now : null,
      now,
      id: deliveryId,
    },
  );
  if (!result.ok) {
    const message = `El webhook no respondió correctamente (${result.error}). Revise la URL y que el receptor acepte el evento de prueba.`;
    throw new AppError(400, 'webhook_validation_failed', message, [{ field: 'webhook_url', message }]);
  }
  // Only if the URL and phrase are still the ones just tested.
  await deps.clientState.markValidated(deps.sequelize, { id, url: c.webhook_url, phrase: c.security_phrase });
  await recordSuccess(deps, id);
  return { message: VALIDATED_MESSAGE, type: 'success' };
}

/** The test event is logged like any delivery, but sent at once rather than through the queue. */
async function enqueueTestDelivery(deps: WebhookDeps, c: ClientWebhook, now: Date): Promise<number> {
  const payload = testEventFor(c.name, now);
  const [row] = await insertReturning<{ id: number }>(
    deps.sequelize,
    `INSERT INTO webhook_deliveries (client_id, patient_id, event_type, event_key, webhook_id, resource_type, payload, status, attempts, resends, created_at, updated_at)
     VALUES (:clientId, NULL, 'test', :eventKey, :webhookId, 'Parameters', :payload, 'sending', 0, 0, :now, :now) RETURNING id`,
    {
      clientId: c.id,
      eventKey: `test:${now.getTime()}:${Math.random().toString(36).slice(2, 10)}`,
      webhookId: newWebhookId(),
      payload: JSON.stringify(payload),
      now,
    },
  );
  return Number(row.id);
}

interface DeliveryListRow {
  id: number;
  patient_id: number | null;
  first_name: string | null;
  last_name: string | null;
  event_type: WebhookDeliveryDto['event_type'];
  resource_type: string;
  webhook_id: string;
  status: WebhookDeliveryDto['status'];
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  created_at: string;
  delivered_at: string | null;
}

const toDto = (r: DeliveryListRow): WebhookDeliveryDto => ({
  id: Number(r.id),
  patient_id: r.patient_id == null ? null : Number(r.patient_id),
  patient_name: r.first_name ? displayName(`${r.first_name} ${r.last_name ?? ''}`) : null,
  event_type: r.event_type,
  resource_type: r.resource_type,
  webhook_id: r.webhook_id,
  status: r.status,
  attempts: Number(r.attempts),
  last_status_code: r.last_status_code == null ? null : Number(r.last_status_code),
  last_error: r.last_error,
  created_at: new Date(r.created_at).toISOString(),
  delivered_at: r.delivered_at ? new Date(r.delivered_at).toISOString() : null,
});

const SELECT_DELIVERY = `SELECT d.id, d.patient_id, p.first_name, p.last_name, d.event_type, d.resource_type, d.webhook_id, d.status, d.attempts,
  d.last_status_code, d.last_error, d.created_at, d.delivered_at FROM webhook_deliveries d LEFT JOIN patients p ON p.id = d.patient_id`;

export async function listDeliveries(
  deps: Pick<WebhookDeps, 'sequelize'>,
  clientId: number,
  p: ListParams,
  filters: { status?: string; event_type?: string; patient_id?: number },
) {
  const where = ['d.client_id = :clientId'];
  const repl: Record<string, unknown> = { clientId, limit: p.limit, offset: p.offset };
  for (const [k, v] of Object.entries(filters)) {
    if (v === undefined || v === null || v === '') continue;
    where.push(`d.${k} = :${k}`);
    repl[k] = v;
  }
  const cond = where.join(' AND ');
  // Newest first unless asked otherwise; id and created_at grow together.
  const order = p.sort ? p.order : 'DESC';
  const rows = await select<DeliveryListRow>(
    deps.sequelize,
    `${SELECT_DELIVERY} WHERE ${cond} ORDER BY d.id ${order} LIMIT :limit OFFSET :offset`,
    repl,
  );
  const [{ n }] = await select<{ n: number }>(deps.sequelize, `SELECT COUNT(*) AS n FROM webhook_deliveries d WHERE ${cond}`, repl);
  return { rows: rows.map(toDto), total: Number(n) };
}

/** 'Reenviar': the same event (same webhook-id) goes out again through the queue, in order for its patient. */
export async function resendDelivery(deps: WebhookDeps, clientId: number, id: number): Promise<WebhookDeliveryDto> {
  const [d] = await select<{ id: number; status: string; resends: number }>(
    deps.sequelize,
    'SELECT id, status, resends FROM webhook_deliveries WHERE id = :id AND client_id = :clientId',
    { id, clientId },
  );
  if (!d) throw notFound('La entrega no existe.');
  if (d.status === 'pending' || d.status === 'sending') throw conflict('La entrega ya está en cola de envío.');
  const [c] = await select<{ webhook_url: string | null; webhook_validated: boolean | number }>(
    deps.sequelize,
    'SELECT webhook_url, webhook_validated FROM clients WHERE id = :id',
    { id: clientId },
  );
  if (!c?.webhook_url || !c.webhook_validated)
    throw badRequest('webhook_url', "El webhook no está activo: pulse 'Validar' antes de reenviar.");
  const resends = Number(d.resends) + 1;
  const now = deps.now();
  await deps.sequelize.transaction(async (transaction) => {
    await execute(
      deps.sequelize,
      `UPDATE webhook_deliveries SET status = 'pending', attempts = 0, resends = :resends, delivered_at = NULL, locked_until = NULL, updated_at = :now WHERE id = :id`,
      { id, resends, now },
      transaction,
    );
    await deps.jobs.enqueue(
      {
        kind: DELIVERY_JOB,
        payload: { deliveryId: id },
        key: `webhook-delivery:${id}:resend:${resends}`,
        clientId,
        maxAttempts: DELIVERY_MAX_ATTEMPTS,
      },
      transaction,
    );
  });
  const [row] = await select<DeliveryListRow>(deps.sequelize, `${SELECT_DELIVERY} WHERE d.id = :id`, { id });
  return toDto(row);
}
