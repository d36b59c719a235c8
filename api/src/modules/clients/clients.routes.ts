import { Router, type Request, type Response } from 'express';
import { requireStaff, staffOf } from '../../http/auth.js';
import { readIntParam } from '../../http/params.js';
import { getClient, updateClientSettings } from './clients.service.js';

/** `allowHttp`: development and tests accept http:// service URLs (loopback peers); production only https://. */
export function clientsRouter(opts: { allowHttp?: boolean } = {}): Router {
  const r = Router();
  r.get('/clients/:id', requireStaff(), async (req, res) => {
    res.json(await getClient(staffOf(req).clientId, readIntParam(req, 'id')));
  });
  const update = async (req: Request, res: Response) => {
    res.json(await updateClientSettings(staffOf(req).clientId, readIntParam(req, 'id'), req.body, { allowHttp: opts.allowHttp ?? false }));
  };
  r.put('/clients/:id', requireStaff('administer'), update);
  r.patch('/clients/:id', requireStaff('administer'), update);
  return r;
}
