import crypto from 'node:crypto';
import jwt from 'jsonwebtoken';
import otplib from 'otplib';
import QRCode from 'qrcode';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type { Sequelize, Transaction } from 'sequelize';
import type { components } from '@vigia/contract/openapi';
import { USER_STATUS } from '@vigia/contract/rules/access';
import { execute, insertReturningId, select, writeTransaction } from '../../db/sql.js';
import { AppError, badRequest, conflict, notFound } from '../../http/errors.js';
import { SIGN_IN_AUDIENCE, TOKEN_ISSUER, type StaffPrincipal } from '../../http/auth.js';
import { User } from '../../db/models/users.model.js';
import type { JobRunner } from '../../jobs/queue.js';
import type { EmailSender } from '../../adapters/email.js';
import { formatWhen } from '@vigia/contract/rules/dates';
import { displayName } from '@vigia/contract/rules/names';
import {
  FACTOR_MESSAGES as M,
  SIGN_IN_TOKEN_SECONDS,
  checkTotp,
  generateRecoveryCodes,
  hasFactor,
  mayRemoveFactor,
  methodsOf,
  normaliseRecoveryCode,
  proofOf,
  signInStepOf,
  factorChangedEmail,
  type FactorChange,
  type UserFactors,
} from './factors.rules.js';

type S = components['schemas'];
const { authenticator } = otplib;

const ISSUER_LABEL = 'Vigía';

/** An audit event this module writes itself (refused codes, a factor enrolled at sign-in). */
export type RecordFactorEvent = (event: {
  client_id: number;
  user_id: number | null;
  action: 'factor_enrolled' | 'second_factor_refused';
  resource: 'factor';
  resource_id: string | null;
  summary: string;
  method: string;
  path: string;
  status: number;
  ip: string | null;
  created_at: Date;
}) => void;

export interface FactorDeps {
  sequelize: Sequelize;
  secret: string;
  now: () => Date;
  recordEvent: RecordFactorEvent;
  /** The sessions module's full session once every step has passed. */
  openSession: (user: User, origin: { userAgent: string | null; ip: string | null }) => Promise<S['Session']>;
  /** The sessions module ends a user's sessions (an administrator's reset). */
  endAllSessions: (u: { userId: number; clientId: number; except?: string }, transaction: Transaction) => Promise<number>;
  /** The job queue: a change of factor queues its e-mail in the change's own transaction. */
  jobs: Pick<JobRunner, 'enqueue'>;
}

/** The e-mail telling a user their second factor changed goes out from this job (registerFactorJobs). */
export const FACTOR_CHANGED_JOB = 'factors.changed';

/** Queues the notice of a change, in the change's transaction: no change without its e-mail, no e-mail without the change. */
function noticeOf(deps: FactorDeps, who: { userId: number; clientId: number }, change: FactorChange, t: Transaction) {
  return deps.jobs.enqueue({ kind: FACTOR_CHANGED_JOB, payload: { ...who, change, at: deps.now().toISOString() }, maxAttempts: 5 }, t);
}

/**
 * Sends the notice of a changed factor (ASVS 5.0 6.3.7) to the user's own address; a failed send is
 * tried again by the queue. A user deleted meanwhile gets nothing.
 */
export function registerFactorJobs(deps: { sequelize: Sequelize; jobs: Pick<JobRunner, 'register'>; email: EmailSender }): void {
  deps.jobs.register(FACTOR_CHANGED_JOB, async (job) => {
    const { userId, clientId, change, at } = job.payload as { userId: number; clientId: number; change: FactorChange; at: string };
    const [user] = await select<{ email: string; first_name: string; time_zone: string | null }>(
      deps.sequelize,
      'SELECT email, first_name, time_zone FROM users WHERE id = :userId AND client_id = :clientId',
      { userId, clientId },
    );
    if (!user) return;
    const when = formatWhen(at, user.time_zone || 'America/Bogota');
    await deps.email.send({
      to: user.email,
      ...factorChangedEmail({ firstName: displayName(user.first_name), email: user.email, change, when }),
    });
  });
}

/** The WebAuthn relying party of a request: PUBLIC_URL's host and origin. */
export interface RelyingParty {
  id: string;
  origin: string;
}

export interface RequestInfo {
  userAgent: string | null;
  ip: string | null;
  method: string;
  path: string;
}

// ── key at rest ──

function keyOf(secret: string, purpose = 'totp-secret'): Buffer {
  return Buffer.from(crypto.hkdfSync('sha256', secret, 'vigia', purpose, 32));
}

