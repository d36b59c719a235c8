import { Router, type Request, type Response } from 'express';
import { requireStaff, staffOf } from '../../http/auth.js';
import { readListParams, sendList } from '../../http/list-params.js';
import { readIntParam } from '../../http/params.js';
import * as users from './users.service.js';

/** Users of the signed-in user's client (03 §2 'Usuarios'): any staff reads, only `admin` writes (D13). */
export function usersRouter(deps: users.UserDeps): Router {
  const r = Router();
  r.get('/users', requireStaff(), async (req, res) => {
    const status = req.query.status != null ? Number(req.query.status) : undefined;
    const { rows, total } = await users.listUsers(deps, staffOf(req).clientId, readListParams(req, 10), {
      status,
      role_name: req.query.role_name as string | undefined,
    });
    sendList(res, rows, total);
  });
  r.post('/users', requireStaff('administer'), async (req, res) => {
    res.status(201).json(await users.createUser(deps, staffOf(req), req.body));
  });
  r.get('/users/:id', requireStaff(), async (req, res) => {
    res.json(await users.getUser(deps, staffOf(req).clientId, readIntParam(req, 'id')));
  });
  const update = async (req: Request, res: Response) => {
    res.json(await users.updateUser(deps, staffOf(req), readIntParam(req, 'id'), req.body));
  };
  r.put('/users/:id', requireStaff('administer'), update);
  r.patch('/users/:id', requireStaff('administer'), update);
  return r;
}
