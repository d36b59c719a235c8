import type { Router } from 'express';
import { resourceRouter, type EngineDeps } from '../../resources/resource.engine.js';
import { usersResource, type UserDeps } from './users.resource.js';

/** Users of the signed-in user's client (03 §2 'Usuarios'), served by the resource engine. */
export function usersRouter(deps: UserDeps & EngineDeps): Router {
  return resourceRouter(usersResource(deps), deps);
}
