import { Router } from 'express';
import { requireStaff, staffOf } from '../../http/auth.js';
import { sendList } from '../../http/list-params.js';
import { idempotent } from '../../http/idempotency.js';
import { route, type OperationHandler } from '../../http/operations.js';
import { readIntParam } from '../../http/params.js';
import type { QueryParams } from '@vigia/contract/rules/operations';
import { pageWindow } from './alerts.rules.js';
import * as alerts from './alerts.service.js';

// The contract validator has already checked and coerced every query value; an empty text is no filter.
const str = (v: string | undefined) => (v !== '' ? v : undefined);

/** `status` of the patient list: 1 (or active) open, 2 (or closed) closed. */
function statusOf(v: unknown): 'open' | 'closed' | undefined {
  if (v === '1' || v === 'active') return 'open';
  if (v === '2' || v === 'closed') return 'closed';
  return undefined;
}

/** The filters both lists share (the client's list takes `status` active or closed only). */
function filtersOf(q: QueryParams<'listPatientAlerts'> | QueryParams<'listClientAlerts'>): alerts.AlertFilters {
  return {
    status: statusOf(q.status),
    alert_type: q.alert_type,
    clinical_element: q.clinical_element,
    priority: q.priority,
  };
}

export function alertsRouter(deps: alerts.AlertDeps): Router {
  const r = Router();
  // Staff only (P146): a patient token gets 401 like on every other staff call; the portal shows no alerts.
  route(r, 'listPatientAlerts', [requireStaff()], async (req, res) => {
    const { offset, limit } = pageWindow(req.query, 10);
    const { rows, total } = await alerts.listPatientAlerts(
      deps,
      staffOf(req),
      readIntParam(req, 'id'),
      filtersOf(req.query),
      offset,
      limit,
    );
    sendList(res, rows, total);
  });
  route(r, 'getPatientAlert', [requireStaff()], async (req, res) => {
    res.json(await alerts.getPatientAlert(deps, staffOf(req), readIntParam(req, 'id'), readIntParam(req, 'alertId')));
  });
  // A phone that lost the answer sends the same close or entry again with its Idempotency-Key (issue 50).
  const close: OperationHandler<'closePatientAlert'> = idempotent(deps, async (req, res) => {
    res.json(await alerts.closeAlert(deps, staffOf(req), readIntParam(req, 'id'), readIntParam(req, 'alertId'), req.body));
  });
  route(r, 'closePatientAlert', [requireStaff('clinical.write')], close);
  route(r, 'patchPatientAlert', [requireStaff('clinical.write')], close);
  route(
    r,
    'createAlertEntry',
    [requireStaff('clinical.write')],
    idempotent(deps, async (req, res) => {
      res
        .status(201)
        .json(await alerts.addAlertEntry(deps, staffOf(req), readIntParam(req, 'id'), readIntParam(req, 'alertId'), req.body.description));
    }),
  );
  route(r, 'listClientAlerts', [requireStaff()], async (req, res) => {
    const q = req.query;
    const { offset, limit } = pageWindow(q, 10);
    const { rows, total } = await alerts.listClientAlerts(
      deps,
      staffOf(req),
      { ...filtersOf(q), start_at: str(q.start_at), end_at: str(q.end_at), search: str(q.search), ids: q.id },
      offset,
      limit,
    );
    sendList(res, rows, total);
  });
  route(r, 'getClientAlertsMetrics', [requireStaff()], async (req, res) => {
    res.json(await alerts.alertMetrics(deps, staffOf(req), { start_at: str(req.query.start_at), end_at: str(req.query.end_at) }));
  });
  route(r, 'countClientAlerts', [requireStaff()], async (req, res) => {
    res.json({ total: await alerts.countAlerts(deps, staffOf(req), req.query.status === 'closed' ? 'closed' : 'active') });
  });
  route(r, 'getAlertUpdates', [requireStaff()], async (req, res) => {
    res.json(await alerts.alertUpdates(deps, staffOf(req), req.query.since_id));
  });
  return r;
}
