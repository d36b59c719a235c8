import type { Sequelize, Transaction } from 'sequelize';
import type { components } from '@vigia/contract/openapi';
import { displayName } from '@vigia/contract/rules/names';
import { rdaWaitsForEarlier } from '@vigia/contract/rules/rda';
import { isPostgres } from '../../db/database.js';
import { execute, insertReturningId, select, writeTransaction } from '../../db/sql.js';
import { badRequest, conflict, notFound } from '../../http/errors.js';
import type { ListParams } from '../../http/list-params.js';
import type { JobRunner } from '../../jobs/queue.js';
import type { IhceAdapter, IhceCredentials, RdaDocumentKind } from '../../adapters/ihce.js';
import { validateServiceUrl } from '../clients/clients.rules.js';
import { recentRequests, requestsBetween } from '../../http/traffic.js';
import {
  CORRECTION_REASONS,
  RDA_GIVE_WAY_WINDOW_MS,
  RDA_REASONS,
  canResend,
  rdaSendPause,
  correctionRoute,
  issuesOf,
  rdaDateRange,
  rdaIdentifierOf,
  rdaRetryDelayMs,
  type CorrectionRoute,
  type EarlierVersion,
} from './rdas.rules.js';

type RdaDto = components['schemas']['Rda'];
type RdaDetailDto = components['schemas']['RdaDetail'];
type RdaSummaryDto = components['schemas']['RdaSummary'];
type IhceSettingsDto = components['schemas']['IhceSettings'];
type IhceSettingsInput = components['schemas']['IhceSettingsInput'];
type Notification = components['schemas']['Notification'];

export interface RdaDeps {
  sequelize: Sequelize;
  jobs: JobRunner;
  now: () => Date;
  log: (msg: string, err?: unknown) => void;
  ihce: IhceAdapter;
  /** Seals and opens the organisation's IHCE secrets (AES-256-GCM under the server's secret). */
  secrets: { seal(plain: string): string; open(sealed: string): string };
  /** WEBHOOKS_ALLOW_HTTP=1: http:// and loopback platform URLs (a local peer); else https:// only. */
  allowHttp: boolean;
  /** Requests the process has received (http/traffic.ts): a backlog's sends give way to them. */
  requestsReceived?: () => number;
}

export const RDA_SEND_JOB = 'rda.send';

/** The job key of a document's first send: its identifier, so one document is one send in flight. */
const sendKey = (identifier: string) => `rda:${identifier}`;

interface RdaRow {
  id: number;
  client_id: number;
  patient_id: number;
  first_name: string | null;
  last_name: string | null;
  encounter_id: number | null;
  kind: RdaDocumentKind;
  identifier: string;
  version: number;
  replaces_id: number | null;
  replaced_by_id: number | null;
  correction_reason: string | null;
  status: RdaDto['status'];
  status_reason: string | null;
  outcome: string | null;
  remote_id: string | null;
  attempts: number;
  next_attempt_at: string | Date | null;
  sent_at: string | Date | null;
  created_at: string | Date;
  updated_at: string | Date;
}

const iso = (d: string | Date | null) => (d == null ? null : new Date(d).toISOString());
const numOrNull = (v: unknown) => (v == null ? null : Number(v));

/** The refusal's issues as kept (issuesOf wrote them); none when there was no refusal. */
function issuesStored(outcome: string | null): RdaDto['issues'] {
  if (!outcome) return [];
  try {
    const parsed: unknown = JSON.parse(outcome);
    return Array.isArray(parsed) ? (parsed as RdaDto['issues']) : [];
  } catch {
    return [];
  }
}

/** The one place an rdas row becomes the contract's Rda. */
function toRdaDto(r: RdaRow): RdaDto {
  const issues = issuesStored(r.outcome);
  return {
    id: Number(r.id),
    patient_id: Number(r.patient_id),
    patient_name: r.first_name ? displayName(`${r.first_name} ${r.last_name ?? ''}`) : null,
    encounter_id: numOrNull(r.encounter_id),
    kind: r.kind,
    identifier: r.identifier,
    version: Number(r.version),
    replaces_id: numOrNull(r.replaces_id),
    replaced_by_id: numOrNull(r.replaced_by_id),
    correction_reason: r.correction_reason,
    status: r.status,
    status_reason: r.status_reason,
    issues,
    remote_id: r.remote_id,
    attempts: Number(r.attempts),
    next_attempt_at: iso(r.next_attempt_at),
    sent_at: iso(r.sent_at),
    created_at: iso(r.created_at)!,
    updated_at: iso(r.updated_at)!,
  };
}

