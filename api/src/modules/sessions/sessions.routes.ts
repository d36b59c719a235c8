import { Router } from 'express';
import { principalOf, staffOf } from '../../http/auth.js';
import { tooManyRequests } from '../../http/errors.js';
import { route } from '../../http/operations.js';
import { RateLimiter } from '../../http/rate-limit.js';
import { User } from '../../db/models/users.model.js';
import { buildProfile, createSession, revokeSession, type SessionDeps } from './sessions.service.js';

/** Staff sign-in, sign-out and profile (the patient's one-time-code sign-in is otp.routes.ts). */
export function sessionsRouter(deps: SessionDeps, authenticate: import('express').RequestHandler): Router {
  const r = Router();
  // Password guessing: 10 failures per e-mail and 50 per address in 15 minutes.
  const byEmail = new RateLimiter(10, 15 * 60_000);
  const byIp = new RateLimiter(50, 15 * 60_000);

  route(r, 'createSession', [], async (req, res) => {
    const email = req.body.email.trim().toLowerCase();
    const ip = req.ip ?? 'unknown';
    const wait = Math.max(byEmail.retryAfter(email), byIp.retryAfter(ip));
    if (wait > 0) throw tooManyRequests('Demasiados intentos de inicio de sesión. Espere unos minutos e intente de nuevo.', wait);
    try {
      const session = await createSession(deps, email, req.body.password);
      byEmail.reset(email);
      res.status(201).json(session);
    } catch (err) {
      byEmail.hit(email);
      byIp.hit(ip);
      throw err;
    }
  });
  route(r, 'deleteSession', [authenticate], async (req, res) => {
    await revokeSession(deps, principalOf(req).sessionId);
    res.status(204).end();
  });
  route(r, 'getMe', [authenticate], async (req, res) => {
    const p = staffOf(req);
    res.json(await buildProfile(deps, p.user as User));
  });
  return r;
}
