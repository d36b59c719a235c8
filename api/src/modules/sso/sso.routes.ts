import { Router } from 'express';
import { createSso, type SsoDeps } from './sso.service.js';

/** Single sign-on (03 §2 /login and the provider's callback route); public, mounted before the bearer check. */
export function ssoRouter(deps: SsoDeps): Router {
  const sso = createSso(deps);
  const r = Router();
  r.post('/sso/authorize', async (_req, res) => {
    res.json(await sso.start());
  });
  r.post('/sso/callback', async (req, res) => {
    res.status(201).json(await sso.finish(req.body));
  });
  return r;
}
