import { Router } from 'express';
import { tooManyRequests } from '../../http/errors.js';
import { route } from '../../http/operations.js';
import { publicBase } from '../../http/origin.js';
import { RateLimiter } from '../../http/rate-limit.js';
import { completePasswordReset, requestPasswordReset, type PasswordResetDeps } from './password-resets.service.js';

const TOO_MANY = 'Demasiadas solicitudes para restablecer la contraseña. Espere unos minutos e intente de nuevo.';

/** '¿Olvidó su contraseña?' (issue 38): no session; both answers say nothing of whose account it is. */
export function passwordResetsRouter(deps: PasswordResetDeps): Router {
  const r = Router();
  // Per e-mail: a mailbox is not flooded. Per address: one client cannot walk a list of e-mails.
  // The same limits for an e-mail that belongs to nobody, so a 429 tells nothing either.
  const byEmail = new RateLimiter(3, 15 * 60_000);
  const byIp = new RateLimiter(10, 15 * 60_000);
  route(r, 'createPasswordReset', [], async (req, res) => {
    const email = req.body.email.trim().toLowerCase();
    const ip = req.ip ?? 'unknown';
    const nowMs = deps.now().getTime();
    const wait = Math.max(byEmail.retryAfter(email, nowMs), byIp.retryAfter(ip, nowMs));
    if (wait > 0) throw tooManyRequests(TOO_MANY, wait);
    byEmail.hit(email, nowMs);
    byIp.hit(ip, nowMs);
    res.json(await requestPasswordReset(deps, email, req.ip ?? null, publicBase(deps.publicUrl, req)));
  });
  route(r, 'updatePasswordReset', [], async (req, res) => {
    res.json(await completePasswordReset(deps, req.params.token, req.body, req.ip ?? null));
  });
  return r;
}
