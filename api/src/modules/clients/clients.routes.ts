import { Router } from 'express';
import type { Sequelize } from 'sequelize';
import type { Catalogues } from '../catalogues/catalogues.service.js';
import { requireStaff, staffOf } from '../../http/auth.js';
import { route, type OperationHandler } from '../../http/operations.js';
import { readIntParam } from '../../http/params.js';
import { getClient, updateClientSettings } from './clients.service.js';

/**
 * `allowHttp` (WEBHOOKS_ALLOW_HTTP=1): http:// and loopback service URLs for a local receiver; otherwise https:// only (03 §5).
 * `onEscalationChanged`: a saved escalation delay also reaches the alerts already open (the
 * notifications module re-times their escalation; the composition root wires it).
 */
export function clientsRouter(opts: {
  sequelize: Sequelize;
  catalogues: Catalogues;
  allowHttp?: boolean;
  onEscalationChanged?: (clientId: number, minutes: number) => Promise<void>;
}): Router {
  const r = Router();
  route(r, 'getClient', [requireStaff()], async (req, res) => {
    res.json(await getClient(opts.catalogues, staffOf(req).clientId, readIntParam(req, 'id')));
  });
  const update: OperationHandler<'updateClient'> = async (req, res) => {
    const client = await updateClientSettings(opts.sequelize, opts.catalogues, staffOf(req).clientId, readIntParam(req, 'id'), req.body, {
      allowHttp: opts.allowHttp ?? false,
    });
    if (req.body.escalation_minutes !== undefined) await opts.onEscalationChanged?.(client.id, req.body.escalation_minutes);
    res.json(client);
  };
  route(r, 'updateClient', [requireStaff('administer')], update);
  route(r, 'patchClient', [requireStaff('administer')], update);
  return r;
}
