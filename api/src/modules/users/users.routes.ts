import { Router } from 'express';
import { requireStaff, staffOf } from '../../http/auth.js';
import { readListParams, sendList } from '../../http/list-params.js';
import { route, type OperationHandler } from '../../http/operations.js';
import { readIntParam } from '../../http/params.js';
import * as users from './users.service.js';

/** Users of the signed-in user's client (03 §2 'Usuarios'): any staff reads, only `admin` writes (D13). */
export function usersRouter(deps: users.UserDeps): Router {
  const r = Router();
  route(r, 'listUsers', [requireStaff()], async (req, res) => {
    const { rows, total } = await users.listUsers(deps, staffOf(req).clientId, readListParams(req, 10, users.USER_FIELDS));
    sendList(res, rows, total);
  });
  route(r, 'createUser', [requireStaff('administer')], async (req, res) => {
    res.status(201).json(await users.createUser(deps, staffOf(req), req.body));
  });
  route(r, 'getUser', [requireStaff()], async (req, res) => {
    res.json(await users.getUser(deps, staffOf(req).clientId, readIntParam(req, 'id')));
  });
  const update: OperationHandler<'updateUser'> = async (req, res) => {
    res.json(await users.updateUser(deps, staffOf(req), readIntParam(req, 'id'), req.body));
  };
  route(r, 'updateUser', [requireStaff('administer')], update);
  route(r, 'patchUser', [requireStaff('administer')], update);
  return r;
}
