import crypto from 'node:crypto';
import { AppError, tooManyRequests } from '../../http/errors.js';
import { normaliseNid } from '@vigia/contract/rules/validation';
import type { SmsSender } from '../../adapters/sms.js';
import { issueToken, type SessionDeps } from '../sessions/sessions.service.js';
import * as rules from './otp.rules.js';
import { execute, select, sqlIn } from '../../db/sql.js';
import { PATIENT_STATUS } from '@vigia/contract/rules/access';

export interface OtpDeps extends SessionDeps {
  sms: SmsSender;
  codeLength: number;
  randomInt?: (max: number) => number;
  log: (msg: string, err?: unknown) => void;
}

const hmac = (secret: string, ...parts: string[]) => crypto.createHmac('sha256', secret).update(parts.join('\u0000')).digest('hex');

/** Documents are never stored in the clear in the code tables: only this keyed hash. */
const hashNid = (secret: string, rawNid: string) => hmac(secret, 'nid', normaliseNid(rawNid));

/** The portal lock of one document (D17), for the patient page: whether it holds, and the staff unlock. */
export interface PortalLocks {
  lockedUntil(nid: string): Promise<Date | null>;
  unlock(nid: string): Promise<void>;
}

export function createPortalLocks(deps: Pick<OtpDeps, 'sequelize' | 'secret' | 'now'>): PortalLocks {
  return {
    async lockedUntil(nid) {
      const [row] = await select<{ locked_until: string }>(deps.sequelize, 'SELECT locked_until FROM otp_lockouts WHERE nid_hash = :h', {
        h: hashNid(deps.secret, nid),
      });
      const until = row ? new Date(row.locked_until) : null;
      return until && until > deps.now() ? until : null;
    },
    async unlock(nid) {
      const h = hashNid(deps.secret, nid);
      // Clearing the failures too gives the patient a fresh allowance, as an expired lock would.
      await deps.sequelize.transaction(async (transaction) => {
        await deps.sequelize.query('DELETE FROM otp_lockouts WHERE nid_hash = :h', { replacements: { h }, transaction });
        await deps.sequelize.query('DELETE FROM otp_failures WHERE nid_hash = :h', { replacements: { h }, transaction });
      });
    },
  };
}

/** Patients who may use the portal: not deceased, with a mobile phone to receive the code. */
const ELIGIBLE = `status IN ${sqlIn(PATIENT_STATUS.inactive, PATIENT_STATUS.active, PATIENT_STATUS.incomplete)} AND cellphone IS NOT NULL`;

export async function requestOtp(deps: OtpDeps, rawNid: string, ip: string) {
  const now = deps.now();
  const nid = normaliseNid(rawNid);
  const nidHash = hashNid(deps.secret, nid);
  const q = <T extends object>(sql: string, replacements: Record<string, unknown>) => select<T>(deps.sequelize, sql, replacements);

  const nidSince = new Date(now.getTime() - rules.OTP_REQUESTS_PER_NID.windowMs);
  const ipSince = new Date(now.getTime() - rules.OTP_REQUESTS_PER_IP.windowMs);
  const [nidStats] = await q<{ n: number; oldest: string | null }>(
    'SELECT COUNT(*) AS n, MIN(created_at) AS oldest FROM otp_challenges WHERE nid_hash = :h AND created_at > :since',
    { h: nidHash, since: nidSince },
  );
  const [ipStats] = await q<{ n: number; oldest: string | null }>(
    'SELECT COUNT(*) AS n, MIN(created_at) AS oldest FROM otp_challenges WHERE ip = :ip AND created_at > :since',
    { ip, since: ipSince },
  );
  const [lock] = await q<{ locked_until: string }>('SELECT locked_until FROM otp_lockouts WHERE nid_hash = :h', { h: nidHash });
  const decision = rules.decideRequest(
    {
      nidRequestsInWindow: Number(nidStats.n),
      ipRequestsInWindow: Number(ipStats.n),
      lockedUntil: lock ? new Date(lock.locked_until) : null,
    },
    now,
    { nid: nidStats.oldest ? new Date(nidStats.oldest) : null, ip: ipStats.oldest ? new Date(ipStats.oldest) : null },
  );
  if (!decision.ok) {
    throw tooManyRequests(
      decision.reason === 'locked' ? rules.OTP_MESSAGES.locked : rules.OTP_MESSAGES.tooManyRequests,
      decision.retryAfterMs / 1000,
    );
  }

  // The same work and the same answer whether or not the document exists.
  const challengeId = crypto.randomUUID();
  const patients = await q<{ id: number; client_id: number; prefix: string | null; cellphone: string }>(
    `SELECT id, client_id, prefix, cellphone FROM patients WHERE nid = :nid AND ${ELIGIBLE}`,
    { nid },
  );
  const randomInt = deps.randomInt ?? ((max: number) => crypto.randomInt(max));
  const outgoing: Array<{ clientId: number; patientId: number; to: string; body: string }> = [];
  await deps.sequelize.transaction(async (transaction) => {
    // A new code ends the document's earlier ones: only the latest SMS signs in.
    await deps.sequelize.query(
      'UPDATE otp_challenges SET expires_at = :now WHERE nid_hash = :h AND used_at IS NULL AND expires_at > :now',
      { replacements: { h: nidHash, now }, transaction },
    );
    await deps.sequelize.query(
      'INSERT INTO otp_challenges (id, nid_hash, ip, expires_at, attempts, created_at) VALUES (:id, :h, :ip, :exp, 0, :now)',
      { replacements: { id: challengeId, h: nidHash, ip, exp: new Date(now.getTime() + rules.OTP_TTL_MS), now }, transaction },
    );
    for (const p of patients) {
      const code = rules.generateCode(deps.codeLength, randomInt);
      await deps.sequelize.query('INSERT INTO otp_codes (challenge_id, patient_id, code_hash) VALUES (:c, :p, :h)', {
        replacements: { c: challengeId, p: p.id, h: hmac(deps.secret, 'otp', challengeId, String(p.id), code) },
        transaction,
      });
      outgoing.push({ clientId: p.client_id, patientId: p.id, to: p.cellphone, body: rules.OTP_MESSAGES.sms(code) });
    }
  });
  // Sent after the answer is decided, so the delivery time does not reveal a match.
  for (const m of outgoing) deps.sms.send(m).catch((err) => deps.log('otp sms failed', err));
  return { message: rules.OTP_MESSAGES.requested, challenge_id: challengeId, code_length: deps.codeLength };
}

