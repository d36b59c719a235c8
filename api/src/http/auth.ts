import crypto from 'node:crypto';
import passport from 'passport';
import { Strategy as JwtStrategy, ExtractJwt } from 'passport-jwt';
import type { Request, RequestHandler } from 'express';
import type { Sequelize } from 'sequelize';
import { prepared, select } from '../db/sql.js';
import { BatchLoader } from '../db/batch-load.js';
import { perDatabase } from '../db/per-database.js';
import jwt from 'jsonwebtoken';
import { AppError, unauthorized, forbidden } from './errors.js';
import { can, isRole, USER_STATUS, type Action, type Role } from '@vigia/contract/rules/access';
import { User } from '../db/models/users.model.js';

export const TOKEN_ISSUER = 'vigia';
export const TOKEN_AUDIENCE = 'vigia-api';

export interface StaffPrincipal {
  kind: 'staff';
  sessionId: string;
  clientId: number;
  userId: number;
  role: Role;
  user: User;
}
interface PatientPrincipal {
  kind: 'patient';
  sessionId: string;
  clientId: number;
  patientId: number;
}
export type Principal = StaffPrincipal | PatientPrincipal;

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace -- Express declares its request types in this global namespace; merging into it is the only way
  namespace Express {
    interface User {
      principal?: Principal;
    }
  }
}

interface TokenClaims {
  sub: string;
  exp: number;
  jti: string;
  typ: 'staff' | 'patient';
  cid: number;
}

interface SessionRow {
  id: string;
  subject_type: string;
  subject_id: number;
  client_id: number;
  expires_at: string;
  revoked_at: string | null;
  last_used_at: string | null;
  ended_reason: string | null;
  [userColumn: `u_${string}`]: unknown;
}

/**
 * The session and, for staff, its user, in one statement (this runs on every request): the
 * user's columns come prefixed `u_` and are built into a User without a second query. Requests
 * that arrive together share the statement (BatchLoader).
 */
let sessionSqlText: string | null = null;
function sessionSql(): string {
  if (!sessionSqlText) {
    const columns = Object.entries(User.getAttributes()).map(([name, a]) => `u."${a.field ?? name}" AS "u_${name}"`);
    sessionSqlText =
      prepared(`SELECT s.id, s.subject_type, s.subject_id, s.client_id, s.expires_at, s.revoked_at, s.last_used_at, s.ended_reason, ${columns.join(', ')}
      FROM sessions s LEFT JOIN users u ON s.subject_type = 'staff' AND u.id = s.subject_id AND u.client_id = s.client_id
      WHERE s.id IN (:ids)`);
  }
  return sessionSqlText;
}

const sessionLoader = perDatabase(
  (sequelize: Sequelize) => sequelize,
  (sequelize: Sequelize) =>
    new BatchLoader<string, SessionRow>(
      async (ids) => new Map((await select<SessionRow>(sequelize, sessionSql(), { ids })).map((r) => [String(r.id), r])),
    ),
);

/** Raw rows carry SQLite's 0/1 and date strings: typed here as the ORM would. */
function staffUserOf(row: SessionRow): User | null {
  if (row.u_id == null) return null;
  const values: Record<string, unknown> = {};
  for (const [name, a] of Object.entries(User.getAttributes())) {
    const v = row[`u_${name}`];
    const type = (a.type as { key?: string }).key;
    values[name] =
      v == null
        ? v
        : type === 'BOOLEAN'
          ? v === true || Number(v) === 1
          : type === 'DATE'
            ? new Date(v as string)
            : type === 'INTEGER'
              ? Number(v)
              : v;
  }
  return User.build(values as never, { isNewRecord: false, raw: true });
}

/**
 * A token's signature is checked once per process and strategy (issue 22). jsonwebtoken's verify
 * (base64 and JSON decoding, the HMAC) took ~6% of a stored reading's main-thread time, and a
 * device or a nurse's browser sends the same token thousands of times. Only tokens that verified
 * are kept, by their exact text, at most VERIFIED_TOKENS_KEPT per strategy (the oldest go first).
 * Nothing else is skipped: the expiry is checked against the clock and the session row is read on
 * every request, so a logout or a disabled user takes effect at once.
 */
