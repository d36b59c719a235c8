import { Router } from 'express';
import { route } from '../../http/operations.js';
import { createSso, type SsoDeps } from './sso.service.js';

/** Single sign-on (03 §2 /login and the provider's callback route); public, mounted before the bearer check. */
export function ssoRouter(deps: SsoDeps): Router {
  const sso = createSso(deps);
  const r = Router();
  route(r, 'startSso', [], async (_req, res) => {
    res.json(await sso.start());
  });
  route(r, 'finishSso', [], async (req, res) => {
    res.status(201).json(await sso.finish(req.body));
  });
  return r;
}
