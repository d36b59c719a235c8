import type { Request, RequestHandler } from 'express';
import type { Sequelize } from 'sequelize';
import { execute, Positional, rowPlaceholders, select } from '../../db/sql.js';
import { GroupCommit } from '../../db/group-commit.js';
import { perDatabase } from '../../db/per-database.js';
import { auditTable, describeRequest, type AuditDraft, type AuditTable } from './audit.rules.js';
import { loadContract } from '../../http/contract.js';
import type { Principal } from '../../http/auth.js';
import { REPLAYED_HEADER } from '../../http/idempotency.rules.js';

export interface AuditDeps {
  sequelize: Sequelize;
  now: () => Date;
  log: (msg: string, err?: unknown) => void;
}

/** Tables an event may read its patient from when neither the route nor the answer names it. */
const PATIENT_TABLES = new Set(['encounters', 'encounter_observations']);

const positive = (v: unknown): number | null => {
  const n = typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v;
  return typeof n === 'number' && Number.isInteger(n) && n > 0 ? n : null;
};

interface Who {
  clientId: number;
  userId: number | null;
  kind: 'staff' | 'patient';
  patientId: number | null;
}

/**
 * What the recorder keeps of a finished request: plain values, not the request. `record` waits for
 * its turn at the writer (up to AUDIT_SPACING_MS and the queue), and an async function that held
 * `req` kept the request, its response and the router's closures alive all that time, past the
 * young generation's collections (issue 22: under single-reading load 12.2 % of what the API
 * allocated was promoted to the old generation, 11.0 % with this).
 */
interface FinishedRequest {
  method: string;
  pattern: string;
  params: Record<string, string>;
  body: unknown;
  status: number;
  ip: string;
  /** The signed-in principal's ids (a staff principal also carries its user's model instance). */
  signedIn: Who | null;
}

/**
 * The audit trail's one writer (issue 8). Registered once in front of every /api/v1 route: it
 * keeps a reference to the JSON answer and, when the response has finished, asks the pure rules
 * what the request meant and writes one row. Nothing here runs before the answer is sent, and a
 * failure to record is logged, never turned into an error for the caller.
 */
