import type { Sequelize, Transaction } from 'sequelize';
import { insertReturning, select } from '../../db/sql.js';
import type { JobRunner } from '../../jobs/queue.js';
import type { MeasurementHook } from '../measurements/hooks.js';
import type { AlertHook } from '../alerts/hooks.js';
import { displayName } from '@vigia/contract/rules/names';
import { detectedIssueFor, groupReadings, observationFor, observationKey, type FhirPatientRef } from '../fhir/fhir.mappers.js';
import { DELIVERY_MAX_ATTEMPTS, newWebhookId } from './webhooks.rules.js';

/** The job kind that POSTs one delivery (handler in webhooks.delivery.ts). */
export const DELIVERY_JOB = 'webhook.delivery';

interface ClientFlags {
  webhook_url: string | null;
  webhook_validated: boolean | number;
  webhook_measurements: boolean | number;
  webhook_alerts: boolean | number;
}

/** Of these clients, those whose webhook is registered, validated (and not switched off) and subscribed to `what`. */
async function subscribedClients(
  sequelize: Sequelize,
  clientIds: number[],
  what: 'webhook_measurements' | 'webhook_alerts',
  transaction?: Transaction,
) {
  const rows = await select<ClientFlags & { id: number }>(
    sequelize,
    'SELECT id, webhook_url, webhook_validated, webhook_measurements, webhook_alerts FROM clients WHERE id IN (:clientIds)',
    { clientIds },
    transaction,
  );
  return new Set(rows.filter((c) => c.webhook_url && c.webhook_validated && c[what]).map((c) => Number(c.id)));
}

async function patientRefs(sequelize: Sequelize, ids: number[], transaction?: Transaction): Promise<Map<number, FhirPatientRef>> {
  if (!ids.length) return new Map();
  const rows = await select<{
    id: number;
    nid: string;
    first_name: string;
    last_name: string;
    id_type_code: string;
    id_type_name: string;
    country_code: string;
  }>(
    sequelize,
    `SELECT p.id, p.nid, p.first_name, p.last_name, it.code AS id_type_code, it.name AS id_type_name, c.code AS country_code
     FROM patients p JOIN id_types it ON it.id = p.id_type JOIN countries c ON c.id = it.country_id WHERE p.id IN (:ids)`,
    { ids: [...new Set(ids)] },
    transaction,
  );
  return new Map(rows.map((r) => [Number(r.id), { ...r, id: Number(r.id), display: displayName(`${r.first_name} ${r.last_name}`) }]));
}

interface NewDelivery {
  clientId: number;
  patientId: number | null;
  eventType: 'measurement' | 'alert' | 'test';
  eventKey: string;
  payload: Record<string, unknown>;
}

/**
 * Stores one delivery (once per event: the (client, event_key) pair is unique) and queues its job,
 * keyed by the delivery id. Inside `transaction`, both exist only if the stored reading commits.
 */
async function enqueueDelivery(
  ctx: { sequelize: Sequelize; jobs: JobRunner; now: Date },
  d: NewDelivery,
  transaction?: Transaction,
): Promise<number | null> {
  const rows = await insertReturning<{ id: number }>(
    ctx.sequelize,
    `INSERT INTO webhook_deliveries (client_id, patient_id, event_type, event_key, webhook_id, resource_type, payload, status, attempts, resends, created_at, updated_at)
     VALUES (:clientId, :patientId, :eventType, :eventKey, :webhookId, :resourceType, :payload, 'pending', 0, 0, :now, :now)
     ON CONFLICT (client_id, event_key) DO NOTHING RETURNING id`,
    {
      clientId: d.clientId,
      patientId: d.patientId,
      eventType: d.eventType,
      eventKey: d.eventKey,
      webhookId: newWebhookId(),
      resourceType: String(d.payload.resourceType),
      payload: JSON.stringify(d.payload),
      now: ctx.now,
    },
    transaction,
  );
  const id = rows[0] ? Number(rows[0].id) : null;
  if (id == null) return null;
  await ctx.jobs.enqueue(
    {
      kind: DELIVERY_JOB,
      payload: { deliveryId: id },
      key: `webhook-delivery:${id}`,
      clientId: d.clientId,
      maxAttempts: DELIVERY_MAX_ATTEMPTS,
    },
    transaction,
  );
  return id;
}

/**
 * D19: one FHIR Observation delivery per reading (a blood-pressure pair is one panel) for
 * subscribed clients. Load: the clients' subscription flags, sent with the INSERT.
 */
export const measurementWebhooksHook: MeasurementHook<Set<number>> = {
  load: (ctx, planned) =>
    subscribedClients(ctx.sequelize, [...new Set(planned.map((m) => m.client_id))], 'webhook_measurements', ctx.transaction),
  apply: async (ctx, stored, subscribedClients) => {
    const byClient = new Map<number, typeof stored>();
    for (const m of stored) {
      if (!subscribedClients.has(m.client_id)) continue;
      const list = byClient.get(m.client_id);
      if (list) list.push(m);
      else byClient.set(m.client_id, [m]);
    }
    for (const [clientId, rows] of byClient) {
      const refs = await patientRefs(
        ctx.sequelize,
        rows.map((r) => r.patient_id),
        ctx.transaction,
      );
      for (const group of groupReadings(rows.map((r) => ({ ...r, when: new Date(r.when) })))) {
        const patient = refs.get(group[0].patient_id);
        if (!patient) continue;
        await enqueueDelivery(
          ctx,
          {
            clientId,
            patientId: group[0].patient_id,
            eventType: 'measurement',
            eventKey: observationKey(group),
            // Issued when stored, as the FHIR API says it: the pushed and the pulled Observation are one.
            payload: observationFor(group, patient, group[0].created_at),
          },
          ctx.transaction,
        );
      }
    }
  },
};

/** D19: a FHIR DetectedIssue delivery for a new value alert (type 0) of a client subscribed to 'Alertas de valor'. */
export const queueAlertWebhook: AlertHook = async (ctx, alert) => {
  if (alert.alert_type !== 0) return;
  if (!(await subscribedClients(ctx.sequelize, [alert.client_id], 'webhook_alerts', ctx.transaction)).has(alert.client_id)) return;
  const patient = (await patientRefs(ctx.sequelize, [alert.patient_id], ctx.transaction)).get(alert.patient_id);
  if (!patient) return;
  let observation: Record<string, unknown> | null = null;
  if (alert.measurement_id != null) {
    const [m] = await select<{ id: number; clinical_element: number; value: number; when: string; created_at: string | Date }>(
      ctx.sequelize,
      'SELECT id, clinical_element, value, "when", created_at FROM measurements WHERE id = :id AND client_id = :clientId',
      { id: alert.measurement_id, clientId: alert.client_id },
      ctx.transaction,
    );
    if (m)
      observation = observationFor(
        [{ id: Number(m.id), clinical_element: Number(m.clinical_element), value: Number(m.value), when: new Date(m.when) }],
        patient,
        new Date(m.created_at),
      );
  }
  const payload = detectedIssueFor(
    { id: alert.id, alert_type: alert.alert_type, priority: alert.priority, description: null, created_at: ctx.now },
    patient,
    observation,
  );
  await enqueueDelivery(
    ctx,
    { clientId: alert.client_id, patientId: alert.patient_id, eventType: 'alert', eventKey: `alert:${alert.id}`, payload },
    ctx.transaction,
  );
};