/** AES-256-GCM with a key derived from the server's secret: a copy of the database alone yields no TOTP key. */
export function sealSecret(secret: string, plain: string): string {
  const iv = crypto.randomBytes(12);
  const c = crypto.createCipheriv('aes-256-gcm', keyOf(secret), iv);
  const body = Buffer.concat([c.update(plain, 'utf8'), c.final()]);
  return ['v1', iv.toString('base64url'), c.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
}

export function openSecret(secret: string, sealed: string): string {
  const [v, iv, tag, body] = sealed.split('.');
  if (v !== 'v1') throw new Error('unknown sealed secret');
  const d = crypto.createDecipheriv('aes-256-gcm', keyOf(secret), Buffer.from(iv, 'base64url'));
  d.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([d.update(Buffer.from(body, 'base64url')), d.final()]).toString('utf8');
}

const codeAt = (secret: string) => (step: number) => authenticator.clone({ epoch: step * 30_000 }).generate(secret);
/**
 * A recovery code as kept: HMAC-SHA256 under a key derived from the server's secret. The codes carry
 * ~49 bits; keyed, a copy of the table alone cannot be searched for them (ASVS 6.5.2, see SECURITY.md).
 */
const hashCode = (secret: string, code: string) => crypto.createHmac('sha256', keyOf(secret, 'recovery-codes')).update(code).digest('hex');

// ── what a user has ──

interface TotpRow {
  secret_enc: string;
  confirmed_at: string | Date | null;
  last_step: number | null;
}
interface PasskeyRow {
  id: number;
  credential_id: string;
  public_key: string;
  counter: number;
  transports: string | null;
  name: string;
  created_at: string | Date;
  last_used_at: string | Date | null;
}

async function totpOf(sequelize: Sequelize, userId: number, t?: Transaction): Promise<TotpRow | null> {
  const [row] = await select<TotpRow>(
    sequelize,
    'SELECT secret_enc, confirmed_at, last_step FROM user_totps WHERE user_id = :userId',
    { userId },
    t,
  );
  return row ?? null;
}

function passkeysOf(sequelize: Sequelize, userId: number, t?: Transaction): Promise<PasskeyRow[]> {
  return select<PasskeyRow>(
    sequelize,
    'SELECT id, credential_id, public_key, counter, transports, name, created_at, last_used_at FROM user_passkeys WHERE user_id = :userId ORDER BY id',
    { userId },
    t,
  );
}

async function factorsOf(sequelize: Sequelize, userId: number, t?: Transaction): Promise<UserFactors> {
  const [row] = await select<{ totp: number | string; passkeys: number | string; codes: number | string }>(
    sequelize,
    `SELECT (SELECT COUNT(*) FROM user_totps WHERE user_id = :userId AND confirmed_at IS NOT NULL) AS totp,
            (SELECT COUNT(*) FROM user_passkeys WHERE user_id = :userId) AS passkeys,
            (SELECT COUNT(*) FROM user_recovery_codes WHERE user_id = :userId AND used_at IS NULL) AS codes`,
    { userId },
    t,
  );
  return { totp: Number(row.totp) > 0, passkeys: Number(row.passkeys), recoveryCodesLeft: Number(row.codes) };
}

/** The client's policy: the roles that must have a second factor. */
async function requiredRoles(sequelize: Sequelize, clientId: number): Promise<string[]> {
  const [row] = await select<{ second_factor_roles: string | null }>(
    sequelize,
    'SELECT second_factor_roles FROM clients WHERE id = :clientId',
    {
      clientId,
    },
  );
  try {
    const list: unknown = JSON.parse(row?.second_factor_roles ?? '[]');
    return Array.isArray(list) ? list.map(String) : [];
  } catch {
    return [];
  }
}

async function isRequired(sequelize: Sequelize, clientId: number, role: string): Promise<boolean> {
  return (await requiredRoles(sequelize, clientId)).includes(role);
}

/** Ten new recovery codes (the old ones voided), stored as SHA-256; answered in clear once. */
async function replaceRecoveryCodes(deps: FactorDeps, u: { userId: number; clientId: number }, t: Transaction): Promise<string[]> {
  const codes = generateRecoveryCodes((n) => crypto.randomInt(n));
  await execute(deps.sequelize, 'DELETE FROM user_recovery_codes WHERE user_id = :userId', { userId: u.userId }, t);
  for (const code of codes) {
    await execute(
      deps.sequelize,
      'INSERT INTO user_recovery_codes (user_id, client_id, code_hash, created_at) VALUES (:userId, :clientId, :hash, :now)',
      { userId: u.userId, clientId: u.clientId, hash: hashCode(deps.secret, normaliseRecoveryCode(code)!), now: deps.now() },
      t,
    );
  }
  return codes;
}

/** Recovery codes come with the first factor; a later one keeps the codes the user has. */
async function codesForNewFactor(deps: FactorDeps, u: { userId: number; clientId: number }, before: UserFactors, t: Transaction) {
  return hasFactor(before) && before.recoveryCodesLeft > 0 ? [] : replaceRecoveryCodes(deps, u, t);
}

// ── proofs ──

/** A TOTP code: accepted once per step, the step written in the same statement that checks it. */
async function acceptTotp(deps: FactorDeps, userId: number, code: string, confirmed: boolean, t?: Transaction): Promise<boolean> {
  const row = await totpOf(deps.sequelize, userId, t);
  if (!row || Boolean(row.confirmed_at) !== confirmed) return false;
  const check = checkTotp({
    code,
    nowMs: deps.now().getTime(),
    lastStep: row.last_step,
    codeAt: codeAt(openSecret(deps.secret, row.secret_enc)),
  });
  if (!check.ok) return false;
  const changed = await execute(
    deps.sequelize,
    'UPDATE user_totps SET last_step = :step WHERE user_id = :userId AND (last_step IS NULL OR last_step < :step)',
    { step: check.step, userId },
    t,
  );
  return changed === 1;
}

async function acceptRecoveryCode(deps: FactorDeps, userId: number, typed: string, t?: Transaction): Promise<boolean> {
  const code = normaliseRecoveryCode(typed);
  if (!code) return false;
  const used = await execute(
    deps.sequelize,
    'UPDATE user_recovery_codes SET used_at = :now WHERE user_id = :userId AND code_hash = :hash AND used_at IS NULL',
    { now: deps.now(), userId, hash: hashCode(deps.secret, code) },
    t,
  );
  return used > 0;
}

function refuse(deps: FactorDeps, u: { userId: number; clientId: number }, req: RequestInfo, what: string): void {
  deps.recordEvent({
    client_id: u.clientId,
    user_id: u.userId,
    action: 'second_factor_refused',
    resource: 'factor',
    resource_id: null,
    summary: `Se rechazó ${what}`,
    method: req.method,
    path: req.path.slice(0, 200),
    status: 401,
    ip: req.ip?.slice(0, 64) || null,
    created_at: deps.now(),
  });
}

// ── the sign-in's second step ──

interface TokenRow {
  id: string;
  user_id: number;
  client_id: number;
  step: string;
  expires_at: string | Date;
  used_at: string | Date | null;
  challenge: string | null;
  challenge_expires_at: string | Date | null;
}

/** A refusal that was a guess (a wrong code or key), which the throttle counts; malformed input is not. */
export function isRefusedGuess(err: unknown): boolean {
  if (!(err instanceof AppError)) return false;
  return err.status === 401 || err.message === M.codeRefused || err.message === M.recoveryRefused || err.code === 'passkey_invalid';
}

export const tokenInvalid = () => new AppError(401, 'sign_in_token_invalid', M.tokenInvalid);
const codeInvalid = (message: string = M.codeRefused) => new AppError(401, 'second_factor_invalid', message);
const passkeyInvalid = (status: 400 | 401) => new AppError(status, 'passkey_invalid', M.passkeyRefused);

/**
 * After a right password: null when the user signs in at once, else the challenge of the step
 * that follows (a second factor, or enrolment when the policy requires one and there is none).
 */
export async function signInChallengeFor(deps: FactorDeps, user: User): Promise<S['SignInChallenge'] | null> {
  const factors = await factorsOf(deps.sequelize, user.id);
  const step = signInStepOf(factors, user.role_name, await requiredRoles(deps.sequelize, user.client_id));
  if (step === 'none') return null;
  const id = crypto.randomUUID();
  const now = deps.now();
  const expiresAt = new Date(now.getTime() + SIGN_IN_TOKEN_SECONDS * 1000);
  await execute(
    deps.sequelize,
    `INSERT INTO sign_in_tokens (id, user_id, client_id, step, expires_at, created_at) VALUES (:id, :userId, :clientId, :step, :exp, :now)`,
    { id, userId: user.id, clientId: user.client_id, step, exp: expiresAt, now },
  );
  // The user's spent and expired tokens go as a new one comes: the table holds only what is in flight.
  await execute(
    deps.sequelize,
    'DELETE FROM sign_in_tokens WHERE user_id = :userId AND id <> :id AND (used_at IS NOT NULL OR expires_at <= :now)',
    {
      userId: user.id,
      id,
      now,
    },
  );
  const iat = Math.floor(now.getTime() / 1000);
  const token = jwt.sign({ typ: 'sign_in', step, iat, exp: iat + SIGN_IN_TOKEN_SECONDS }, deps.secret, {
    algorithm: 'HS256',
    subject: String(user.id),
    jwtid: id,
    issuer: TOKEN_ISSUER,
    audience: SIGN_IN_AUDIENCE,
  });
  return {
    step,
    token,
    expires_at: expiresAt.toISOString(),
    methods: step === 'enrolment' ? ['totp', 'passkey'] : methodsOf(factors),
    message: step === 'enrolment' ? M.enrolment : M.secondFactor,
  };
}

/** The intermediate token's row and user: signed by us, of this step, unexpired, unused, its user active. */
async function readToken(deps: FactorDeps, token: string, step: 'second_factor' | 'enrolment'): Promise<{ row: TokenRow; user: User }> {
  let claims: jwt.JwtPayload;
  try {
    claims = jwt.verify(token, deps.secret, {
      algorithms: ['HS256'],
      issuer: TOKEN_ISSUER,
      audience: SIGN_IN_AUDIENCE,
      ignoreExpiration: true,
    }) as jwt.JwtPayload;
  } catch {
    throw tokenInvalid();
  }
  const nowMs = deps.now().getTime();
  if (claims.typ !== 'sign_in' || typeof claims.exp !== 'number' || claims.exp * 1000 <= nowMs || !claims.jti) throw tokenInvalid();
  const [row] = await select<TokenRow>(deps.sequelize, 'SELECT * FROM sign_in_tokens WHERE id = :id', { id: claims.jti });
  if (!row || row.used_at || row.step !== step || String(row.user_id) !== claims.sub || new Date(row.expires_at).getTime() <= nowMs)
    throw tokenInvalid();
  const user = await User.findByPk(Number(row.user_id));
  if (!user || user.status !== USER_STATUS.active) throw tokenInvalid();
  return { row, user };
}

/** Spends the token, once, in the transaction that accepted the proof. */
async function spendToken(deps: FactorDeps, row: TokenRow, t?: Transaction): Promise<void> {
  const spent = await execute(
    deps.sequelize,
    'UPDATE sign_in_tokens SET used_at = :now WHERE id = :id AND used_at IS NULL',
    { now: deps.now(), id: row.id },
    t,
  );
  if (spent !== 1) throw tokenInvalid();
}

/** The session, opened after the transaction that spent the token (issuing it is a write of its own). */
const openFor = (deps: FactorDeps, user: User, req: RequestInfo) => deps.openSession(user, { userAgent: req.userAgent, ip: req.ip });

/** The user id a token names, for throttling before anything is checked (null: not ours). */
export function tokenSubject(secret: string, token: string): string | null {
  try {
    const c = jwt.verify(token, secret, {
      algorithms: ['HS256'],
      issuer: TOKEN_ISSUER,
      audience: SIGN_IN_AUDIENCE,
      ignoreExpiration: true,
    });
    return typeof c === 'object' && c.sub ? c.sub : null;
  } catch {
    return null;
  }
}

export async function signInWithCode(deps: FactorDeps, body: S['SecondFactorInput'], req: RequestInfo): Promise<S['Session']> {
  const proof = proofOf(body);
  if (!proof) throw badRequest('code', M.oneProof);
  const { row, user } = await readToken(deps, body.token, 'second_factor');
  const who = { userId: user.id, clientId: user.client_id };
  await writeTransaction(deps.sequelize, async (t) => {
    const ok =
      proof.kind === 'code' ? await acceptTotp(deps, user.id, proof.code, true, t) : await acceptRecoveryCode(deps, user.id, proof.code, t);
    if (!ok) {
      refuse(
        deps,
        who,
        req,
        proof.kind === 'code' ? 'un código de la aplicación al iniciar sesión' : 'un código de recuperación al iniciar sesión',
      );
      throw codeInvalid(proof.kind === 'code' ? M.codeRefused : M.recoveryRefused);
    }
    await spendToken(deps, row, t);
  });
  return openFor(deps, user, req);
}

/** A challenge kept on the token row: 5 minutes, replaced by a newer one, spent by its answer. */
async function keepChallenge(deps: FactorDeps, row: TokenRow, challenge: string): Promise<void> {
  const exp = new Date(deps.now().getTime() + SIGN_IN_TOKEN_SECONDS * 1000);
  await execute(deps.sequelize, 'UPDATE sign_in_tokens SET challenge = :challenge, challenge_expires_at = :exp WHERE id = :id', {
    challenge,
    exp,
    id: row.id,
  });
}

async function spendTokenChallenge(deps: FactorDeps, row: TokenRow): Promise<string | null> {
  if (!row.challenge || !row.challenge_expires_at || new Date(row.challenge_expires_at).getTime() <= deps.now().getTime()) return null;
  const spent = await execute(deps.sequelize, 'UPDATE sign_in_tokens SET challenge = NULL WHERE id = :id AND challenge = :c', {
    id: row.id,
    c: row.challenge,
  });
  return spent === 1 ? row.challenge : null;
}

const transportsOf = (p: PasskeyRow) => (p.transports ? (JSON.parse(p.transports) as string[]) : undefined);

export async function passkeySignInOptions(deps: FactorDeps, token: string, rp: RelyingParty): Promise<S['WebAuthnOptions']> {
  const { row, user } = await readToken(deps, token, 'second_factor');
  const passkeys = await passkeysOf(deps.sequelize, user.id);
  if (!passkeys.length) throw passkeyInvalid(401);
  const options = await generateAuthenticationOptions({
    rpID: rp.id,
    allowCredentials: passkeys.map((p) => ({ id: p.credential_id, transports: transportsOf(p) })),
    userVerification: 'preferred',
    timeout: SIGN_IN_TOKEN_SECONDS * 1000,
  });
  await keepChallenge(deps, row, options.challenge);
  return options as unknown as S['WebAuthnOptions'];
}

/** An assertion of one of the user's passkeys, for the challenge given: its counter and last use written. */
async function acceptAssertion(deps: FactorDeps, userId: number, response: unknown, challenge: string, rp: RelyingParty): Promise<boolean> {
  const r = response as AuthenticationResponseJSON;
  const passkey = (await passkeysOf(deps.sequelize, userId)).find((p) => p.credential_id === r.id);
  if (!passkey) return false;
  try {
    const result = await verifyAuthenticationResponse({
      response: r,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      credential: {
        id: passkey.credential_id,
        publicKey: new Uint8Array(Buffer.from(passkey.public_key, 'base64url')),
        counter: Number(passkey.counter),
        transports: transportsOf(passkey),
      },
      requireUserVerification: false,
    });
    if (!result.verified) return false;
    await execute(deps.sequelize, 'UPDATE user_passkeys SET counter = :counter, last_used_at = :now WHERE id = :id', {
      counter: result.authenticationInfo.newCounter,
      now: deps.now(),
      id: passkey.id,
    });
    return true;
  } catch {
    return false;
  }
}

export async function signInWithPasskey(
  deps: FactorDeps,
  body: S['PasskeySignInInput'],
  rp: RelyingParty,
  req: RequestInfo,
): Promise<S['Session']> {
  const { row, user } = await readToken(deps, body.token, 'second_factor');
  const challenge = await spendTokenChallenge(deps, row);
  if (!challenge || !(await acceptAssertion(deps, user.id, body.response, challenge, rp))) {
    refuse(deps, { userId: user.id, clientId: user.client_id }, req, 'una llave de acceso al iniciar sesión');
    throw passkeyInvalid(401);
  }
  await spendToken(deps, row);
  return openFor(deps, user, req);
}

// ── enrolment: TOTP ──

/** A new pending key for the authenticator app, replacing a pending one (a confirmed one stays: 409). */
async function newPendingTotp(deps: FactorDeps, user: { id: number; client_id: number; email: string }): Promise<S['TotpEnrolment']> {
  const secret = authenticator.generateSecret(20);
  await writeTransaction(deps.sequelize, async (t) => {
    const existing = await totpOf(deps.sequelize, user.id, t);
    if (existing?.confirmed_at) throw conflict(M.totpExists);
    await execute(deps.sequelize, 'DELETE FROM user_totps WHERE user_id = :userId', { userId: user.id }, t);
    await execute(
      deps.sequelize,
      'INSERT INTO user_totps (user_id, client_id, secret_enc, created_at) VALUES (:userId, :clientId, :enc, :now)',
      { userId: user.id, clientId: user.client_id, enc: sealSecret(deps.secret, secret), now: deps.now() },
      t,
    );
  });
  const uri = authenticator.keyuri(user.email, ISSUER_LABEL, secret);
  const qr = await QRCode.toString(uri, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });
  return {
    secret,
    otpauth_uri: uri,
    qr_svg: qr,
    message: 'Escanee el código QR con su aplicación de autenticación (o escriba la clave) y confirme con el primer código.',
  };
}