const SELECT_RDA = `SELECT r.id, r.client_id, r.patient_id, p.first_name, p.last_name, r.encounter_id, r.kind, r.identifier, r.version,
  r.replaces_id, (SELECT n.id FROM rdas n WHERE n.replaces_id = r.id) AS replaced_by_id, r.correction_reason, r.status, r.status_reason, r.outcome, r.remote_id, r.attempts, r.next_attempt_at, r.sent_at, r.created_at, r.updated_at
  FROM rdas r LEFT JOIN patients p ON p.id = r.patient_id`;

/**
 * recordRda's look-up of an identifier: the table alone, by its unique index. Joined to the
 * patient, the planner scanned rdas whenever its statistics were taken while it was nearly empty
 * (36 ms a document at 10,000 in issue 51's bench). Exported for the plan test (tests/api/rda-documents.test.ts).
 */
export const RDA_BY_IDENTIFIER = 'SELECT id, client_id FROM rdas WHERE identifier = :identifier';
/**
 * What the send job reads of a version before its document: the row by its key, the organisation
 * checked on it (`+client_id`, no index: with the statistics of a nearly empty table PostgreSQL
 * took client_id as unique too and searched (client_id, encounter_id, version) for it).
 */
export const RDA_TO_SEND =
  'SELECT status, kind, identifier, attempts, replaces_id, encounter_id, version FROM rdas WHERE id = :id AND +client_id = :clientId';
/** A version's document, kept verbatim (migration 0041): one search of the table's primary key. */
export const RDA_DOCUMENT = 'SELECT bundle FROM rda_documents WHERE rda_id = :id';

/** The document text of a version (its organisation checked by the caller); every version has one, written with it. */
async function documentOf(deps: Pick<RdaDeps, 'sequelize'>, id: number): Promise<string> {
  const [row] = await select<{ bundle: string }>(deps.sequelize, RDA_DOCUMENT, { id });
  if (!row) throw new Error(`El RDA ${id} no tiene su documento`);
  return row.bundle;
}

async function rdaRow(deps: Pick<RdaDeps, 'sequelize'>, clientId: number, id: number, transaction?: Transaction): Promise<RdaRow> {
  const [row] = await select<RdaRow>(
    deps.sequelize,
    `${SELECT_RDA} WHERE r.id = :id AND r.client_id = :clientId`,
    { id, clientId },
    transaction,
  );
  if (!row) throw notFound('El RDA no existe.');
  return row;
}

// ---------------------------------------------------------------------------------------------
// IHCE settings ('Integraciones → IHCE')

interface SettingsRow {
  client_id: number;
  enabled: boolean | number;
  token_url: string | null;
  base_url: string | null;
  oauth_client_id: string | null;
  client_secret_enc: string | null;
  subscription_key_enc: string | null;
  scope: string | null;
}

async function settingsRow(sequelize: Sequelize, clientId: number, transaction?: Transaction): Promise<SettingsRow | null> {
  const [row] = await select<SettingsRow>(
    sequelize,
    'SELECT client_id, enabled, token_url, base_url, oauth_client_id, client_secret_enc, subscription_key_enc, scope FROM ihce_settings WHERE client_id = :clientId',
    { clientId },
    transaction,
  );
  return row ?? null;
}

const complete = (s: SettingsRow | null): s is SettingsRow =>
  !!s && Boolean(s.enabled) && !!s.token_url && !!s.base_url && !!s.oauth_client_id && !!s.client_secret_enc && !!s.subscription_key_enc;

/** The one place an ihce_settings row becomes the contract's IhceSettings: the secrets only as "is set". */
function toSettingsDto(s: SettingsRow | null): IhceSettingsDto {
  return {
    enabled: Boolean(s?.enabled),
    token_url: s?.token_url ?? null,
    base_url: s?.base_url ?? null,
    client_id: s?.oauth_client_id ?? null,
    scope: s?.scope ?? null,
    client_secret_set: Boolean(s?.client_secret_enc),
    subscription_key_set: Boolean(s?.subscription_key_enc),
    configured: complete(s),
  };
}

/** The organisation's credentials to talk to the platform, or null (the local default) when incomplete or off. */
async function credentialsOf(deps: Pick<RdaDeps, 'sequelize' | 'secrets'>, clientId: number): Promise<IhceCredentials | null> {
  const s = await settingsRow(deps.sequelize, clientId);
  if (!complete(s)) return null;
  try {
    return {
      tokenUrl: s.token_url!,
      baseUrl: s.base_url!,
      clientId: s.oauth_client_id!,
      clientSecret: deps.secrets.open(s.client_secret_enc!),
      subscriptionKey: deps.secrets.open(s.subscription_key_enc!),
      scope: s.scope || null,
    };
  } catch {
    // Sealed under another server secret (JWT_SECRET changed): as good as not set. The documents
    // wait 'sin enviar' until an administrator enters the secrets again, which re-queues them.
    return null;
  }
}

