import type { Sequelize, Transaction } from 'sequelize';
import { execute, select, writeTransaction } from '../../db/sql.js';
import { AppError, badRequest } from '../../http/errors.js';
import type { JobRunner } from '../../jobs/queue.js';
import type { EmailSender } from '../../adapters/email.js';
import type { RecordAuditEvent } from '../sessions/sessions.service.js';
import { hashPassword } from '../sessions/passwords.js';
import { USER_STATUS } from '@vigia/contract/rules/access';
import { displayName } from '@vigia/contract/rules/names';
import { passwordSignInAllowed, SSO_REQUIRED_MESSAGE } from '@vigia/contract/rules/sign-in';
import {
  RESET_DONE_MESSAGE,
  RESET_REFUSALS,
  RESET_REQUESTED_MESSAGE,
  RESET_TTL_MINUTES,
  changedEmail,
  checkNewPassword,
  hashResetToken,
  newResetToken,
  resetEmail,
  resetLink,
  resetState,
  ssoEmail,
} from './password-resets.rules.js';

export interface PasswordResetDeps {
  sequelize: Sequelize;
  jobs: JobRunner;
  now: () => Date;
  log: (msg: string, err?: unknown) => void;
  email: EmailSender;
  /** PUBLIC_URL: the links in the e-mails start with it (without it, with the request's own origin). */
  publicUrl: string | null;
  /** The installation signs staff in through an OpenID provider: recovery is the provider's (P88). */
  ssoEnabled: boolean;
  recordEvent: RecordAuditEvent;
  /** The sessions module ends every session of the user (reason password_reset). */
  endAllSessions(user: { userId: number; clientId: number }, transaction: Transaction): Promise<number>;
  /** The users module stores the new hash. */
  setPassword(userId: number, passwordHash: string, transaction: Transaction): Promise<void>;
}

export const SEND_RESET_JOB = 'password_resets.send';
/** After a reset, the account's owner is told (ASVS 5.0 6.3.6): if it was not them, they know at once. */
export const RESET_DONE_JOB = 'password_resets.done';

interface ResetJobPayload {
  email: string;
  ip: string | null;
  /** Where the e-mail's links point: PUBLIC_URL, or the origin the request reached (issue 49). */
  base?: string;
}

/**
 * POST /password_resets. The same work whatever the e-mail: one job queued. Looking the account
 * up, making the token and sending the e-mail happen in that job, so the answer neither waits on
 * SMTP nor takes longer for an account that exists.
 */
export async function requestPasswordReset(
  deps: PasswordResetDeps,
  email: string,
  ip: string | null,
  base: string,
): Promise<{ message: string }> {
  const payload: ResetJobPayload = { email, ip, base };
  await deps.jobs.enqueue({ kind: SEND_RESET_JOB, payload, maxAttempts: 5 });
  return { message: RESET_REQUESTED_MESSAGE };
}

interface UserRow {
  id: number;
  client_id: number;
  email: string;
  first_name: string;
  status: number;
  break_glass: boolean | number;
}

export function registerPasswordResetJobs(deps: PasswordResetDeps): void {
  deps.jobs.register(SEND_RESET_JOB, async (job, ctx) => {
    const { email, ip, base: requestBase } = job.payload as ResetJobPayload;
    // A job queued before issue 49 carries no base: PUBLIC_URL, or a path as then.
    const base = (requestBase ?? deps.publicUrl ?? '').replace(/\/+$/, '');
    const [user] = await select<UserRow>(
      deps.sequelize,
      'SELECT id, client_id, email, first_name, status, break_glass FROM users WHERE email = :email',
      {
        email,
      },
    );
    // Unknown or disabled: nothing is sent and nothing is recorded (no client's trail to write to).
    if (!user || Number(user.status) !== USER_STATUS.active) return;
    const now = ctx.now;
    const firstName = displayName(user.first_name);
    const audit = (summary: string) =>
      deps.recordEvent({
        client_id: Number(user.client_id),
        user_id: Number(user.id),
        action: 'password_reset_requested',
        resource: 'user',
        resource_id: String(user.id),
        summary,
        method: 'POST',
        path: '/password_resets',
        status: 200,
        ip,
        created_at: now,
      });
    // Issue 49: with single sign-on, no recovery link except for a break-glass account; the
    // answer to the request was the same whatever happens here.
    if (!passwordSignInAllowed(deps.ssoEnabled, Boolean(Number(user.break_glass)))) {
      await deps.email.send({ to: user.email, ...ssoEmail({ firstName, email: user.email, loginUrl: `${base}/login` }) });
      audit('Pidió restablecer su contraseña; se le indicó entrar con el inicio de sesión único');
      return;
    }
    const token = newResetToken();
    await writeTransaction(deps.sequelize, async (transaction) => {
      // A newer request voids the links sent before it.
      await execute(
        deps.sequelize,
        'UPDATE password_resets SET voided_at = :now WHERE user_id = :userId AND used_at IS NULL AND voided_at IS NULL',
        { now, userId: user.id },
        transaction,
      );
      await execute(
        deps.sequelize,
        `INSERT INTO password_resets (user_id, client_id, token_hash, expires_at, ip, created_at)
         VALUES (:userId, :clientId, :hash, :expires, :ip, :now)`,
        {
          userId: user.id,
          clientId: user.client_id,
          hash: hashResetToken(token),
          expires: new Date(now.getTime() + RESET_TTL_MINUTES * 60_000),
          ip,
          now,
        },
        transaction,
      );
    });
    // If sending fails the job runs again and sends a new link, which voids this one.
    await deps.email.send({ to: user.email, ...resetEmail({ firstName, email: user.email, link: resetLink(base, token) }) });
    audit('Pidió un enlace para restablecer su contraseña');
  });
  deps.jobs.register(RESET_DONE_JOB, async (job) => {
    const { userId } = job.payload as { userId: number };
    const [user] = await select<UserRow>(deps.sequelize, 'SELECT id, client_id, email, first_name, status FROM users WHERE id = :id', {
      id: userId,
    });
    if (!user) return;
    await deps.email.send({ to: user.email, ...changedEmail({ firstName: displayName(user.first_name), email: user.email }) });
  });
}