export function auditRecorder(deps: AuditDeps): RequestHandler {
  // What each operation records is its x-audit in openapi.yaml, read once.
  const table = auditTable(loadContract().doc.paths as Record<string, Record<string, unknown>>);
  return (req, res, next) => {
    if (req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS') return next();
    let answer: unknown;
    const json = res.json.bind(res);
    res.json = (body: unknown) => {
      answer = body;
      return json(body);
    };
    res.once('finish', () => {
      // An answer sent again for an Idempotency-Key wrote nothing: the first one was recorded (issue 50).
      if (res.getHeader(REPLAYED_HEADER)) return;
      recordLater(deps, table, finishedRequest(req, res.statusCode), answer);
    });
    next();
  };
}

/** Outside the middleware's scope: a closure made in there would hold its `req` until the row is written. */
function recordLater(deps: AuditDeps, table: AuditTable, finished: FinishedRequest | null, answer: unknown): void {
  if (finished) record(deps, table, finished, answer).catch((err) => deps.log('audit event not recorded', err));
}

function whoOf(p: Principal | undefined): Who | null {
  if (p?.kind === 'staff') return { clientId: p.clientId, userId: p.userId, kind: 'staff', patientId: null };
  if (p?.kind === 'patient') return { clientId: p.clientId, userId: null, kind: 'patient', patientId: p.patientId };
  return null;
}

function finishedRequest(req: Request, status: number): FinishedRequest | null {
  const pattern = typeof req.route?.path === 'string' ? req.route.path : null;
  if (!pattern) return null;
  return {
    method: req.method,
    pattern,
    params: (req.params ?? {}) as Record<string, string>,
    body: req.body,
    status,
    ip: req.ip ?? '',
    signedIn: whoOf(req.user?.principal),
  };
}

async function record(deps: AuditDeps, table: AuditTable, req: FinishedRequest, answer: unknown): Promise<void> {
  const { pattern, status } = req;
  const draft = describeRequest({ method: req.method, pattern, params: req.params, body: req.body, status }, table);
  if (!draft) return;
  const who = await actorOf(deps, req, draft, answer);
  if (!who) return;
  const a = (answer && typeof answer === 'object' && !Array.isArray(answer) ? answer : {}) as Record<string, unknown>;
  const patientId = await patientOf(deps, draft, a, who);
  // A new row is named by the answer's id.
  const resourceId = draft.resource_id ?? (draft.action === 'create' && positive(a.id) ? String(a.id) : null);
  await writerFor(deps.sequelize).submit({
    client_id: who.clientId,
    user_id: who.userId,
    actor_kind: who.kind,
    action: draft.action,
    resource: draft.resource,
    resource_id: resourceId,
    patient_id: patientId,
    summary: draft.summary,
    changes: draft.changes,
    method: req.method.toUpperCase(),
    path: pattern.slice(0, 200),
    status,
    ip: req.ip.slice(0, 64) || null,
    created_at: deps.now(),
  });
}

const AUDIT_COLUMNS = [
  'client_id',
  'user_id',
  'actor_kind',
  'action',
  'resource',
  'resource_id',
  'patient_id',
  'summary',
  'changes',
  'method',
  'path',
  'status',
  'ip',
  'created_at',
] as const;
type AuditRow = Record<(typeof AUDIT_COLUMNS)[number], unknown>;

/**
 * Events that finish together are written together: one multi-row INSERT per group (GroupCommit),
 * so a burst of audited writes (staff entering readings) adds one statement, not one per request.
 * Under a steady stream, at most one INSERT per AUDIT_SPACING_MS: each one takes a turn in the
 * SQLite writer queue that the requests' own transactions wait for (bench, single readings: the
 * trail's INSERT ran between every two ingestion groups and held each for ~3.5 ms).
 */
const AUDIT_SPACING_MS = 100;
const writerFor = perDatabase(
  (sequelize: Sequelize) => sequelize,
  (sequelize: Sequelize) =>
    new GroupCommit<AuditRow, void>(
      async (rows) => {
        const values = new Positional(rows.flatMap((row) => AUDIT_COLUMNS.map((c) => row[c])));
        const placeholders = rowPlaceholders(sequelize, rows.length, AUDIT_COLUMNS.length);
        await execute(sequelize, `INSERT INTO audit_events (${AUDIT_COLUMNS.join(', ')}) VALUES ${placeholders}`, values);
        return rows.map(() => undefined);
      },
      { maxSize: 200, spacingMs: AUDIT_SPACING_MS },
    ),
);

/**
 * An event no request's answer can name (issue 38): a password recovery asked for or used, whose
 * answer must not say whose account it was, and a refused token. Same writer, same columns; the
 * caller says who and what. Never throws: a failure is logged, as for the recorder's own events.
 */
export function recordAuditEvent(
  deps: Pick<AuditDeps, 'sequelize' | 'log'>,
  event: Pick<
    AuditRow,
    'client_id' | 'user_id' | 'action' | 'resource' | 'resource_id' | 'summary' | 'method' | 'path' | 'status' | 'ip' | 'created_at'
  > & { actor_kind?: 'staff' | 'system'; patient_id?: number | null },
): void {
  // 'system': a machine acting with its own credentials (an API client's token, issue 37).
  writerFor(deps.sequelize)
    .submit({ ...event, actor_kind: event.actor_kind ?? 'staff', patient_id: event.patient_id ?? null, changes: null })
    .catch((err) => deps.log('audit event not recorded', err));
}

/** Writes the events still waiting for their INSERT; called before the database closes. */
export function flushAuditTrail(sequelize: Sequelize): Promise<void> {
  return writerFor(sequelize).flushPending();
}

/** The signed-in principal; for a sign-in, the user the answer names, or (refused) the account tried. */
async function actorOf(deps: AuditDeps, req: FinishedRequest, draft: AuditDraft, answer: unknown): Promise<Who | null> {
  if (req.signedIn) return req.signedIn;
  if (draft.action === 'sign_in') {
    const a = (answer ?? {}) as { user_id?: unknown; client_id?: unknown };
    const clientId = positive(a.client_id);
    if (clientId) return { clientId, userId: positive(a.user_id), kind: 'staff', patientId: null };
    // A patient's one-time-code sign-in answers only the patient's id.
    const patientId = positive((answer as { id?: unknown } | undefined)?.id);
    if (!patientId) return null;
    const [pt] = await select<{ client_id: number }>(deps.sequelize, 'SELECT client_id FROM patients WHERE id = :id', { id: patientId });
    return pt ? { clientId: pt.client_id, userId: null, kind: 'patient', patientId } : null;
  }
  if (draft.action === 'sign_in_failed') {
    const body = (req.body ?? {}) as { email?: unknown };
    const email = typeof body.email === 'string' ? body.email.trim().toLowerCase() : '';
    if (!email) return null;
    // An unknown e-mail belongs to no client: there is no trail to write it to.
    const [u] = await select<{ id: number; client_id: number }>(deps.sequelize, 'SELECT id, client_id FROM users WHERE email = :email', {
      email,
    });
    return u ? { clientId: u.client_id, userId: u.id, kind: 'staff', patientId: null } : null;
  }
  return null;
}

async function patientOf(deps: AuditDeps, draft: AuditDraft, a: Record<string, unknown>, who: Who): Promise<number | null> {
  if (typeof draft.patient === 'number') return draft.patient;
  if (draft.patient) {
    const nested = a.patient && typeof a.patient === 'object' ? (a.patient as Record<string, unknown>).id : undefined;
    const fromAnswer = positive(a.patient_id) ?? positive(nested) ?? (draft.resource === 'patient' ? positive(a.id) : null);
    if (fromAnswer) return fromAnswer;
    const { table, rowId } = draft.patient;
    if (table && PATIENT_TABLES.has(table) && positive(rowId)) {
      const [row] = await select<{ patient_id: number | null }>(
        deps.sequelize,
        `SELECT patient_id FROM ${table} WHERE id = :id AND client_id = :clientId`,
        {
          id: positive(rowId),
          clientId: who.clientId,
        },
      );
      if (row?.patient_id) return Number(row.patient_id);
    }
  }
  return who.patientId;
}