const ownClient = (clientId: number, id: number) => {
  if (clientId !== id) throw notFound('El cliente no existe.');
};

export async function getIhceSettings(deps: Pick<RdaDeps, 'sequelize'>, clientId: number, id: number): Promise<IhceSettingsDto> {
  ownClient(clientId, id);
  return toSettingsDto(await settingsRow(deps.sequelize, clientId));
}

const blank = (v: string | null | undefined) => v == null || v.trim() === '';

/**
 * Saves the settings; a secret sent empty or not at all keeps the one stored. Switched on, they must
 * be complete; once they are, the documents waiting 'sin enviar' go to the queue.
 */
export async function updateIhceSettings(deps: RdaDeps, clientId: number, id: number, input: IhceSettingsInput): Promise<IhceSettingsDto> {
  ownClient(clientId, id);
  const now = deps.now();
  return writeTransaction(deps.sequelize, async (transaction) => {
    const current = await settingsRow(deps.sequelize, clientId, transaction);
    const text = (v: string | null | undefined, was: string | null | undefined) =>
      v === undefined ? (was ?? null) : blank(v) ? null : v!.trim();
    const next: SettingsRow = {
      client_id: clientId,
      enabled: input.enabled ?? Boolean(current?.enabled),
      token_url: text(input.token_url, current?.token_url),
      base_url: text(input.base_url, current?.base_url),
      oauth_client_id: text(input.client_id, current?.oauth_client_id),
      scope: text(input.scope, current?.scope),
      client_secret_enc: blank(input.client_secret) ? (current?.client_secret_enc ?? null) : deps.secrets.seal(input.client_secret!),
      subscription_key_enc: blank(input.subscription_key)
        ? (current?.subscription_key_enc ?? null)
        : deps.secrets.seal(input.subscription_key!.trim()),
    };
    for (const field of ['token_url', 'base_url'] as const) {
      const value = next[field];
      if (value == null && !next.enabled) continue;
      const problem = validateServiceUrl(value, { allowHttp: deps.allowHttp });
      if (problem) throw badRequest(field, problem);
    }
    if (next.enabled) {
      const required = 'Es obligatorio para activar el envío a la plataforma IHCE.';
      if (!next.oauth_client_id) throw badRequest('client_id', required);
      if (!next.client_secret_enc) throw badRequest('client_secret', required);
      if (!next.subscription_key_enc) throw badRequest('subscription_key', required);
    }
    const values = { ...next, enabled: Boolean(next.enabled), now };
    if (current)
      await execute(
        deps.sequelize,
        `UPDATE ihce_settings SET enabled = :enabled, token_url = :token_url, base_url = :base_url, oauth_client_id = :oauth_client_id,
         client_secret_enc = :client_secret_enc, subscription_key_enc = :subscription_key_enc, scope = :scope, updated_at = :now WHERE client_id = :client_id`,
        values,
        transaction,
      );
    else
      await execute(
        deps.sequelize,
        `INSERT INTO ihce_settings (client_id, enabled, token_url, base_url, oauth_client_id, client_secret_enc, subscription_key_enc, scope, created_at, updated_at)
         VALUES (:client_id, :enabled, :token_url, :base_url, :oauth_client_id, :client_secret_enc, :subscription_key_enc, :scope, :now, :now)`,
        values,
        transaction,
      );
    if (complete(next)) await queueUnsent(deps, clientId, transaction);
    return toSettingsDto(next);
  });
}

/** 'Probar conexión': a new token with the saved settings; success, or the Spanish reason it failed. */
export async function testIhceConnection(deps: RdaDeps, clientId: number, id: number): Promise<Notification> {
  ownClient(clientId, id);
  const credentials = await credentialsOf(deps, clientId);
  if (!credentials)
    throw badRequest('enabled', 'Active la conexión y complete las direcciones, el client_id, el client_secret y la clave de suscripción.');
  const problem = await deps.ihce.platform(credentials).testConnection();
  return problem
    ? { type: 'error', message: problem }
    : { type: 'success', message: 'La plataforma IHCE entregó un token: la conexión funciona.' };
}

/** The documents of an organisation left 'sin enviar' go to the queue (its settings have just become complete). */
const QUEUE_STEP = 100;

