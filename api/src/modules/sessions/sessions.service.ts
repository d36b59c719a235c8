import crypto from 'node:crypto';
import jwt from 'jsonwebtoken';
import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import { TOKEN_AUDIENCE, TOKEN_ISSUER, type StaffPrincipal } from '../../http/auth.js';
import { execute, select } from '../../db/sql.js';
import { AppError, notFound, unauthorized } from '../../http/errors.js';
import { User } from '../../db/models/users.model.js';
import { USER_STATUS } from '@vigia/contract/rules/access';
import { Client } from '../../db/models/clients.model.js';
import { displayName } from '@vigia/contract/rules/names';
import type { Catalogues } from '../catalogues/catalogues.service.js';
import type { components } from '@vigia/contract/openapi';
import { DUMMY_PASSWORD_HASH, verifyPassword } from './passwords.js';
import {
  TOKEN_REFUSED_SUMMARIES,
  browserLabel,
  lastUsedIsStale,
  sessionEndedMessage,
  sortSessions,
  type EndedReason,
} from './sessions.rules.js';

type Profile = components['schemas']['Profile'];
type Session = components['schemas']['Session'];

export interface SessionDeps {
  sequelize: Sequelize;
  secret: string;
  ttlSeconds: number;
  catalogues: Catalogues;
  now: () => Date;
  /** OIDC_* is set: staff sign in through the identity provider, passwords only for break-glass accounts (issue 49). */
  ssoEnabled?: boolean;
}

const LOGIN_FAILED = 'Correo o contraseña incorrectos';

/** Where a session was opened from, shown in 'Sesiones activas'. */
export interface SessionOrigin {
  userAgent: string | null;
  ip: string | null;
}

export async function issueToken(
  deps: SessionDeps,
  subject: { type: 'staff' | 'patient'; id: number; clientId: number },
  origin: SessionOrigin = { userAgent: null, ip: null },
): Promise<{ token: string; expiresAt: Date }> {
  const jti = crypto.randomUUID();
  const now = deps.now();
  const expiresAt = new Date(now.getTime() + deps.ttlSeconds * 1000);
  await deps.sequelize.query(
    `INSERT INTO sessions (id, subject_type, subject_id, client_id, expires_at, created_at, last_used_at, user_agent, ip)
     VALUES (:id, :type, :sid, :cid, :exp, :now, :now, :ua, :ip)`,
    {
      replacements: {
        id: jti,
        type: subject.type,
        sid: subject.id,
        cid: subject.clientId,
        exp: expiresAt,
        now,
        ua: origin.userAgent?.slice(0, 400) || null,
        ip: origin.ip?.slice(0, 64) || null,
      },
      type: QueryTypes.INSERT,
    },
  );
  const iat = Math.floor(now.getTime() / 1000);
  const token = jwt.sign({ typ: subject.type, cid: subject.clientId, iat, exp: iat + deps.ttlSeconds }, deps.secret, {
    algorithm: 'HS256',
    subject: String(subject.id),
    jwtid: jti,
    issuer: TOKEN_ISSUER,
    audience: TOKEN_AUDIENCE,
  });
  return { token, expiresAt };
}

export async function revokeSession(deps: Pick<SessionDeps, 'sequelize' | 'now'>, sessionId: string): Promise<void> {
  await deps.sequelize.query("UPDATE sessions SET revoked_at = :now, ended_reason = 'sign_out' WHERE id = :id AND revoked_at IS NULL", {
    replacements: { id: sessionId, now: deps.now() },
  });
}

export async function buildProfile(deps: Pick<SessionDeps, 'catalogues'>, user: User): Promise<Profile> {
  const client = await Client.findByPk(user.client_id);
  if (!client) throw unauthorized();
  const country = deps.catalogues.country(user.country_id);
  return {
    user_id: user.id,
    client_id: client.id,
    client_name: client.name,
    client_logo_url: client.logo_url,
    first_name: user.first_name,
    last_name: user.last_name,
    email: user.email,
    role_name: user.role_name,
    time_zone: user.time_zone,
    country_id: user.country_id,
    country_id_name: country?.name ?? '',
    city_id: user.city_id,
    prefix: user.prefix ?? country?.phone_prefix ?? '',
    client_with_multipatient_glady: client.multipatient,
    client_clinical_elements: client.clinical_elements as Profile['client_clinical_elements'],
    residents_enabled: client.residents_enabled,
  };
}

/**
 * The password step. A wrong password, an unknown e-mail and a disabled account get the same answer
 * (issue 38): it must not tell whether an account exists or is disabled, nor that the password was right.
 */