const VERIFIED_TOKENS_KEPT = 10_000;
type JwtVerifier = (token: string, key: unknown, options: object, done: (err: Error | null, payload?: unknown) => void) => void;
const verifiedTokens = new WeakMap<object, Map<string, unknown>>();

function keepVerifiedTokens(strategy: JwtStrategy): void {
  // passport-jwt verifies through this static function, handing it the strategy's own options object.
  const S = JwtStrategy as unknown as { JwtVerifier: JwtVerifier; keepsVerified?: true };
  if (!S.keepsVerified) {
    const verify = S.JwtVerifier;
    S.JwtVerifier = (token, key, options, done) => {
      const kept = verifiedTokens.get(options);
      const payload = kept?.get(token);
      if (payload) return done(null, payload);
      verify(token, key, options, (err, verified) => {
        if (!err && kept && verified) {
          if (kept.size >= VERIFIED_TOKENS_KEPT) kept.delete(kept.keys().next().value!);
          kept.set(token, Object.freeze(verified));
        }
        done(err, verified);
      });
    };
    S.keepsVerified = true;
  }
  verifiedTokens.set((strategy as unknown as { _verifOpts: object })._verifOpts, new Map());
}

/**
 * What the sessions module hears of each request's session (issue 38): `used` for a valid one
 * (its last use, written now and then), `ended` for a token whose session was ended, answering
 * the 401 that says why (or null for the plain one). Callbacks, so http/ imports no module.
 */
export interface SessionHooks {
  used?(session: SessionRow): void;
  ended?(session: SessionRow, request: { method: string; path: string; ip: string | null }): Error | null;
}

/** A token whose session row says it was ended: answered by SessionHooks.ended. */
class SessionEnded extends Error {
  constructor(readonly session: SessionRow) {
    super('session ended');
  }
}

/**
 * Bearer JWT, HS256 only, with issuer/audience/expiry checked, then the session row: a token whose
 * session was revoked (logout) or whose user was disabled is refused like a forged one.
 */