/** Confirms the pending key with its first code; answers the recovery codes of a first factor. */
async function confirmPendingTotp(
  deps: FactorDeps,
  u: { userId: number; clientId: number },
  code: string,
  t: Transaction,
): Promise<string[]> {
  const row = await totpOf(deps.sequelize, u.userId, t);
  if (!row || row.confirmed_at) throw badRequest('code', M.noPendingTotp);
  const before = await factorsOf(deps.sequelize, u.userId, t);
  if (!(await acceptTotp(deps, u.userId, code, false, t))) return Promise.reject(codeInvalid());
  await execute(
    deps.sequelize,
    'UPDATE user_totps SET confirmed_at = :now WHERE user_id = :userId',
    { now: deps.now(), userId: u.userId },
    t,
  );
  return codesForNewFactor(deps, u, before, t);
}

function enrolled(deps: FactorDeps, u: { userId: number; clientId: number }, req: RequestInfo, summary: string) {
  deps.recordEvent({
    client_id: u.clientId,
    user_id: u.userId,
    action: 'factor_enrolled',
    resource: 'factor',
    resource_id: null,
    summary,
    method: req.method,
    path: req.path.slice(0, 200),
    status: 201,
    ip: req.ip?.slice(0, 64) || null,
    created_at: deps.now(),
  });
}