export async function checkPassword(email: string, password: string): Promise<User> {
  const user = await User.findOne({ where: { email: email.trim().toLowerCase() } });
  // An unknown e-mail still costs a compare, so timing does not tell which e-mails exist.
  const ok = await verifyPassword(password, user?.password_hash ?? DUMMY_PASSWORD_HASH);
  if (!user || !ok || user.status !== USER_STATUS.active) throw new AppError(401, 'invalid_credentials', LOGIN_FAILED);
  return user;
}

/** A full session for a user whose every step has passed: the token and the profile the front end stores. */
export async function openSession(deps: SessionDeps, user: User, origin?: SessionOrigin): Promise<Session> {
  const { token, expiresAt } = await issueToken(deps, { type: 'staff', id: user.id, clientId: user.client_id }, origin);
  const profile = await buildProfile(deps, user);
  return { ...profile, token, expires_at: expiresAt.toISOString(), message: `Bienvenido(a), ${displayName(user.first_name)}` };
}

type SessionSummary = components['schemas']['SessionSummary'];
type SessionsEnded = components['schemas']['SessionsEnded'];

interface SessionListRow {
  id: string;
  created_at: string | Date;
  last_used_at: string | Date | null;
  user_agent: string | null;
  ip: string | null;
}

/** 'Sesiones activas': the user's open, unexpired sessions, the current one first. */
export async function listMySessions(deps: Pick<SessionDeps, 'sequelize' | 'now'>, p: StaffPrincipal): Promise<SessionSummary[]> {
  const rows = await select<SessionListRow>(
    deps.sequelize,
    `SELECT id, created_at, last_used_at, user_agent, ip FROM sessions
     WHERE subject_type = 'staff' AND subject_id = :userId AND client_id = :clientId AND revoked_at IS NULL AND expires_at > :now`,
    { userId: p.userId, clientId: p.clientId, now: deps.now() },
  );
  return sortSessions(
    rows.map((r) => {
      const created = new Date(r.created_at).toISOString();
      return {
        id: String(r.id),
        current: String(r.id) === p.sessionId,
        created_at: created,
        last_used_at: r.last_used_at ? new Date(r.last_used_at).toISOString() : created,
        browser: browserLabel(r.user_agent),
        // An IPv4 client of a dual-stack server arrives as ::ffff:a.b.c.d: shown as people know it.
        ip: r.ip?.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, '') ?? null,
      };
    }),
  );
}

/**
 * Ends a patient's open portal sessions (P9: a deceased patient cannot use the portal), in the
 * caller's transaction. The patients module calls it through its deps: this module writes sessions.
 */
export function endPatientSessions(sequelize: Sequelize, patientId: number, now: Date, transaction?: Transaction): Promise<number> {
  return execute(
    sequelize,
    "UPDATE sessions SET revoked_at = :now WHERE subject_type = 'patient' AND subject_id = :id AND revoked_at IS NULL",
    { id: patientId, now },
    transaction,
  );
}

/**
 * Ends a staff user's open sessions when an administrator sets their password or disables them
 * (ASVS 5.0 V7.4.2), in the caller's transaction. The users module calls it through its deps.
 */
export function endStaffSessions(sequelize: Sequelize, userId: number, now: Date, transaction?: Transaction): Promise<number> {
  return execute(
    sequelize,
    "UPDATE sessions SET revoked_at = :now WHERE subject_type = 'staff' AND subject_id = :id AND revoked_at IS NULL",
    { id: userId, now },
    transaction,
  );
}

/**
 * Ends the open sessions of one staff user that `where` picks; answers how many. Each keeps why it
 * ended, so its token's next request is told (sessionEndedMessage).
 */
export async function endSessions(
  deps: Pick<SessionDeps, 'sequelize' | 'now'>,
  scope: { userId: number; clientId: number; only?: string; except?: string },
  reason: EndedReason,
  transaction?: Transaction,
): Promise<number> {
  return execute(
    deps.sequelize,
    `UPDATE sessions SET revoked_at = :now, ended_reason = :reason
     WHERE subject_type = 'staff' AND subject_id = :userId AND client_id = :clientId AND revoked_at IS NULL AND expires_at > :now
     ${scope.only ? 'AND id = :only' : ''} ${scope.except ? 'AND id <> :except' : ''}`,
    { now: deps.now(), reason, userId: scope.userId, clientId: scope.clientId, only: scope.only ?? null, except: scope.except ?? null },
    transaction,
  );
}