async function queueUnsent(deps: Pick<RdaDeps, 'sequelize' | 'jobs' | 'now'>, clientId: number, transaction: Transaction) {
  const now = deps.now();
  const rows = await select<{ id: number; identifier: string }>(
    deps.sequelize,
    "SELECT id, identifier FROM rdas WHERE client_id = :clientId AND status = 'sin_enviar' ORDER BY id",
    { clientId },
    transaction,
  );
  if (!rows.length) return;
  // In steps of QUEUE_STEP rows: SQLite's writer keeps a statement's journal in memory (P209), and
  // one UPDATE of a backlog of 10,000 took the API from 210 to 470 MB (issue 51's bench) while each
  // row held its document (~26 KB). The rows are small since migration 0041; the steps still bound
  // the journal whatever the backlog.
  for (let i = 0; i < rows.length; i += QUEUE_STEP)
    await execute(
      deps.sequelize,
      "UPDATE rdas SET status = 'pendiente', status_reason = NULL, next_attempt_at = :now, updated_at = :now WHERE id IN (:ids) AND status = 'sin_enviar'",
      { ids: rows.slice(i, i + QUEUE_STEP).map((r) => Number(r.id)), now },
      transaction,
    );
  for (const r of rows) await enqueueSend(deps, clientId, Number(r.id), `${sendKey(r.identifier)}:s${now.getTime()}`, now, transaction);
}

function enqueueSend(deps: Pick<RdaDeps, 'jobs'>, clientId: number, rdaId: number, key: string, runAt: Date, transaction?: Transaction) {
  // maxAttempts is the runner's for a handler that throws (the database away): the platform's own
  // failures never throw, they are retried by a follow-up job of their own (rdaRetryDelayMs).
  return deps.jobs.enqueue({ kind: RDA_SEND_JOB, key, clientId, payload: { rdaId }, runAt, maxAttempts: 20 }, transaction);
}

// ---------------------------------------------------------------------------------------------
// Documents

export interface RecordRdaInput {
  clientId: number;
  patientId: number;
  encounterId?: number | null;
  kind: RdaDocumentKind;
  /** The document Bundle the RDA builder made (ambulatoryDocument / patientDocument), kept verbatim. */
  bundle: object;
  /** A nota aclaratoria: the version it replaces (the latest of its document) and the clinician's reason. */
  replaces?: { id: number; reason: string };
}

/**
 * The single entry every writer of an RDA calls (closing a teleconsultation, enrolling a patient,
 * a changed history): keeps the built Bundle under its own identifier and queues its send when the
 * organisation has the platform configured ('pendiente'), else keeps it 'sin enviar'. Inside
 * `transaction` the document and its job exist only if the caller's writes commit. Recording the
 * same identifier twice answers the document already kept.
 */
export async function recordRda(
  deps: Pick<RdaDeps, 'sequelize' | 'jobs' | 'now'>,
  input: RecordRdaInput,
  transaction?: Transaction,
): Promise<RdaDto> {
  const identifier = rdaIdentifierOf(input.bundle);
  if (!identifier) throw badRequest('bundle', RDA_REASONS.invalidBundle);
  const run = async (t: Transaction) => {
    const [patient] = await select<{ id: number }>(
      deps.sequelize,
      'SELECT id FROM patients WHERE id = :patientId AND client_id = :clientId',
      { patientId: input.patientId, clientId: input.clientId },
      t,
    );
    if (!patient) throw notFound('El paciente no existe.');
    const [existing] = await select<{ id: number; client_id: number }>(deps.sequelize, RDA_BY_IDENTIFIER, { identifier }, t);
    if (existing) {
      if (Number(existing.client_id) !== input.clientId) throw badRequest('bundle', 'Ya existe un RDA con este identificador.');
      return toRdaDto(await rdaRow(deps, input.clientId, Number(existing.id), t));
    }
    const configured = complete(await settingsRow(deps.sequelize, input.clientId, t));
    const now = deps.now();
    const version = input.replaces ? (await replaceable(deps, input, t)).version + 1 : 1;
    const id = await insertReturningId(
      deps.sequelize,
      `INSERT INTO rdas (client_id, patient_id, encounter_id, kind, identifier, version, replaces_id, correction_reason, status,
         status_reason, outcome, remote_id, attempts, next_attempt_at, sent_at, created_at, updated_at)
       VALUES (:clientId, :patientId, :encounterId, :kind, :identifier, :version, :replacesId, :correctionReason, :status,
         :reason, NULL, NULL, 0, :next, NULL, :now, :now)
       RETURNING id`,
      {
        clientId: input.clientId,
        patientId: input.patientId,
        encounterId: input.encounterId ?? null,
        kind: input.kind,
        identifier,
        version,
        replacesId: input.replaces?.id ?? null,
        correctionReason: input.replaces?.reason ?? null,
        status: configured ? 'pendiente' : 'sin_enviar',
        reason: configured ? null : RDA_REASONS.unconfigured,
        next: configured ? now : null,
        now,
      },
      t,
    );
    // The document beside its version, written this once (migration 0041): every later write of
    // the version (its status, its tries) is a row of a few hundred bytes.
    await execute(
      deps.sequelize,
      'INSERT INTO rda_documents (rda_id, bundle) VALUES (:id, :bundle)',
      { id, bundle: JSON.stringify(input.bundle) },
      t,
    );
    if (input.replaces) {
      // The versions before it that never reached the platform never will: 'corregido' now, so
      // neither the settings arriving nor 'Reenviar' sends them (the rule's retire, at the source).
      await execute(
        deps.sequelize,
        `UPDATE rdas SET status = 'corregido', status_reason = :why, next_attempt_at = NULL, updated_at = :now
         WHERE client_id = :clientId AND encounter_id = :encounterId AND kind = :kind AND id <> :id AND status IN ('sin_enviar', 'rechazado')`,
        { why: CORRECTION_REASONS.retired(version), now, clientId: input.clientId, encounterId: input.encounterId, kind: input.kind, id },
        t,
      );
    }
    if (configured) await enqueueSend(deps, input.clientId, id, sendKey(identifier), now, t);
    return toRdaDto(await rdaRow(deps, input.clientId, id, t));
  };
  return transaction ? run(transaction) : writeTransaction(deps.sequelize, run);
}

