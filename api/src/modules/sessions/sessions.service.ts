import crypto from 'node:crypto';
import jwt from 'jsonwebtoken';
import { QueryTypes, type Sequelize } from 'sequelize';
import { TOKEN_AUDIENCE, TOKEN_ISSUER } from '../../http/auth.js';
import { AppError, unauthorized } from '../../http/errors.js';
import { User } from '../../db/models/users.model.js';
import { USER_STATUS } from '@vigia/contract/rules/access';
import { Client } from '../../db/models/clients.model.js';
import { displayName } from '@vigia/contract/rules/names';
import type { Catalogues } from '../catalogues/catalogues.service.js';
import type { components } from '@vigia/contract/openapi';
import { DUMMY_PASSWORD_HASH, verifyPassword } from './passwords.js';

type Profile = components['schemas']['Profile'];
type Session = components['schemas']['Session'];

export interface SessionDeps {
  sequelize: Sequelize;
  secret: string;
  ttlSeconds: number;
  catalogues: Catalogues;
  now: () => Date;
}

const LOGIN_FAILED = 'Correo o contraseña incorrectos';

export async function issueToken(
  deps: SessionDeps,
  subject: { type: 'staff' | 'patient'; id: number; clientId: number },
): Promise<{ token: string; expiresAt: Date }> {
  const jti = crypto.randomUUID();
  const now = deps.now();
  const expiresAt = new Date(now.getTime() + deps.ttlSeconds * 1000);
  await deps.sequelize.query(
    'INSERT INTO sessions (id, subject_type, subject_id, client_id, expires_at, created_at) VALUES (:id, :type, :sid, :cid, :exp, :now)',
    { replacements: { id: jti, type: subject.type, sid: subject.id, cid: subject.clientId, exp: expiresAt, now }, type: QueryTypes.INSERT },
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
  await deps.sequelize.query('UPDATE sessions SET revoked_at = :now WHERE id = :id AND revoked_at IS NULL', {
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

export async function createSession(deps: SessionDeps, email: string, password: string): Promise<Session> {
  const user = await User.findOne({ where: { email: email.trim().toLowerCase() } });
  // An unknown e-mail still costs a compare, so timing does not tell which e-mails exist.
  const ok = await verifyPassword(password, user?.password_hash ?? DUMMY_PASSWORD_HASH);
  if (!user || !ok) throw new AppError(401, 'invalid_credentials', LOGIN_FAILED);
  if (user.status !== USER_STATUS.active)
    throw new AppError(401, 'user_inactive', 'Su usuario está inactivo. Comuníquese con el administrador de su institución.');
  const { token, expiresAt } = await issueToken(deps, { type: 'staff', id: user.id, clientId: user.client_id });
  const profile = await buildProfile(deps, user);
  return { ...profile, token, expires_at: expiresAt.toISOString(), message: `Bienvenido(a), ${displayName(user.first_name)}` };
}