const endedAnswer = (ended: number): SessionsEnded => ({
  ended,
  message: ended === 1 ? 'Se cerró 1 sesión.' : ended ? `Se cerraron ${ended} sesiones.` : 'No había otras sesiones abiertas.',
});

/** Ends one of the user's own sessions (the current one too: that is a logout). */
export async function endMySession(deps: Pick<SessionDeps, 'sequelize' | 'now'>, p: StaffPrincipal, id: string): Promise<SessionsEnded> {
  const reason = id === p.sessionId ? 'sign_out' : 'ended_by_user';
  const ended = await endSessions(deps, { userId: p.userId, clientId: p.clientId, only: id }, reason);
  if (!ended) throw notFound('La sesión no existe o ya fue cerrada.');
  return endedAnswer(ended);
}

/** 'Cerrar las demás sesiones': every session of the user but this one. */
export async function endMyOtherSessions(deps: Pick<SessionDeps, 'sequelize' | 'now'>, p: StaffPrincipal): Promise<SessionsEnded> {
  return endedAnswer(await endSessions(deps, { userId: p.userId, clientId: p.clientId, except: p.sessionId }, 'ended_by_user'));
}

/** Usuarios → 'Cerrar todas las sesiones': a user of the administrator's client (404 for any other); the administrator's own session stays. */
export async function endUserSessions(
  deps: Pick<SessionDeps, 'sequelize' | 'now'>,
  actor: StaffPrincipal,
  userId: number,
): Promise<SessionsEnded> {
  const [user] = await select<{ id: number }>(deps.sequelize, 'SELECT id FROM users WHERE id = :id AND client_id = :clientId', {
    id: userId,
    clientId: actor.clientId,
  });
  if (!user) throw notFound('El usuario no existe.');
  return endedAnswer(await endSessions(deps, { userId, clientId: actor.clientId, except: actor.sessionId }, 'ended_by_admin'));
}

/** An audit event the sessions module writes itself (a refused token names no route's answer). */
export type RecordAuditEvent = (event: {
  client_id: number;
  user_id: number | null;
  action: 'token_refused' | 'password_reset_requested' | 'password_reset';
  resource: 'session' | 'user';
  resource_id: string | null;
  summary: string;
  method: string;
  path: string;
  status: number;
  ip: string | null;
  created_at: Date;
}) => void;

/** What the authenticator tells this module about each request's session (http/auth.ts SessionHooks). */
export function createSessionHooks(
  deps: Pick<SessionDeps, 'sequelize' | 'now'> & { recordEvent: RecordAuditEvent; log: (msg: string, err?: unknown) => void },
) {
  // Sessions whose last_used_at this process wrote lately: the session row a request reads may be
  // older than the write (requests that arrived together share one read).
  const touched = new Map<string, number>();
  return {
    /** A request with a valid session: its last use is written when the stored one is LAST_USED_STEP_MS old. */
    used(session: { id: string; last_used_at: string | Date | null }): void {
      const nowMs = deps.now().getTime();
      const stored = session.last_used_at ? new Date(session.last_used_at).getTime() : null;
      const latest = Math.max(stored ?? 0, touched.get(session.id) ?? 0) || null;
      if (!lastUsedIsStale(latest, nowMs)) return;
      touched.set(session.id, nowMs);
      if (touched.size > 50_000) for (const [id, at] of touched) if (lastUsedIsStale(at, nowMs)) touched.delete(id);
      execute(deps.sequelize, 'UPDATE sessions SET last_used_at = :now WHERE id = :id', { now: new Date(nowMs), id: session.id }).catch(
        (err) => deps.log('session last use not written', err),
      );
    },
    /** A token whose session ended: the 401 that says why, and an audit event (null: the plain 401). */
    ended(
      session: { id: string; subject_type: string; subject_id: number; client_id: number; ended_reason: string | null },
      request: { method: string; path: string; ip: string | null },
    ): AppError | null {
      const message = sessionEndedMessage(session.ended_reason);
      if (!message || session.subject_type !== 'staff') return null;
      deps.recordEvent({
        client_id: Number(session.client_id),
        user_id: Number(session.subject_id),
        action: 'token_refused',
        resource: 'session',
        resource_id: String(session.id),
        summary: TOKEN_REFUSED_SUMMARIES[session.ended_reason as keyof typeof TOKEN_REFUSED_SUMMARIES],
        method: request.method.toUpperCase(),
        path: request.path.slice(0, 200),
        status: 401,
        ip: request.ip?.slice(0, 64) || null,
        created_at: deps.now(),
      });
      return new AppError(401, 'session_ended', message);
    },
  };
}