/**
 * The version a nota aclaratoria replaces: of the same organisation, encounter and kind, and the
 * latest (one not corrected already; the unique index on replaces_id settles a race).
 */
async function replaceable(deps: Pick<RdaDeps, 'sequelize'>, input: RecordRdaInput, t: Transaction): Promise<RdaRow> {
  const previous = await rdaRow(deps, input.clientId, input.replaces!.id, t);
  if (previous.kind !== input.kind || numOrNull(previous.encounter_id) !== (input.encounterId ?? null))
    throw badRequest('replaces', 'La versión que se corrige no es de esta atención.');
  if (previous.replaced_by_id != null) throw conflict(CORRECTION_REASONS.alreadyCorrected);
  return previous;
}

/** The latest version of an encounter's document (what a nota aclaratoria replaces); null when it has none. */
export async function latestEncounterRda(
  deps: Pick<RdaDeps, 'sequelize'>,
  clientId: number,
  encounterId: number,
  transaction?: Transaction,
): Promise<{ id: number; identifier: string; version: number } | null> {
  const [row] = await select<{ id: number; identifier: string; version: number }>(
    deps.sequelize,
    `SELECT id, identifier, version FROM rdas WHERE client_id = :clientId AND encounter_id = :encounterId AND kind = 'consulta'
     ORDER BY version DESC, id DESC LIMIT 1`,
    { clientId, encounterId },
    transaction,
  );
  return row ? { id: Number(row.id), identifier: row.identifier, version: Number(row.version) } : null;
}

export interface RdaListFilters {
  status?: string;
  kind?: string;
  patient_id?: number;
  /** 'Desde' / 'Hasta': days of the organisation's zone (YYYY-MM-DD, inclusive) on when the RDA was written. */
  from?: string;
  to?: string;
}

/** The list also reads the organisation's zone, in which its days are (the clients module's reader, from app.ts). */
export type RdaListDeps = Pick<RdaDeps, 'sequelize'> & { clientTimeZone: (clientId: number) => Promise<string> };

export async function listRdas(
  deps: RdaListDeps,
  clientId: number,
  p: ListParams,
  filters: RdaListFilters,
): Promise<{ rows: RdaDto[]; total: number }> {
  const where = ['r.client_id = :clientId'];
  const values: Record<string, unknown> = { clientId, limit: p.limit, offset: p.offset };
  const { from, to, ...equal } = filters;
  for (const [k, v] of Object.entries(equal)) {
    if (v === undefined || v === null || v === '') continue;
    where.push(`r.${k} = :${k}`);
    values[k] = v;
  }
  if (from || to) {
    const range = rdaDateRange(from || undefined, to || undefined, await deps.clientTimeZone(clientId));
    if ('field' in range) throw badRequest(range.field, range.message);
    if (range.since) {
      where.push('r.created_at >= :since');
      values.since = range.since;
    }
    if (range.before) {
      where.push('r.created_at < :before');
      values.before = range.before;
    }
  }
  const cond = where.join(' AND ');
  // Newest first unless asked otherwise; id and created_at grow together.
  const order = p.sort ? p.order : 'DESC';
  const rows = await select<RdaRow>(
    deps.sequelize,
    `${SELECT_RDA} WHERE ${cond} ORDER BY r.id ${order} LIMIT :limit OFFSET :offset`,
    values,
  );
  const [{ n }] = await select<{ n: number }>(deps.sequelize, `SELECT COUNT(*) AS n FROM rdas r WHERE ${cond}`, values);
  return { rows: rows.map(toRdaDto), total: Number(n) };
}

