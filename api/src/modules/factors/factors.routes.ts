import { Router, type Request } from 'express';
import { requireStaff, staffOf } from '../../http/auth.js';
import { tooManyRequests } from '../../http/errors.js';
import { route } from '../../http/operations.js';
import { readIntParam } from '../../http/params.js';
import { SignInThrottle } from '../sessions/throttle.js';
import { throttledMessage } from '../sessions/throttle.rules.js';
import {
  addMyPasskey,
  confirmEnrolmentPasskey,
  confirmEnrolmentTotp,
  confirmMyTotp,
  deleteMyPasskey,
  enrolmentPasskeyOptions,
  enrolmentTotp,
  getMyFactors,
  isRefusedGuess,
  myPasskeyOptions,
  passkeySignInOptions,
  removeMyTotp,
  renameMyPasskey,
  renewMyRecoveryCodes,
  resetUserFactors,
  signInWithCode,
  signInWithPasskey,
  startMyTotp,
  tokenSubject,
  type FactorDeps,
  type RelyingParty,
  type RequestInfo,
} from './factors.service.js';

/**
 * The WebAuthn relying party: PUBLIC_URL's host and origin. Without PUBLIC_URL (development and
 * tests, never production) the request's own origin stands in.
 */
function relyingPartyOf(publicUrl: string | null, production: boolean, req: Request): RelyingParty {
  const base = publicUrl || (production ? null : `${req.protocol}://${req.get('host')}`);
  if (!base) throw new Error('PUBLIC_URL is required for passkeys in production');
  const url = new URL(base);
  return { id: url.hostname, origin: url.origin };
}

const infoOf = (req: Request): RequestInfo => ({
  userAgent: req.get('user-agent') ?? null,
  ip: req.ip ?? null,
  method: req.method,
  path: req.originalUrl.split('?')[0].replace(/^\/api\/v1/, ''),
});

/** The second factor (issue 38): the sign-in's second step and enrolment, 'Seguridad', and the administrator's reset. */
export function factorsRouter(
  deps: FactorDeps & { publicUrl: string | null; production: boolean },
  authenticate: import('express').RequestHandler,
): Router {
  const r = Router();
  const rp = (req: Request) => relyingPartyOf(deps.publicUrl, deps.production, req);
  // Code guesses are slowed per account (the token's user, or the signed-in one) and address, like passwords.
  const throttle = new SignInThrottle();
  const throttled = async <T>(req: Request, account: string | null, attempt: () => Promise<T>): Promise<T> => {
    const key = `factor:${account ?? 'unknown'}`;
    const ip = req.ip ?? 'unknown';
    const nowMs = deps.now().getTime();
    const wait = throttle.waitSeconds(key, ip, nowMs);
    if (wait > 0) throw tooManyRequests(throttledMessage(wait), wait);
    try {
      const answer = await attempt();
      throttle.succeeded(key, ip, nowMs);
      return answer;
    } catch (err) {
      if (isRefusedGuess(err)) throttle.failed(key, ip, nowMs);
      throw err;
    }
  };
  const subject = (token: string) => tokenSubject(deps.secret, token);

  route(r, 'createSecondFactorSession', [], async (req, res) => {
    res.status(201).json(await throttled(req, subject(req.body.token), () => signInWithCode(deps, req.body, infoOf(req))));
  });
  route(r, 'createPasskeySignInOptions', [], async (req, res) => {
    res.json(await passkeySignInOptions(deps, req.body.token, rp(req)));
  });
  route(r, 'createPasskeySession', [], async (req, res) => {
    res.status(201).json(await throttled(req, subject(req.body.token), () => signInWithPasskey(deps, req.body, rp(req), infoOf(req))));
  });
  route(r, 'createEnrolmentTotp', [], async (req, res) => {
    res.json(await enrolmentTotp(deps, req.body.token));
  });
  route(r, 'confirmEnrolmentTotp', [], async (req, res) => {
    res.status(201).json(await throttled(req, subject(req.body.token), () => confirmEnrolmentTotp(deps, req.body, infoOf(req))));
  });
  route(r, 'createEnrolmentPasskeyOptions', [], async (req, res) => {
    res.json(await enrolmentPasskeyOptions(deps, req.body.token, rp(req)));
  });
  route(r, 'confirmEnrolmentPasskey', [], async (req, res) => {
    res.status(201).json(await confirmEnrolmentPasskey(deps, req.body, rp(req), infoOf(req)));
  });

  // 'Seguridad'
  route(r, 'getMyFactors', [authenticate], async (req, res) => {
    res.json(await getMyFactors(deps, staffOf(req)));
  });
  route(r, 'createMyTotp', [authenticate], async (req, res) => {
    res.json(await startMyTotp(deps, staffOf(req)));
  });
  route(r, 'confirmMyTotp', [authenticate], async (req, res) => {
    const p = staffOf(req);
    res.json(await throttled(req, String(p.userId), () => confirmMyTotp(deps, p, req.body.code)));
  });
  route(r, 'removeMyTotp', [authenticate], async (req, res) => {
    const p = staffOf(req);
    res.json(await throttled(req, String(p.userId), () => removeMyTotp(deps, p, req.body)));
  });
  route(r, 'renewMyRecoveryCodes', [authenticate], async (req, res) => {
    const p = staffOf(req);
    res.json(await throttled(req, String(p.userId), () => renewMyRecoveryCodes(deps, p, req.body ?? {})));
  });
  route(r, 'createMyPasskeyOptions', [authenticate], async (req, res) => {
    res.json(await myPasskeyOptions(deps, staffOf(req), rp(req)));
  });
  route(r, 'createMyPasskey', [authenticate], async (req, res) => {
    res.status(201).json(await addMyPasskey(deps, staffOf(req), req.body, rp(req)));
  });
  route(r, 'updateMyPasskey', [authenticate], async (req, res) => {
    res.json(await renameMyPasskey(deps, staffOf(req), readIntParam(req, 'id'), req.body.name));
  });
  route(r, 'deleteMyPasskey', [authenticate], async (req, res) => {
    res.json(await deleteMyPasskey(deps, staffOf(req), readIntParam(req, 'id')));
  });
  route(r, 'deleteUserFactors', [authenticate, requireStaff('administer')], async (req, res) => {
    res.json(await resetUserFactors(deps, staffOf(req), readIntParam(req, 'id')));
  });
  return r;
}
