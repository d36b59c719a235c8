import { Router } from 'express';
import { principalOf, requireStaff, staffOf } from '../../http/auth.js';
import { AppError, tooManyRequests } from '../../http/errors.js';
import { route } from '../../http/operations.js';
import { readIntParam } from '../../http/params.js';
import { User } from '../../db/models/users.model.js';
import {
  buildProfile,
  checkPassword,
  endMyOtherSessions,
  endMySession,
  endUserSessions,
  listMySessions,
  openSession,
  revokeSession,
  type SessionDeps,
} from './sessions.service.js';
import { SignInThrottle } from './throttle.js';
import { throttledMessage } from './throttle.rules.js';
import { passwordSignInAllowed, SSO_REQUIRED_MESSAGE } from '@vigia/contract/rules/sign-in';
import type { components } from '@vigia/contract/openapi';

/**
 * The step after a right password (issue 38): the factors module answers the challenge of a second
 * factor or of enrolment, or null when the user signs in at once. Handed over by app.ts.
 */
export type SecondStep = (user: User) => Promise<components['schemas']['SignInChallenge'] | null>;

/** Staff sign-in, sign-out, profile and the sessions a user sees (the patient's one-time-code sign-in is otp.routes.ts). */
export function sessionsRouter(deps: SessionDeps & { secondStep?: SecondStep }, authenticate: import('express').RequestHandler): Router {
  const r = Router();
  const throttle = new SignInThrottle();
  route(r, 'createSession', [], async (req, res) => {
    const email = req.body.email.trim().toLowerCase();
    const ip = req.ip ?? 'unknown';
    const nowMs = deps.now().getTime();
    // Checked before the password is: a guess made while waiting is not even heard.
    const wait = throttle.waitSeconds(email, ip, nowMs);
    if (wait > 0) throw tooManyRequests(throttledMessage(wait), wait);
    try {
      const user = await checkPassword(email, req.body.password);
      // After the password, so the refusal tells nothing to someone guessing (issue 49).
      if (!passwordSignInAllowed(deps.ssoEnabled ?? false, user.break_glass)) throw new AppError(403, 'sso_required', SSO_REQUIRED_MESSAGE);
      throttle.succeeded(email, ip, nowMs);
      const challenge = deps.secondStep ? await deps.secondStep(user) : null;
      // The typed answer is the operation's first success (201 Session); 202 is its other one.
      if (challenge) res.status(202).json(challenge as never);
      else res.status(201).json(await openSession(deps, user, { userAgent: req.get('user-agent') ?? null, ip }));
    } catch (err) {
      throttle.failed(email, ip, nowMs);
      throw err;
    }
  });
  route(r, 'deleteSession', [authenticate], async (req, res) => {
    await revokeSession(deps, principalOf(req).sessionId);
    res.status(204).end();
  });
  route(r, 'getMe', [authenticate, requireStaff()], async (req, res) => {
    const p = staffOf(req);
    res.json(await buildProfile(deps, p.user as User));
  });
  // 'Sesiones activas' (issue 38): /sessions/mine before /sessions/:id, which would take 'mine' for an id.
  route(r, 'listMySessions', [authenticate, requireStaff()], async (req, res) => {
    res.json(await listMySessions(deps, staffOf(req)));
  });
  route(r, 'deleteMyOtherSessions', [authenticate, requireStaff()], async (req, res) => {
    res.json(await endMyOtherSessions(deps, staffOf(req)));
  });
  route(r, 'deleteMySession', [authenticate, requireStaff()], async (req, res) => {
    res.json(await endMySession(deps, staffOf(req), req.params.id));
  });
  route(r, 'deleteUserSessions', [authenticate, requireStaff('administer')], async (req, res) => {
    res.json(await endUserSessions(deps, staffOf(req), readIntParam(req, 'id')));
  });
  return r;
}
