import { Router } from 'express';
import { requireStaff, staffOf } from '../../http/auth.js';
import { readListParams, sendList } from '../../http/list-params.js';
import { route } from '../../http/operations.js';
import { readIntParam } from '../../http/params.js';
import {
  getIhceSettings,
  getRda,
  listRdas,
  resendRda,
  summarizeRdas,
  testIhceConnection,
  updateIhceSettings,
  type RdaDeps,
  type RdaListDeps,
} from './rdas.service.js';

/**
 * The RDA documents (issue 51), read by administrators and the clinical staff of the organisation;
 * 'Reenviar' and 'Integraciones → IHCE' are administrators' (D13), as the webhook's are.
 */
export function rdasRouter(deps: RdaDeps & RdaListDeps): Router {
  const r = Router();
  route(r, 'listRdas', [requireStaff('clinical.write')], async (req, res) => {
    const q = req.query;
    const { rows, total } = await listRdas(deps, staffOf(req).clientId, readListParams(req, 20), {
      status: q.status,
      kind: q.kind,
      patient_id: q.patient_id || undefined,
      from: q.from || undefined,
      to: q.to || undefined,
    });
    sendList(res, rows, total);
  });
  // Before getRda: '/rdas/summary' is not an RDA's id.
  route(r, 'getRdaSummary', [requireStaff('clinical.write')], async (req, res) => {
    res.json(await summarizeRdas(deps, staffOf(req).clientId));
  });
  route(r, 'getRda', [requireStaff('clinical.write')], async (req, res) => {
    res.json(await getRda(deps, staffOf(req).clientId, readIntParam(req, 'id')));
  });
  route(r, 'resendRda', [requireStaff('administer')], async (req, res) => {
    res.json(await resendRda(deps, staffOf(req).clientId, readIntParam(req, 'id')));
  });
  route(r, 'getClientIhce', [requireStaff('administer')], async (req, res) => {
    res.json(await getIhceSettings(deps, staffOf(req).clientId, readIntParam(req, 'id')));
  });
  route(r, 'updateClientIhce', [requireStaff('administer')], async (req, res) => {
    res.json(await updateIhceSettings(deps, staffOf(req).clientId, readIntParam(req, 'id'), req.body));
  });
  route(r, 'testClientIhce', [requireStaff('administer')], async (req, res) => {
    res.json(await testIhceConnection(deps, staffOf(req).clientId, readIntParam(req, 'id')));
  });
  return r;
}
