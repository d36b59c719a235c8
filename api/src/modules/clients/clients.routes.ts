import { Router } from 'express';
import { requireStaff, staffOf } from '../../http/auth.js';
import { getClient } from './clients.service.js';

export function clientsRouter(): Router {
  const r = Router();
  r.get('/clients/:id', requireStaff(), async (req, res) => {
    res.json(await getClient(staffOf(req).clientId, Number(req.params.id)));
  });
  return r;
}
