import { Router, type Request } from 'express';
import { requireStaff, staffOf } from '../../http/auth.js';
import { AppError, tooManyRequests } from '../../http/errors.js';
import { requestOrigin } from '../../http/origin.js';
import { isIpAddressHost, passkeyAddressMessage } from '@vigia/contract/rules/sign-in';
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
  const base = publicUrl || (production ? null : requestOrigin(req));
  // A setting the operator left out, not a fault of the request: said so, never a 500 (issue 49).
  if (!base)
    throw new AppError(
      503,
      'passkeys_unconfigured',
      'Las llaves de acceso no están disponibles: el administrador del servidor debe configurar PUBLIC_URL con la dirección de Vigía (un nombre de dominio).',
    );
  const url = new URL(base);
  // Browsers refuse an IP address as the relying party (issue 49): said here, naming the address,
  // before the browser's own refusal, which would read as the browser's fault.
  if (isIpAddressHost(url.hostname))
    throw new AppError(400, 'passkey_needs_domain', passkeyAddressMessage(url.hostname.replace(/^\[|\]$/g, '')));
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
  // Read when a ceremony first needs it, after the sign-in token or the session was checked: a
  // made-up token is a 401 whatever the address (issue 49).
  const rp = (req: Request): RelyingParty => {
    let party: RelyingParty | undefined;
    const read = () => (party ??= relyingPartyOf(deps.publicUrl, deps.production, req));
    return {
      get id() {
        return read().id;
      },
      get origin() {
        return read().origin;
      },
    };
  };
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
  route(r, 'getMyFactors', [authenticate, requireStaff()], async (req, res) => {
    res.json(await getMyFactors(deps, staffOf(req)));
  });
  route(r, 'createMyTotp', [authenticate, requireStaff()], async (req, res) => {
    res.json(await startMyTotp(deps, staffOf(req)));
  });
  route(r, 'confirmMyTotp', [authenticate, requireStaff()], async (req, res) => {
    const p = staffOf(req);
    res.json(await throttled(req, String(p.userId), () => confirmMyTotp(deps, p, req.body.code)));
  });
  route(r, 'removeMyTotp', [authenticate, requireStaff()], async (req, res) => {
    const p = staffOf(req);
    res.json(await throttled(req, String(p.userId), () => removeMyTotp(deps, p, req.body)));
  });
  route(r, 'renewMyRecoveryCodes', [authenticate, requireStaff()], async (req, res) => {
    const p = staffOf(req);
    res.json(await throttled(req, String(p.userId), () => renewMyRecoveryCodes(deps, p, req.body ?? {})));
  });
  route(r, 'createMyPasskeyOptions', [authenticate, requireStaff()], async (req, res) => {
    res.json(await myPasskeyOptions(deps, staffOf(req), rp(req)));
  });
  route(r, 'createMyPasskey', [authenticate, requireStaff()], async (req, res) => {
    res.status(201).json(await addMyPasskey(deps, staffOf(req), req.body, rp(req)));
  });
  route(r, 'updateMyPasskey', [authenticate, requireStaff()], async (req, res) => {
    res.json(await renameMyPasskey(deps, staffOf(req), readIntParam(req, 'id'), req.body.name));
  });
  route(r, 'deleteMyPasskey', [authenticate, requireStaff()], async (req, res) => {
    res.json(await deleteMyPasskey(deps, staffOf(req), readIntParam(req, 'id')));
  });
  route(r, 'deleteUserFactors', [authenticate, requireStaff('administer')], async (req, res) => {
    res.json(await resetUserFactors(deps, staffOf(req), readIntParam(req, 'id')));
  });
  return r;
}