export async function enrolmentTotp(deps: FactorDeps, token: string): Promise<S['TotpEnrolment']> {
  const { user } = await readToken(deps, token, 'enrolment');
  return newPendingTotp(deps, user);
}

export async function confirmEnrolmentTotp(
  deps: FactorDeps,
  body: S['EnrolmentTotpConfirmInput'],
  req: RequestInfo,
): Promise<S['EnrolledSession']> {
  const { row, user } = await readToken(deps, body.token, 'enrolment');
  const who = { userId: user.id, clientId: user.client_id };
  const codes = await writeTransaction(deps.sequelize, async (t) => {
    const codes = await confirmPendingTotp(deps, who, body.code, t).catch((err) => {
      if (err instanceof AppError && err.code === 'second_factor_invalid') refuse(deps, who, req, 'el primer código de la aplicación');
      throw err;
    });
    await spendToken(deps, row, t);
    await noticeOf(deps, who, 'totp_added', t);
    return codes;
  });
  enrolled(deps, who, req, 'Inscribió una aplicación de autenticación al iniciar sesión');
  return { ...(await openFor(deps, user, req)), recovery_codes: codes };
}

// ── enrolment: passkeys ──

async function registrationOptions(deps: FactorDeps, user: User, rp: RelyingParty) {
  const passkeys = await passkeysOf(deps.sequelize, user.id);
  return generateRegistrationOptions({
    rpName: ISSUER_LABEL,
    rpID: rp.id,
    userName: user.email,
    userDisplayName: `${user.first_name} ${user.last_name}`.trim(),
    userID: new TextEncoder().encode(`vigia-user-${user.id}`),
    attestationType: 'none',
    excludeCredentials: passkeys.map((p) => ({ id: p.credential_id, transports: transportsOf(p) })),
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
    timeout: SIGN_IN_TOKEN_SECONDS * 1000,
  });
}