export async function verifyOtp(deps: OtpDeps, rawNid: string, code: string, challengeId: string) {
  const now = deps.now();
  const nidHash = hashNid(deps.secret, rawNid);
  const q = <T extends object>(sql: string, replacements: Record<string, unknown>) => select<T>(deps.sequelize, sql, replacements);
  const failed = () => new AppError(401, 'otp_failed', rules.OTP_MESSAGES.failed);

  const [lock] = await q<{ locked_until: string }>('SELECT locked_until FROM otp_lockouts WHERE nid_hash = :h', { h: nidHash });
  if (lock && new Date(lock.locked_until) > now) {
    throw tooManyRequests(rules.OTP_MESSAGES.locked, (new Date(lock.locked_until).getTime() - now.getTime()) / 1000);
  }

  const [ch] = await q<{ id: string; expires_at: string; attempts: number; used_at: string | null }>(
    'SELECT id, expires_at, attempts, used_at FROM otp_challenges WHERE id = :id AND nid_hash = :h',
    { id: challengeId, h: nidHash },
  );
  const open = rules.isChallengeOpen(
    ch ? { expiresAt: new Date(ch.expires_at), attempts: Number(ch.attempts), usedAt: ch.used_at ? new Date(ch.used_at) : null } : null,
    now,
  );

  let patientId: number | null = null;
  let clientId: number | null = null;
  if (open) {
    // Count the attempt first and atomically, so parallel guesses cannot exceed the limit.
    const counted = await execute(
      deps.sequelize,
      'UPDATE otp_challenges SET attempts = attempts + 1 WHERE id = :id AND attempts < :max AND used_at IS NULL',
      {
        id: challengeId,
        max: rules.OTP_MAX_ATTEMPTS_PER_CODE,
      },
    );
    if (counted > 0) {
      const codes = await q<{ patient_id: number; code_hash: string }>(
        'SELECT patient_id, code_hash FROM otp_codes WHERE challenge_id = :id',
        { id: challengeId },
      );
      for (const c of codes) {
        const expected = Buffer.from(c.code_hash, 'hex');
        const actual = Buffer.from(hmac(deps.secret, 'otp', challengeId, String(c.patient_id), code), 'hex');
        if (crypto.timingSafeEqual(expected, actual)) patientId = c.patient_id;
      }
    }
  }
  if (patientId != null) {
    const [p] = await q<{ client_id: number }>(`SELECT client_id FROM patients WHERE id = :id AND ${ELIGIBLE}`, { id: patientId });
    clientId = p?.client_id ?? null;
  }
  if (patientId != null && clientId != null) {
    const used = await execute(deps.sequelize, 'UPDATE otp_challenges SET used_at = :now WHERE id = :id AND used_at IS NULL', {
      id: challengeId,
      now,
    });
    if (used > 0) {
      // Signing in ends every other code of the document still open.
      await execute(
        deps.sequelize,
        'UPDATE otp_challenges SET expires_at = :now WHERE nid_hash = :h AND id <> :id AND used_at IS NULL AND expires_at > :now',
        { h: nidHash, id: challengeId, now },
      );
      const { token, expiresAt } = await issueToken(deps, { type: 'patient', id: patientId, clientId });
      return { token, id: patientId, expires_at: expiresAt.toISOString() };
    }
  }

  await deps.sequelize.transaction(async (transaction) => {
    await deps.sequelize.query('INSERT INTO otp_failures (nid_hash, created_at) VALUES (:h, :now)', {
      replacements: { h: nidHash, now },
      transaction,
    });
    const [row] = await select<{ n: number }>(
      deps.sequelize,
      'SELECT COUNT(*) AS n FROM otp_failures WHERE nid_hash = :h AND created_at > :since',
      { h: nidHash, since: new Date(now.getTime() - rules.OTP_FAILURE_WINDOW_MS) },
      transaction,
    );
    const until = rules.lockAfterFailure(Number(row.n), now);
    if (until) {
      await deps.sequelize.query('DELETE FROM otp_lockouts WHERE nid_hash = :h', { replacements: { h: nidHash }, transaction });
      await deps.sequelize.query('INSERT INTO otp_lockouts (nid_hash, locked_until) VALUES (:h, :until)', {
        replacements: { h: nidHash, until },
        transaction,
      });
    }
  });
  throw failed();
}