/** How many of the organisation's RDA are in each sending status (the dashboard's card); every status present, 0 when none. */
export async function summarizeRdas(deps: Pick<RdaDeps, 'sequelize'>, clientId: number): Promise<RdaSummaryDto> {
  const rows = await select<{ status: RdaDto['status']; n: number }>(
    deps.sequelize,
    'SELECT status, COUNT(*) AS n FROM rdas WHERE client_id = :clientId GROUP BY status',
    { clientId },
  );
  const summary: RdaSummaryDto = { sin_enviar: 0, pendiente: 0, enviado: 0, rechazado: 0, corregido: 0 };
  for (const r of rows) if (Object.hasOwn(summary, r.status)) summary[r.status] = Number(r.n);
  return summary;
}

export async function getRda(deps: Pick<RdaDeps, 'sequelize'>, clientId: number, id: number): Promise<RdaDetailDto> {
  const row = await rdaRow(deps, clientId, id);
  const bundle = await documentOf(deps, id);
  // The document's history: every version of the same encounter's document, the original first.
  const versions =
    row.encounter_id == null
      ? [row]
      : await select<RdaRow>(
          deps.sequelize,
          `${SELECT_RDA} WHERE r.client_id = :clientId AND r.encounter_id = :encounterId AND r.kind = :kind ORDER BY r.version, r.id`,
          { clientId, encounterId: row.encounter_id, kind: row.kind },
        );
  return { ...toRdaDto(row), bundle: JSON.parse(bundle) as Record<string, unknown>, versions: versions.map(toRdaDto) };
}

/**
 * 'Reenviar': the same document (same identifier) back to the queue, now. One already waiting is
 * moved forward rather than queued twice; one the platform holds is not sent again.
 */
export async function resendRda(deps: RdaDeps, clientId: number, id: number): Promise<RdaDto> {
  return writeTransaction(deps.sequelize, async (transaction) => {
    const row = await rdaRow(deps, clientId, id, transaction);
    if (!canResend(row.status))
      throw badRequest('status', 'Este RDA ya está en la plataforma IHCE (enviado o corregido): no se vuelve a enviar.');
    // A correction waiting for the version before it is sent by that version's outcome, not by hand.
    if (rdaWaitsForEarlier(row)) throw badRequest('status', CORRECTION_REASONS.waitingResend);
    const now = deps.now();
    if (!complete(await settingsRow(deps.sequelize, clientId, transaction)))
      throw badRequest('status', 'Configure primero la conexión con la plataforma IHCE en Integraciones → IHCE.');
    if (row.status === 'pendiente') {
      await deps.jobs.reschedule(RDA_SEND_JOB, sendKey(row.identifier), now, transaction);
    } else {
      const moved = await execute(
        deps.sequelize,
        "UPDATE rdas SET status = 'pendiente', status_reason = NULL, next_attempt_at = :now, updated_at = :now WHERE id = :id AND status = :status",
        { id, status: row.status, now },
        transaction,
      );
      if (moved) await enqueueSend(deps, clientId, id, `${sendKey(row.identifier)}:r${now.getTime()}`, now, transaction);
    }
    await execute(deps.sequelize, 'UPDATE rdas SET next_attempt_at = :now, updated_at = :now WHERE id = :id', { id, now }, transaction);
    return toRdaDto(await rdaRow(deps, clientId, id, transaction));
  });
}

// ---------------------------------------------------------------------------------------------
// The send job

/**
 * `rda.send`: one try of one document. Every outcome of the platform is written to the document and
 * ends the job; a transient one queues the next try as a job of its own (keyed by the try), so the
 * document is never given up and never has two tries in flight. A process killed mid-send leaves
 * the job claimed; once its lock passes, another takes it and sends the same Bundle (same
 * identifier) again, which the platform answers as the same document.
 */
