import type { Sequelize } from 'sequelize';
import type { OperationId } from '@vigia/contract/rules/operations';
import { execute, select } from '../db/sql.js';
import type { JobRunner } from '../jobs/queue.js';
import { staffOf } from './auth.js';
import { AppError, badRequest } from './errors.js';
import type { OperationHandler } from './operations.js';
import {
  IDEMPOTENCY_HEADER,
  KEY_TTL_MS,
  MESSAGES,
  REPLAYED_HEADER,
  STALE_RUN_MS,
  keepsAnswer,
  readIdempotencyKey,
  requestHash,
  verdictFor,
  type StoredKey,
} from './idempotency.rules.js';

export interface IdempotencyDeps {
  sequelize: Sequelize;
  now: () => Date;
}

type Owner = {
  client: number;
  user: number;
  key: string;
};

/**
 * Takes the key for this request: a new key, an expired one, or one whose first request died
 * unanswered (same request, started more than STALE_RUN_MS ago). The unique index decides between
 * two requests sent together, on SQLite and PostgreSQL alike: the second's INSERT changes nothing.
 */
async function claimKey(deps: IdempotencyDeps, owner: Owner, hash: string, now: Date): Promise<boolean> {
  const changed = await execute(
    deps.sequelize,
    `INSERT INTO idempotency_keys (client_id, user_id, key, request_hash, status, body, started_at, expires_at)
     VALUES (:client, :user, :key, :hash, NULL, NULL, :now, :expires)
     ON CONFLICT (client_id, user_id, key) DO UPDATE
       SET request_hash = excluded.request_hash, status = NULL, body = NULL, started_at = excluded.started_at, expires_at = excluded.expires_at
       WHERE idempotency_keys.expires_at <= :now
          OR (idempotency_keys.status IS NULL AND idempotency_keys.started_at <= :stale AND idempotency_keys.request_hash = excluded.request_hash)`,
    { ...owner, hash, now, expires: new Date(now.getTime() + KEY_TTL_MS), stale: new Date(now.getTime() - STALE_RUN_MS) },
  );
  return changed > 0;
}

async function storedKey(deps: IdempotencyDeps, owner: Owner): Promise<StoredKey | null> {
  const [row] = await select<StoredKey>(
    deps.sequelize,
    'SELECT request_hash, status, body FROM idempotency_keys WHERE client_id = :client AND user_id = :user AND key = :key',
    owner,
  );
  return row ?? null;
}

const keepAnswer = (deps: IdempotencyDeps, owner: Owner, status: number, body: unknown) =>
  execute(
    deps.sequelize,
    'UPDATE idempotency_keys SET status = :status, body = :body WHERE client_id = :client AND user_id = :user AND key = :key AND status IS NULL',
    { ...owner, status, body: JSON.stringify(body ?? null) },
  );

/** A refusal or a failure wrote nothing: the key is given back, and the same submit may try again. */
const releaseKey = (deps: IdempotencyDeps, owner: Owner) =>
  execute(
    deps.sequelize,
    'DELETE FROM idempotency_keys WHERE client_id = :client AND user_id = :user AND key = :key AND status IS NULL',
    owner,
  );

/**
 * Wraps a staff write so that it honours `Idempotency-Key` (issue 50): a phone that lost the answer
 * and sends the same request again with the same key gets the first answer again (with
 * `Idempotent-Replayed: true`) and nothing is written twice; the same key on another request is a
 * 422; the same request while the first still runs is a 409 with Retry-After. Without the header the
 * write runs as it always has. The handler answers with `res.json`, held here until its answer is kept.
 */
export function idempotent<Op extends OperationId>(deps: IdempotencyDeps, handler: OperationHandler<Op>): OperationHandler<Op> {
  return async (req, res) => {
    const read = readIdempotencyKey(req.get(IDEMPOTENCY_HEADER));
    if (!read.ok) throw badRequest(IDEMPOTENCY_HEADER, MESSAGES.malformed);
    if (read.key === null) return handler(req, res);
    const staff = staffOf(req);
    const owner: Owner = { client: staff.clientId, user: staff.userId, key: read.key };
    const hash = requestHash(req.method, req.originalUrl, req.body);
    // Twice at most: a key released between our INSERT and our SELECT is claimed on the second turn.
    for (let turn = 0; turn < 2; turn++) {
      if (await claimKey(deps, owner, hash, deps.now())) return runKeepingAnswer(deps, owner, handler, req, res);
      const stored = await storedKey(deps, owner);
      if (!stored) continue;
      const verdict = verdictFor(stored, hash);
      if (verdict.kind === 'reused')
        throw new AppError(422, 'idempotency_key_reused', MESSAGES.reused, [{ field: IDEMPOTENCY_HEADER, message: MESSAGES.reused }]);
      if (verdict.kind === 'in_progress')
        throw new AppError(409, 'idempotency_in_progress', MESSAGES.inProgress, [], { 'Retry-After': String(verdict.retryAfterSeconds) });
      res.setHeader(REPLAYED_HEADER, 'true');
      res.status(verdict.status).json(verdict.body as never);
      return;
    }
    throw new AppError(409, 'idempotency_in_progress', MESSAGES.inProgress, [], { 'Retry-After': '1' });
  };
}

async function runKeepingAnswer<Op extends OperationId>(
  deps: IdempotencyDeps,
  owner: Owner,
  handler: OperationHandler<Op>,
  ...[req, res]: Parameters<OperationHandler<Op>>
): Promise<void> {
  const send = res.json.bind(res);
  let answer: { body: unknown } | null = null;
  res.json = ((body: unknown) => {
    answer = { body };
    return res;
  }) as typeof res.json;
  try {
    await handler(req, res);
  } catch (err) {
    // The handler's error is the one to answer; a key not given back is taken over after STALE_RUN_MS.
    await releaseKey(deps, owner).catch(() => undefined);
    throw err;
  } finally {
    res.json = send;
  }
  const held = answer as { body: unknown } | null;
  if (!held) {
    await releaseKey(deps, owner);
    return;
  }
  // The write is done whatever happens to its key: its answer is sent even if the key's row could not
  // be written (the database busy), since a client that has its answer does not send it again.
  if (keepsAnswer(res.statusCode)) await keepAnswer(deps, owner, res.statusCode, held.body).catch(() => undefined);
  else await releaseKey(deps, owner).catch(() => undefined);
  send(held.body as never);
}

/** Kept keys are forgotten after a day, every hour by the job runner (a claim also retakes an expired key). */
export function registerIdempotencyJobs(deps: { jobs: JobRunner }): void {
  deps.jobs.every({
    kind: 'idempotency_key_expiry',
    everyMs: 3600_000,
    handler: async (ctx) => {
      await execute(ctx.sequelize, 'DELETE FROM idempotency_keys WHERE expires_at <= :now', { now: ctx.now });
    },
  });
}
