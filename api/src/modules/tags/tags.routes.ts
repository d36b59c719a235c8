import type { Router } from 'express';
import { resourceRouter, type EngineDeps } from '../../resources/resource.engine.js';
import { tagsResource, type TagDeps } from './tags.resource.js';

export function tagsRouter(deps: TagDeps & EngineDeps): Router {
  return resourceRouter(tagsResource(deps), deps);
}