export async function sendRda(deps: RdaDeps, clientId: number, rdaId: number): Promise<void> {
  const [doc] = await select<{
    status: string;
    kind: RdaDocumentKind;
    identifier: string;
    attempts: number;
    replaces_id: number | null;
    encounter_id: number | null;
    version: number;
  }>(deps.sequelize, RDA_TO_SEND, { id: rdaId, clientId });
  if (!doc || doc.status !== 'pendiente') return;
  const route: CorrectionRoute = doc.replaces_id == null ? { kind: 'first', retire: [] } : await routeOf(deps, clientId, rdaId, doc);
  if (route.kind === 'wait') {
    if (await waitForEarlier(deps, clientId, rdaId, doc, route.version)) await sendRda(deps, clientId, rdaId);
    return;
  }
  const credentials = await credentialsOf(deps, clientId);
  const now = deps.now();
  if (!credentials) {
    await setOutcome(deps, rdaId, { status: 'sin_enviar', reason: RDA_REASONS.unconfigured }, now);
    await wakeLater(deps, clientId, rdaId, doc);
    return;
  }
  // The text kept goes as it is (0.2 ms a 24 KB document of JSON.parse and JSON.stringify saved on
  // the main thread, and the platform gets exactly what `$document` answers).
  const bundle = await documentOf(deps, rdaId);
  const attempts = Number(doc.attempts) + 1;
  await execute(deps.sequelize, "UPDATE rdas SET attempts = :attempts, updated_at = :now WHERE id = :id AND status = 'pendiente'", {
    id: rdaId,
    attempts,
    now,
  });
  if (route.retire.length)
    await execute(
      deps.sequelize,
      `UPDATE rdas SET status = 'corregido', status_reason = :why, next_attempt_at = NULL, updated_at = :now
       WHERE id IN (:ids) AND status IN ('sin_enviar', 'rechazado')`,
      { ids: route.retire, why: CORRECTION_REASONS.retired(Number(doc.version)), now },
    );
  const platform = deps.ihce.platform(credentials);
  const result =
    route.kind === 'nota' ? await platform.sendCorrection(route.targetId, bundle) : await platform.sendDocument(doc.kind, bundle);
  const at = deps.now();
  switch (result.kind) {
    case 'accepted':
      await writeTransaction(deps.sequelize, async (transaction) => {
        const sent = await setOutcome(deps, rdaId, { status: 'enviado', remoteId: result.remoteId, sentAt: at }, at, transaction);
        // The platform holds the correction now: the version it corrected is history.
        if (sent && route.kind === 'nota')
          await execute(
            deps.sequelize,
            "UPDATE rdas SET status = 'corregido', status_reason = :why, updated_at = :at WHERE id = :id AND status = 'enviado'",
            { id: route.replacedId, why: CORRECTION_REASONS.replaced(Number(doc.version)), at },
            transaction,
          );
      });
      break;
    case 'refused':
      await setOutcome(
        deps,
        rdaId,
        { status: 'rechazado', reason: RDA_REASONS.refused, outcome: JSON.stringify(issuesOf(result.issues)) },
        at,
      );
      break;
    case 'auth':
      // Only a change of the settings helps: the document waits for it as 'sin enviar', saying why.
      await setOutcome(deps, rdaId, { status: 'sin_enviar', reason: result.reason }, at);
      break;
    case 'unconfigured':
      await setOutcome(deps, rdaId, { status: 'sin_enviar', reason: RDA_REASONS.unconfigured }, at);
      break;
    case 'transient': {
      const next = new Date(at.getTime() + rdaRetryDelayMs(attempts, result.retryAfterMs));
      await writeTransaction(deps.sequelize, async (transaction) => {
        const kept = await execute(
          deps.sequelize,
          "UPDATE rdas SET status_reason = :reason, next_attempt_at = :next, updated_at = :at WHERE id = :id AND status = 'pendiente'",
          { id: rdaId, reason: RDA_REASONS.retry(result.reason), next, at },
          transaction,
        );
        if (kept) await enqueueSend(deps, clientId, rdaId, `${sendKey(doc.identifier)}:a${attempts}`, next, transaction);
      });
      return;
    }
  }
  // Settled (sent, refused or waiting for settings): a correction waiting for it may go now.
  await wakeLater(deps, clientId, rdaId, doc);
}

/** How a correction goes, from the versions of its document before it (rdas.rules correctionRoute). */
async function routeOf(
  deps: Pick<RdaDeps, 'sequelize'>,
  clientId: number,
  rdaId: number,
  doc: { encounter_id: number | null; kind: string; version: number },
): Promise<CorrectionRoute> {
  const earlier = await select<EarlierVersion>(
    deps.sequelize,
    `SELECT id, version, status, identifier, remote_id FROM rdas
     WHERE client_id = :clientId AND encounter_id = :encounterId AND kind = :kind AND version < :version AND id <> :id`,
    { clientId, encounterId: doc.encounter_id, kind: doc.kind, version: doc.version, id: rdaId },
  );
  return correctionRoute(earlier.map((v) => ({ ...v, id: Number(v.id), version: Number(v.version) })));
}

/**
 * Marks a correction as waiting for an earlier version (no next try of its own: `next_attempt_at`
 * empty is the mark wakeLater looks for). If the earlier one settled meanwhile, takes the send
 * back (true) unless wakeLater already did: exactly one of them queues it.
 */
