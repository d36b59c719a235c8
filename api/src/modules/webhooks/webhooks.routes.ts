import { Router } from 'express';
import { requireStaff, staffOf } from '../../http/auth.js';
import { readListParams, sendList } from '../../http/list-params.js';
import { route } from '../../http/operations.js';
import { readIntParam } from '../../http/params.js';
import type { WebhookDeps } from './webhooks.delivery.js';
import { listDeliveries, resendDelivery, validateWebhook } from './webhooks.service.js';

/** HL7 FHIR webhook (03 §2, D19): 'Validar', the delivery log and 'Reenviar'. Administrators only (D13). */
export function webhooksRouter(deps: WebhookDeps): Router {
  const r = Router();
  route(r, 'validateClientWebhook', [requireStaff('administer')], async (req, res) => {
    res.json(await validateWebhook(deps, staffOf(req).clientId, readIntParam(req, 'id')));
  });
  route(r, 'listWebhookDeliveries', [requireStaff('administer')], async (req, res) => {
    const q = req.query;
    const { rows, total } = await listDeliveries(deps, staffOf(req).clientId, readListParams(req, 20), {
      status: q.status,
      event_type: q.event_type,
      patient_id: q.patient_id || undefined,
    });
    sendList(res, rows, total);
  });
  route(r, 'resendWebhookDelivery', [requireStaff('administer')], async (req, res) => {
    res.json(await resendDelivery(deps, staffOf(req).clientId, readIntParam(req, 'id')));
  });
  return r;
}