/** Verifies a registration for the challenge given and stores the passkey; answers it and any recovery codes. */
async function storePasskey(
  deps: FactorDeps,
  u: { userId: number; clientId: number },
  name: string,
  response: unknown,
  challenge: string,
  rp: RelyingParty,
  t: Transaction,
): Promise<{ passkey: S['Passkey']; codes: string[] }> {
  let credential;
  try {
    const result = await verifyRegistrationResponse({
      response: response as RegistrationResponseJSON,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: false,
    });
    if (!result.verified) throw passkeyInvalid(400);
    credential = result.registrationInfo.credential;
  } catch {
    throw passkeyInvalid(400);
  }
  const [taken] = await select<{ id: number }>(
    deps.sequelize,
    'SELECT id FROM user_passkeys WHERE credential_id = :cid',
    { cid: credential.id },
    t,
  );
  if (taken) throw conflict('Esa llave de acceso ya está registrada.');
  const before = await factorsOf(deps.sequelize, u.userId, t);
  const now = deps.now();
  const id = await insertReturningId(
    deps.sequelize,
    `INSERT INTO user_passkeys (user_id, client_id, credential_id, public_key, counter, transports, name, created_at)
     VALUES (:userId, :clientId, :cid, :pk, :counter, :transports, :name, :now) RETURNING id`,
    {
      userId: u.userId,
      clientId: u.clientId,
      cid: credential.id,
      pk: Buffer.from(credential.publicKey).toString('base64url'),
      counter: credential.counter,
      transports: credential.transports ? JSON.stringify(credential.transports) : null,
      name: name.trim(),
      now,
    },
    t,
  );
  const codes = await codesForNewFactor(deps, u, before, t);
  return { passkey: { id, name: name.trim(), created_at: now.toISOString(), last_used_at: null }, codes };
}