export function createAuthenticator(sequelize: Sequelize, secret: string, now: () => Date = () => new Date(), hooks: SessionHooks = {}) {
  // A KeyObject, not the string: jsonwebtoken otherwise tries createPublicKey(secret) on every
  // verify, which throws for an HMAC secret (measured at 6-8% of the API's CPU under load).
  const key = crypto.createSecretKey(Buffer.from(secret, 'utf8'));
  const strategy = new JwtStrategy(
    {
      jwtFromRequest: ExtractJwt.fromAuthHeaderAsBearerToken(),
      // passport-jwt hands the key to jsonwebtoken untouched; its types predate KeyObject.
      secretOrKeyProvider: (_req, _token, done) => done(null, key as unknown as Buffer),
      algorithms: ['HS256'],
      issuer: TOKEN_ISSUER,
      audience: TOKEN_AUDIENCE,
      // Expiry is checked against the injected clock (below and in the session row), not only the wall clock.
      ignoreExpiration: true,
    },
    async (claims: TokenClaims, done: (err: unknown, user?: Express.User | false) => void) => {
      try {
        if (!claims?.jti || typeof claims.jti !== 'string' || !claims.sub || (claims.typ !== 'staff' && claims.typ !== 'patient'))
          return done(null, false);
        if (typeof claims.exp !== 'number' || claims.exp * 1000 <= now().getTime()) return done(null, false);
        const s = await sessionLoader(sequelize).load(claims.jti);
        if (s?.revoked_at && hooks.ended && s.subject_type === claims.typ && String(s.subject_id) === claims.sub)
          return done(new SessionEnded(s));
        if (!s || s.revoked_at || new Date(s.expires_at).getTime() <= now().getTime()) return done(null, false);
        if (s.subject_type !== claims.typ || String(s.subject_id) !== claims.sub || Number(s.client_id) !== claims.cid)
          return done(null, false);
        hooks.used?.(s);
        if (claims.typ === 'patient') {
          return done(null, {
            principal: { kind: 'patient', sessionId: claims.jti, clientId: Number(s.client_id), patientId: Number(s.subject_id) },
          });
        }
        // Read from the row; the User model is built only for a route that asks for it (profile,
        // time zone): building it took ~4% of a stored reading's CPU (issue 7).
        const role = s.u_role_name;
        if (s.u_id == null || Number(s.u_status) !== USER_STATUS.active || !isRole(role)) return done(null, false);
        let user: User | null = null;
        const principal: StaffPrincipal = {
          kind: 'staff',
          sessionId: claims.jti,
          clientId: Number(s.u_client_id),
          userId: Number(s.u_id),
          role,
          get user() {
            return (user ??= staffUserOf(s)!);
          },
        };
        return done(null, { principal });
      } catch (err) {
        return done(err);
      }
    },
  );
  // No passport.initialize(): authenticate() sets up the request itself (passport >= 0.6);
  // initialize only adds the compatibility fields of passport 0.4, on every request.
  keepVerifiedTokens(strategy);
  const instance = new passport.Passport();
  instance.use('jwt', strategy);

  /** Any valid session, staff or patient; once per request (sessionFirst may have run it already). */
  const authenticate: RequestHandler = (req, res, next) => {
    if (req.user?.principal) return next();
    instance.authenticate('jwt', { session: false }, (err: unknown, user: Express.User | false) => {
      if (err instanceof SessionEnded) {
        const path = req.originalUrl.split('?')[0].replace(/^\/api\/v1/, '');
        return next(hooks.ended?.(err.session, { method: req.method, path, ip: req.ip ?? null }) ?? unauthorized());
      }
      if (err) return next(err);
      if (!user || !user.principal) return next(isSignInToken(req) ? secondStepPending() : unauthorized());
      req.user = user;
      next();
    })(req, res, next);
  };
  return { authenticate };
}

/**
 * Authentication before the body is parsed or checked against the contract, for the operations
 * that need a session (session-first.rules.ts): an anonymous call answers 401, never a 400 that
 * describes the operation's schema (issue 41). Public operations go on to the validator as before.
 */
export function sessionFirst(needsSession: (method: string, path: string) => boolean, authenticate: RequestHandler): RequestHandler {
  return (req, res, next) => (needsSession(req.method, req.path) ? authenticate(req, res, next) : next());
}

/**
 * The intermediate token between the password and the second factor (issue 38) has its own
 * audience, so the strategy above refuses it like any other; this only picks the 401's words.
 */
export const SIGN_IN_AUDIENCE = 'vigia-sign-in';
function isSignInToken(req: Request): boolean {
  const header = req.get('authorization') ?? '';
  if (!header.startsWith('Bearer ')) return false;
  const claims = jwt.decode(header.slice(7));
  return typeof claims === 'object' && claims?.aud === SIGN_IN_AUDIENCE;
}
const secondStepPending = () => new AppError(401, 'second_factor_pending', 'Complete el segundo paso del inicio de sesión.');

export function principalOf(req: Pick<Request, 'user'>): Principal {
  const p = req.user?.principal;
  if (!p) throw unauthorized();
  return p;
}

/** Staff only; patient tokens get 401 on staff calls, like any token that does not fit. */
export function staffOf(req: Pick<Request, 'user'>): StaffPrincipal {
  const p = principalOf(req);
  if (p.kind !== 'staff') throw unauthorized();
  return p;
}

export function requireStaff(action?: Action): RequestHandler {
  return (req, _res, next) => {
    const p = staffOf(req);
    if (action && !can(p.role, action)) throw forbidden();
    next();
  };
}

/** An operation of both the staff app and the portal: a patient passes (the handler keeps them to their own record), staff need `action`. */
export function requirePatientOrStaff(action: Action): RequestHandler {
  return (req, _res, next) => {
    const p = principalOf(req);
    if (p.kind === 'staff' && !can(p.role, action)) throw forbidden();
    next();
  };
}