interface ResetRow {
  id: number;
  user_id: number;
  client_id: number;
  expires_at: string | Date;
  used_at: string | Date | null;
  voided_at: string | Date | null;
  user_status: number | null;
  user_break_glass: number | boolean | null;
}

const refused = (message: string) => new AppError(400, 'reset_invalid', message, [{ field: 'token', message }]);
const asDate = (v: string | Date | null) => (v == null ? null : new Date(v));

/**
 * PUT /password_resets/{token}: the link's token and the new password. The token is checked first
 * (a dead link is said so before anything else), then the password rule; the link is spent by a
 * conditional UPDATE, so two requests racing with one link change the password once.
 */
export async function completePasswordReset(
  deps: PasswordResetDeps,
  token: string,
  input: { password: string; password_confirmation: string },
  ip: string | null,
): Promise<{ message: string }> {
  const hash = hashResetToken(token);
  const [row] = await select<ResetRow>(
    deps.sequelize,
    `SELECT r.id, r.user_id, r.client_id, r.expires_at, r.used_at, r.voided_at, u.status AS user_status, u.break_glass AS user_break_glass
     FROM password_resets r LEFT JOIN users u ON u.id = r.user_id AND u.client_id = r.client_id WHERE r.token_hash = :hash`,
    { hash },
  );
  const state = resetState(
    row && {
      used_at: asDate(row.used_at),
      voided_at: asDate(row.voided_at),
      expires_at: new Date(row.expires_at),
      user_active: row.user_status != null && Number(row.user_status) === USER_STATUS.active,
    },
    deps.now(),
  );
  if (state !== 'valid') throw refused(RESET_REFUSALS[state]);
  // A link mailed before the organisation moved to single sign-on sets no password a provider user
  // could not use anyway: the same answer as the sign-in's, and the link is spent (issue 49, P217).
  if (!passwordSignInAllowed(deps.ssoEnabled, Boolean(Number(row.user_break_glass)))) {
    await execute(deps.sequelize, 'UPDATE password_resets SET voided_at = :now WHERE id = :id AND voided_at IS NULL', {
      now: deps.now(),
      id: row.id,
    });
    throw new AppError(403, 'sso_required', SSO_REQUIRED_MESSAGE);
  }
  const problem = checkNewPassword(input.password, input.password_confirmation);
  if (problem) throw badRequest(problem.field, problem.message);
  const passwordHash = await hashPassword(input.password);
  const userId = Number(row.user_id);
  const clientId = Number(row.client_id);
  await writeTransaction(deps.sequelize, async (transaction) => {
    const now = deps.now();
    const spent = await execute(
      deps.sequelize,
      'UPDATE password_resets SET used_at = :now WHERE id = :id AND used_at IS NULL AND voided_at IS NULL AND expires_at > :now',
      { now, id: row.id },
      transaction,
    );
    if (!spent) throw refused(RESET_REFUSALS.used);
    await deps.setPassword(userId, passwordHash, transaction);
    // Any other link still out is void too: the password it would reset is already new.
    await execute(
      deps.sequelize,
      'UPDATE password_resets SET voided_at = :now WHERE user_id = :userId AND used_at IS NULL AND voided_at IS NULL',
      { now, userId },
      transaction,
    );
    await deps.endAllSessions({ userId, clientId }, transaction);
    await deps.jobs.enqueue({ kind: RESET_DONE_JOB, payload: { userId }, maxAttempts: 5 }, transaction);
  });
  deps.recordEvent({
    client_id: clientId,
    user_id: userId,
    action: 'password_reset',
    resource: 'user',
    resource_id: String(userId),
    summary: 'Restableció su contraseña con el enlace recibido por correo; se cerraron todas sus sesiones',
    method: 'PUT',
    path: '/password_resets/:token',
    status: 200,
    ip,
    created_at: deps.now(),
  });
  return { message: RESET_DONE_MESSAGE };
}