export async function enrolmentPasskeyOptions(deps: FactorDeps, token: string, rp: RelyingParty): Promise<S['WebAuthnOptions']> {
  const { row, user } = await readToken(deps, token, 'enrolment');
  const options = await registrationOptions(deps, user, rp);
  await keepChallenge(deps, row, options.challenge);
  return options as unknown as S['WebAuthnOptions'];
}

export async function confirmEnrolmentPasskey(
  deps: FactorDeps,
  body: S['EnrolmentPasskeyInput'],
  rp: RelyingParty,
  req: RequestInfo,
): Promise<S['EnrolledSession']> {
  const { row, user } = await readToken(deps, body.token, 'enrolment');
  const who = { userId: user.id, clientId: user.client_id };
  const challenge = await spendTokenChallenge(deps, row);
  if (!challenge) throw passkeyInvalid(400);
  const codes = await writeTransaction(deps.sequelize, async (t) => {
    const { codes } = await storePasskey(deps, who, body.name, body.response, challenge, rp, t);
    await spendToken(deps, row, t);
    await noticeOf(deps, who, 'passkey_added', t);
    return codes;
  });
  enrolled(deps, who, req, 'Registró una llave de acceso al iniciar sesión');
  return { ...(await openFor(deps, user, req)), recovery_codes: codes };
}

// ── 'Seguridad' ──

const iso = (d: string | Date | null) => (d ? new Date(d).toISOString() : null);

