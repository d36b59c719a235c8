import type { Router } from 'express';
import { requireStaff, staffOf } from '../../http/auth.js';
import { route } from '../../http/operations.js';
import { readIntParam } from '../../http/params.js';
import { resourceRouter, type EngineDeps } from '../../resources/resource.engine.js';
import { toUserDto, usersResource, type UserDeps } from './users.resource.js';
import { setBreakGlass } from './users.service.js';

/** Users of the signed-in user's client (03 §2 'Usuarios'), served by the resource engine; break-glass accounts from 'Seguridad'. */
export function usersRouter(deps: UserDeps & EngineDeps): Router {
  const r = resourceRouter(usersResource(deps), deps);
  route(r, 'setUserBreakGlass', [requireStaff('administer')], async (req, res) => {
    const user = await setBreakGlass(staffOf(req), readIntParam(req, 'id'), req.body.break_glass, deps.now());
    res.json(toUserDto(deps.catalogues, user));
  });
  return r;
}
