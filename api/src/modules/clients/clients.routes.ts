import { Router } from 'express';
import { requireStaff, staffOf } from '../../http/auth.js';
import { route, type OperationHandler } from '../../http/operations.js';
import { readIntParam } from '../../http/params.js';
import { getClient, updateClientSettings } from './clients.service.js';

/** `allowHttp` (WEBHOOKS_ALLOW_HTTP=1): http:// and loopback service URLs for a local receiver; otherwise https:// only (03 §5). */
export function clientsRouter(opts: { allowHttp?: boolean } = {}): Router {
  const r = Router();
  route(r, 'getClient', [requireStaff()], async (req, res) => {
    res.json(await getClient(staffOf(req).clientId, readIntParam(req, 'id')));
  });
  const update: OperationHandler<'updateClient'> = async (req, res) => {
    res.json(await updateClientSettings(staffOf(req).clientId, readIntParam(req, 'id'), req.body, { allowHttp: opts.allowHttp ?? false }));
  };
  route(r, 'updateClient', [requireStaff('administer')], update);
  route(r, 'patchClient', [requireStaff('administer')], update);
  return r;
}