export async function getMyFactors(deps: FactorDeps, p: StaffPrincipal): Promise<S['Factors']> {
  const [totp, passkeys, f] = await Promise.all([
    totpOf(deps.sequelize, p.userId),
    passkeysOf(deps.sequelize, p.userId),
    factorsOf(deps.sequelize, p.userId),
  ]);
  return {
    totp: { enabled: Boolean(totp?.confirmed_at), enrolled_at: iso(totp?.confirmed_at ?? null) },
    recovery_codes_left: hasFactor(f) ? f.recoveryCodesLeft : 0,
    passkeys: passkeys.map((k) => ({ id: Number(k.id), name: k.name, created_at: iso(k.created_at)!, last_used_at: iso(k.last_used_at) })),
    required: await isRequired(deps.sequelize, p.clientId, p.role),
  };
}

export async function startMyTotp(deps: FactorDeps, p: StaffPrincipal): Promise<S['TotpEnrolment']> {
  return newPendingTotp(deps, { id: p.userId, client_id: p.clientId, email: p.user.email });
}

/** A signed-in user's code is refused as 400 on its field: the session itself is fine. */
const asFieldError = (field: string) => (err: unknown) => {
  if (err instanceof AppError && err.code === 'second_factor_invalid') throw badRequest(field, err.message);
  throw err;
};

export async function confirmMyTotp(deps: FactorDeps, p: StaffPrincipal, code: string): Promise<S['FactorEnrolled']> {
  const who = { userId: p.userId, clientId: p.clientId };
  const codes = await writeTransaction(deps.sequelize, async (t) => {
    const codes = await confirmPendingTotp(deps, who, code, t);
    await noticeOf(deps, who, 'totp_added', t);
    return codes;
  }).catch(asFieldError('code'));
  return { recovery_codes: codes, message: 'La aplicación de autenticación quedó inscrita.' };
}

/** Proves the user holds a factor now: a current code or an unused recovery code. */
async function proveFactor(
  deps: FactorDeps,
  p: StaffPrincipal,
  body: { code?: string; recovery_code?: string },
  t: Transaction,
): Promise<void> {
  const proof = proofOf(body);
  if (!proof) throw badRequest('code', M.oneProof);
  const ok =
    proof.kind === 'code' ? await acceptTotp(deps, p.userId, proof.code, true, t) : await acceptRecoveryCode(deps, p.userId, proof.code, t);
  if (!ok) throw badRequest(proof.kind === 'code' ? 'code' : 'recovery_code', proof.kind === 'code' ? M.codeRefused : M.recoveryRefused);
}

export async function removeMyTotp(deps: FactorDeps, p: StaffPrincipal, body: S['FactorProofInput']): Promise<S['FactorsMessage']> {
  const required = await isRequired(deps.sequelize, p.clientId, p.role);
  await writeTransaction(deps.sequelize, async (t) => {
    const f = await factorsOf(deps.sequelize, p.userId, t);
    if (!f.totp) throw conflict(M.noFactor);
    if (!mayRemoveFactor({ ...f, totp: false }, required)) throw conflict(M.lastFactor);
    await proveFactor(deps, p, body, t);
    await execute(deps.sequelize, 'DELETE FROM user_totps WHERE user_id = :userId', { userId: p.userId }, t);
    if (!f.passkeys) await execute(deps.sequelize, 'DELETE FROM user_recovery_codes WHERE user_id = :userId', { userId: p.userId }, t);
    await noticeOf(deps, { userId: p.userId, clientId: p.clientId }, 'totp_removed', t);
  });
  return { message: 'Se quitó la aplicación de autenticación.' };
}

export async function renewMyRecoveryCodes(
  deps: FactorDeps,
  p: StaffPrincipal,
  body: S['RecoveryCodesInput'],
): Promise<S['FactorEnrolled']> {
  const codes = await writeTransaction(deps.sequelize, async (t) => {
    const f = await factorsOf(deps.sequelize, p.userId, t);
    if (!hasFactor(f)) throw conflict(M.noFactor);
    // Someone with the app proves it again; a passkey was proved at sign-in and has no code to give.
    if (f.totp) {
      if (body.code === undefined) throw badRequest('code', '¡El campo es requerido!');
      if (!(await acceptTotp(deps, p.userId, body.code, true, t))) throw badRequest('code', M.codeRefused);
    }
    await noticeOf(deps, { userId: p.userId, clientId: p.clientId }, 'recovery_codes_renewed', t);
    return replaceRecoveryCodes(deps, { userId: p.userId, clientId: p.clientId }, t);
  });
  return { recovery_codes: codes, message: 'Sus códigos de recuperación anteriores dejaron de valer.' };
}

