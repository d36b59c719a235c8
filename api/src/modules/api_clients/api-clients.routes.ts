import type { Router } from 'express';
import { resourceRouter, type EngineDeps } from '../../resources/resource.engine.js';
import { apiClientsResource, type ApiClientDeps } from './api-clients.resource.js';

export function apiClientsRouter(deps: ApiClientDeps & EngineDeps): Router {
  return resourceRouter(apiClientsResource(deps), deps);
}