async function waitForEarlier(
  deps: Pick<RdaDeps, 'sequelize' | 'now'>,
  clientId: number,
  rdaId: number,
  doc: { encounter_id: number | null; kind: string; version: number },
  version: number,
): Promise<boolean> {
  const now = deps.now();
  await execute(
    deps.sequelize,
    "UPDATE rdas SET status_reason = :why, next_attempt_at = NULL, updated_at = :now WHERE id = :id AND status = 'pendiente'",
    { id: rdaId, why: CORRECTION_REASONS.waiting(version), now },
  );
  if ((await routeOf(deps, clientId, rdaId, doc)).kind === 'wait') return false;
  return claimWaiting(deps, rdaId, now);
}

const claimWaiting = async (deps: Pick<RdaDeps, 'sequelize'>, id: number, now: Date) =>
  (await execute(
    deps.sequelize,
    "UPDATE rdas SET next_attempt_at = :now, updated_at = :now WHERE id = :id AND status = 'pendiente' AND next_attempt_at IS NULL",
    { id, now },
  )) === 1;

/** The first later version of the same document waiting for this one goes to the queue. */
async function wakeLater(
  deps: Pick<RdaDeps, 'sequelize' | 'jobs' | 'now'>,
  clientId: number,
  rdaId: number,
  doc: { encounter_id: number | null; kind: string; version: number },
) {
  if (doc.encounter_id == null) return;
  // Only a correction waits (replaces_id set): on SQLite searched by that index, over the rare rows
  // it holds, whatever the planner's statistics say. They are taken every six hours, so a backlog
  // queued since had SQLite see a table of a few rows: it went through every pending document of
  // the organisation for each send, 20-30 ms a send with 10,000 queued (issue 51's bench).
  const corrections = isPostgres(deps.sequelize) ? 'rdas' : 'rdas INDEXED BY rdas_replaces_id';
  const [waiting] = await select<{ id: number; identifier: string }>(
    deps.sequelize,
    `SELECT id, identifier FROM ${corrections}
     WHERE replaces_id IS NOT NULL AND client_id = :clientId AND encounter_id = :encounterId AND kind = :kind AND version > :version
       AND status = 'pendiente' AND next_attempt_at IS NULL
     ORDER BY version LIMIT 1`,
    { clientId, encounterId: doc.encounter_id, kind: doc.kind, version: Number(doc.version) },
  );
  if (!waiting) return;
  const now = deps.now();
  await writeTransaction(deps.sequelize, async (transaction) => {
    const claimed = await execute(
      deps.sequelize,
      "UPDATE rdas SET next_attempt_at = :now, updated_at = :now WHERE id = :id AND status = 'pendiente' AND next_attempt_at IS NULL",
      { id: waiting.id, now },
      transaction,
    );
    if (claimed)
      await enqueueSend(deps, clientId, Number(waiting.id), `${sendKey(waiting.identifier)}:w${rdaId}-${now.getTime()}`, now, transaction);
  });
}

async function setOutcome(
  deps: Pick<RdaDeps, 'sequelize'>,
  id: number,
  o: { status: RdaDto['status']; reason?: string; outcome?: string; remoteId?: string | null; sentAt?: Date },
  now: Date,
  transaction?: Transaction,
): Promise<boolean> {
  const changed = await execute(
    deps.sequelize,
    `UPDATE rdas SET status = :status, status_reason = :reason, outcome = :outcome, remote_id = COALESCE(:remoteId, remote_id),
       sent_at = COALESCE(:sentAt, sent_at), next_attempt_at = NULL, updated_at = :now
     WHERE id = :id AND status = 'pendiente'`,
    {
      id,
      status: o.status,
      reason: o.reason ?? null,
      outcome: o.outcome ?? null,
      remoteId: o.remoteId ?? null,
      sentAt: o.sentAt ?? null,
      now,
    },
    transaction,
  );
  return changed === 1;
}

/** Registers the send job: a pool of its own, so a slow platform holds its places and not the queue. */
export function registerRdaJobs(deps: RdaDeps): void {
  // A quick send (10-20 ms) sees two to four readings at 200 a second, too few to judge the
  // traffic by: it is also counted over the last second (rdaSendPause, issue 51).
  const requests = deps.requestsReceived ?? (() => 0);
  const recent = recentRequests(requests, RDA_GIVE_WAY_WINDOW_MS);
  deps.jobs.register(RDA_SEND_JOB, {
    concurrency: 4,
    handler: async (job) => {
      const { rdaId } = job.payload as { rdaId: number };
      const before = requests();
      const started = performance.now();
      await sendRda(deps, Number(job.client_id), Number(rdaId));
      const ended = performance.now();
      const pause = rdaSendPause(ended - started, requestsBetween(before, requests()), recent(ended));
      if (pause) await new Promise((resolve) => setTimeout(resolve, pause));
    },
  });
}