export async function myPasskeyOptions(deps: FactorDeps, p: StaffPrincipal, rp: RelyingParty): Promise<S['WebAuthnOptions']> {
  const options = await registrationOptions(deps, p.user, rp);
  const now = deps.now();
  await execute(deps.sequelize, 'DELETE FROM webauthn_challenges WHERE user_id = :userId', { userId: p.userId });
  await execute(
    deps.sequelize,
    'INSERT INTO webauthn_challenges (user_id, client_id, challenge, expires_at, created_at) VALUES (:userId, :clientId, :c, :exp, :now)',
    { userId: p.userId, clientId: p.clientId, c: options.challenge, exp: new Date(now.getTime() + SIGN_IN_TOKEN_SECONDS * 1000), now },
  );
  return options as unknown as S['WebAuthnOptions'];
}

export async function addMyPasskey(
  deps: FactorDeps,
  p: StaffPrincipal,
  body: S['PasskeyInput'],
  rp: RelyingParty,
): Promise<S['PasskeyAdded']> {
  const clientChallenge = (() => {
    try {
      const data = (body.response as { response?: { clientDataJSON?: string } }).response?.clientDataJSON;
      return String(JSON.parse(Buffer.from(String(data), 'base64url').toString('utf8')).challenge ?? '');
    } catch {
      return '';
    }
  })();
  // The stored challenge this answer signs is spent whether or not the answer holds.
  const spent = await execute(
    deps.sequelize,
    'UPDATE webauthn_challenges SET used_at = :now WHERE user_id = :userId AND challenge = :c AND used_at IS NULL AND expires_at > :now',
    { now: deps.now(), userId: p.userId, c: clientChallenge },
  );
  if (spent !== 1) throw passkeyInvalid(400);
  const who = { userId: p.userId, clientId: p.clientId };
  const { passkey, codes } = await writeTransaction(deps.sequelize, async (t) => {
    const stored = await storePasskey(deps, who, body.name, body.response, clientChallenge, rp, t);
    await noticeOf(deps, who, 'passkey_added', t);
    return stored;
  });
  return { passkey, recovery_codes: codes, message: 'La llave de acceso quedó registrada.' };
}

export async function renameMyPasskey(deps: FactorDeps, p: StaffPrincipal, id: number, name: string): Promise<S['Passkey']> {
  const changed = await execute(deps.sequelize, 'UPDATE user_passkeys SET name = :name WHERE id = :id AND user_id = :userId', {
    name: name.trim(),
    id,
    userId: p.userId,
  });
  if (!changed) throw notFound('La llave de acceso no existe.');
  const k = (await passkeysOf(deps.sequelize, p.userId)).find((x) => Number(x.id) === id)!;
  return { id, name: k.name, created_at: iso(k.created_at)!, last_used_at: iso(k.last_used_at) };
}

export async function deleteMyPasskey(deps: FactorDeps, p: StaffPrincipal, id: number): Promise<S['FactorsMessage']> {
  const required = await isRequired(deps.sequelize, p.clientId, p.role);
  await writeTransaction(deps.sequelize, async (t) => {
    const mine = (await passkeysOf(deps.sequelize, p.userId, t)).some((k) => Number(k.id) === id);
    if (!mine) throw notFound('La llave de acceso no existe.');
    const f = await factorsOf(deps.sequelize, p.userId, t);
    const after = { ...f, passkeys: f.passkeys - 1 };
    if (!mayRemoveFactor(after, required)) throw conflict(M.lastFactor);
    await execute(deps.sequelize, 'DELETE FROM user_passkeys WHERE id = :id AND user_id = :userId', { id, userId: p.userId }, t);
    if (!hasFactor(after))
      await execute(deps.sequelize, 'DELETE FROM user_recovery_codes WHERE user_id = :userId', { userId: p.userId }, t);
    await noticeOf(deps, { userId: p.userId, clientId: p.clientId }, 'passkey_removed', t);
  });
  return { message: 'Se eliminó la llave de acceso.' };
}

/** Usuarios → 'Restablecer segundo factor': another user of the administrator's client; their sessions end. */
export async function resetUserFactors(deps: FactorDeps, actor: StaffPrincipal, userId: number): Promise<S['SessionsEnded']> {
  if (userId === actor.userId) throw badRequest('id', M.resetSelf);
  const [user] = await select<{ id: number }>(deps.sequelize, 'SELECT id FROM users WHERE id = :id AND client_id = :clientId', {
    id: userId,
    clientId: actor.clientId,
  });
  if (!user) throw notFound('El usuario no existe.');
  const ended = await writeTransaction(deps.sequelize, async (t) => {
    for (const table of ['user_totps', 'user_passkeys', 'user_recovery_codes', 'webauthn_challenges', 'sign_in_tokens'])
      await execute(deps.sequelize, `DELETE FROM ${table} WHERE user_id = :userId`, { userId }, t);
    await noticeOf(deps, { userId, clientId: actor.clientId }, 'reset_by_admin', t);
    return deps.endAllSessions({ userId, clientId: actor.clientId }, t);
  });
  return {
    ended,
    message: `Se restableció el segundo factor del usuario${ended ? ` y se cerraron sus sesiones (${ended})` : ''}.`,
  };
}
