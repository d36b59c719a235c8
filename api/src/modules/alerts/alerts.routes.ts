import { Router, type Request, type Response } from 'express';
import { principalOf, requireStaff, staffOf } from '../../http/auth.js';
import { sendList } from '../../http/list-params.js';
import { readIntParam } from '../../http/params.js';
import { pageWindow } from './alerts.rules.js';
import * as alerts from './alerts.service.js';

const num = (v: unknown) => (v == null || v === '' ? undefined : Number(v));
const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);

/** `status` of the patient list: 1 (or active) open, 2 (or closed) closed. */
function statusOf(v: unknown): 'open' | 'closed' | undefined {
  if (v === '1' || v === 'active') return 'open';
  if (v === '2' || v === 'closed') return 'closed';
  return undefined;
}

function filtersOf(req: Request): alerts.AlertFilters {
  const q = req.query as Record<string, unknown>;
  return {
    status: statusOf(q.status),
    alert_type: num(q.alert_type),
    clinical_element: num(q.clinical_element),
    priority: num(q.priority),
  };
}

export function alertsRouter(deps: alerts.AlertDeps): Router {
  const r = Router();
  r.get('/patients/:id/alerts', async (req, res) => {
    const { offset, limit } = pageWindow(req.query as Record<string, unknown>, 10);
    const { rows, total } = await alerts.listPatientAlerts(deps, principalOf(req), readIntParam(req, 'id'), filtersOf(req), offset, limit);
    sendList(res, rows, total);
  });
  r.get('/patients/:id/alerts/:alertId', async (req, res) => {
    res.json(await alerts.getPatientAlert(deps, principalOf(req), readIntParam(req, 'id'), readIntParam(req, 'alertId')));
  });
  const close = async (req: Request, res: Response) => {
    res.json(await alerts.closeAlert(deps, staffOf(req), readIntParam(req, 'id'), readIntParam(req, 'alertId'), req.body));
  };
  r.put('/patients/:id/alerts/:alertId', requireStaff(), close);
  r.patch('/patients/:id/alerts/:alertId', requireStaff(), close);
  r.post('/patients/:id/alerts/:alertId/alert_entries', requireStaff(), async (req, res) => {
    res
      .status(201)
      .json(await alerts.addAlertEntry(deps, staffOf(req), readIntParam(req, 'id'), readIntParam(req, 'alertId'), req.body.description));
  });
  r.get('/reports/client_alerts_list', requireStaff(), async (req, res) => {
    const q = req.query as Record<string, unknown>;
    const { offset, limit } = pageWindow(q, 10);
    const { rows, total } = await alerts.listClientAlerts(
      deps,
      staffOf(req),
      { ...filtersOf(req), start_at: str(q.start_at), end_at: str(q.end_at), search: str(q.search) },
      offset,
      limit,
    );
    sendList(res, rows, total);
  });
  r.get('/reports/client_alerts_metrics', requireStaff(), async (req, res) => {
    res.json(await alerts.alertMetrics(deps, staffOf(req), { start_at: str(req.query.start_at), end_at: str(req.query.end_at) }));
  });
  r.get('/reports/client_alerts_count', requireStaff(), async (req, res) => {
    res.json({ total: await alerts.countAlerts(deps, staffOf(req), req.query.status === 'closed' ? 'closed' : 'active') });
  });
  r.get('/alerts/updates', requireStaff(), async (req, res) => {
    res.json(await alerts.alertUpdates(deps, staffOf(req), num(req.query.since_id)));
  });
  return r;
}
