import { Router, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import type { Sequelize } from 'sequelize';
import { decodeJwt } from 'jose';
import { AppError, databaseUnavailable } from '../../http/errors.js';
import { publicBase } from '../../http/origin.js';
import { select } from '../../db/sql.js';
import { fhirAccessPatient, fhirAccessSummary, type FhirAccess } from '../audit/audit.rules.js';
import type { Role } from '@vigia/contract/rules/access';
import { FHIR_AUDIENCE, verifyApiClientToken } from '../api_clients/api-clients.token.js';
import { scopeCovers } from '../api_clients/api-clients.rules.js';
import { SEARCHES, commonInput, type Page } from './fhir.search.js';
import { readDocumentText } from './fhir.search.documents.js';
import { SEARCH_TYPES, SearchError, isSearchType, isStrict, splitParams, type SearchType } from './fhir.search.rules.js';

/**
 * The FHIR R4 read/search API at /fhir/R4 (issue 37): an API client's token (its scopes decide the
 * types) or a staff session (any staff role reads), always within the caller's organisation.
 * The contract covers /api/v1 only, so the parameters are checked here (fhir.search.rules.ts);
 * every answer is application/fhir+json and every error an OperationOutcome in Spanish.
 */

type Json = Record<string, unknown>;

/** One row of the audit trail (modules/audit's recordAuditEvent, handed in by app.ts): a read or a search done. */
export interface FhirEventInput {
  client_id: number;
  user_id: number | null;
  actor_kind: 'staff' | 'system';
  action: 'fhir_read' | 'fhir_search';
  resource: 'fhir';
  resource_id: string | null;
  /** The one patient the resources answered are about (audit.rules fhirAccessPatient), for the patient's own trail. */
  patient_id: number | null;
  summary: string;
  method: string;
  path: string;
  status: number;
  ip: string | null;
  created_at: Date;
}

export interface FhirDeps {
  sequelize: Sequelize;
  secret: string;
  now: () => Date;
  /** PUBLIC_URL when set: links and fullUrls are built on it, else on the request's own host. */
  publicUrl: string | null;
  /** The staff API's authenticator (http/auth.ts): a staff session reads too. */
  authenticate: RequestHandler;
  log: (msg: string, err?: unknown) => void;
  /** The audit trail's batched writer: never awaited, never fails the answer. */
  recordEvent(event: FhirEventInput): void;
}

const FHIR_JSON = 'application/fhir+json; charset=utf-8';
const BULK_DATA = 'http://hl7.org/fhir/uv/bulkdata';

export type IssueCode =
  | 'not-found'
  | 'invalid'
  | 'forbidden'
  | 'login'
  | 'security'
  | 'not-supported'
  | 'exception'
  | 'throttled'
  | 'transient'
  | 'informational';

export class FhirError extends Error {
  constructor(
    readonly status: number,
    readonly code: IssueCode,
    message: string,
    readonly expression?: string,
  ) {
    super(message);
  }
}

export function operationOutcome(code: IssueCode, diagnostics: string, severity = 'error', expression?: string): Json {
  return {
    resourceType: 'OperationOutcome',
    issue: [{ severity, code, diagnostics, ...(expression ? { expression: [expression] } : {}) }],
  };
}

export function send(res: Response, status: number, body: Json): void {
  res.status(status).set('Content-Type', FHIR_JSON).send(JSON.stringify(body));
}

export function baseUrl(deps: Pick<FhirDeps, 'publicUrl'>, req: Request): string {
  return `${publicBase(deps.publicUrl ?? null, req)}/fhir/R4`;
}

/** Who is reading: an organisation, and the scopes of an API client (null: a staff session, which reads every type). */
export interface Reader {
  clientId: number;
  scopes: string[] | null;
  /** The API client reading, or null for a staff session. */
  apiClientId: number | null;
  /** The staff user reading, or null for an API client. */
  userId: number | null;
  role: Role | null;
}

const loginRequired = () => new FhirError(401, 'login', 'Se requiere un token de acceso válido (Authorization: Bearer).');

export async function readerOf(deps: FhirDeps, req: Request, res: Response): Promise<Reader> {
  const header = req.get('authorization') ?? '';
  if (!/^Bearer \S+$/.test(header)) throw loginRequired();
  const token = header.slice(7);
  let audience: unknown;
  try {
    audience = decodeJwt(token).aud;
  } catch {
    throw loginRequired();
  }
  if (audience === FHIR_AUDIENCE || (Array.isArray(audience) && audience.includes(FHIR_AUDIENCE))) {
    const p = await verifyApiClientToken(deps, token);
    if (!p) throw loginRequired();
    return { clientId: p.clientId, scopes: p.scopes, apiClientId: p.apiClientId, userId: null, role: null };
  }
  await new Promise<void>((resolve, reject) =>
    // A database that does not answer is not a bad token: its 503, not a 401 that makes a client drop the token.
    deps.authenticate(req, res, (err?: unknown) =>
      err ? reject(err instanceof FhirError || databaseUnavailable(err) ? err : loginRequired()) : resolve(),
    ),
  );
  const p = req.user?.principal;
  if (!p) throw loginRequired();
  if (p.kind !== 'staff') throw new FhirError(403, 'forbidden', 'La API FHIR es para clientes de API y personal de la organización.');
  return { clientId: p.clientId, scopes: null, apiClientId: null, userId: p.userId, role: p.role };
}

function requireScope(reader: Reader, type: SearchType, permission: 'read' | 'search'): void {
  if (reader.scopes && !scopeCovers(reader.scopes, type, permission))
    throw new FhirError(403, 'forbidden', `El token no tiene el alcance system/${type}.${permission === 'read' ? 'r' : 's'}.`);
}

/** The query as name/value pairs in their order, repeated names kept (`date` twice is a range). */
function queryPairs(req: Request): Array<[string, string]> {
  const q = req.originalUrl.indexOf('?');
  return q < 0 ? [] : [...new URLSearchParams(req.originalUrl.slice(q + 1))];
}

function searchUrl(base: string, type: string, pairs: Array<[string, string]>): string {
  const qs = new URLSearchParams(pairs).toString();
  return `${base}/${type}${qs ? `?${qs}` : ''}`;
}

function bundleOf(base: string, type: SearchType, pairs: Array<[string, string]>, page: Page, unknown: string[]): Json {
  const kept = pairs.filter(([name]) => name !== '_cursor');
  const link = [{ relation: 'self', url: searchUrl(base, type, pairs) }];
  if (page.next) link.push({ relation: 'next', url: searchUrl(base, type, [...kept, ['_cursor', page.next]]) });
  const entry: Json[] = page.resources.map((resource) => ({
    fullUrl: `${base}/${type}/${String(resource.id)}`,
    resource,
    search: { mode: 'match' },
  }));
  if (unknown.length)
    entry.push({
      resource: {
        resourceType: 'OperationOutcome',
        issue: unknown.map((name) => ({
          severity: 'warning',
          code: 'not-supported',
          diagnostics: `Parámetro de búsqueda no admitido para ${type}; se ignoró: ${name}`,
          expression: [name],
        })),
      },
      search: { mode: 'outcome' },
    });
  return {
    resourceType: 'Bundle',
    type: 'searchset',
    ...(page.total !== null ? { total: page.total } : {}),
    link,
    ...(entry.length ? { entry } : {}),
  };
}

/** A read or a search answered, as the audit trail records it (issue 37: who, which type, how many). */
interface Access extends Omit<FhirAccess, 'apiClient' | 'type'> {
  action: FhirEventInput['action'];
  type: SearchType;
  /** What was answered: the resource read, or the page found. */
  resources: Json[];
  path: string;
  ip: string | null;
}

/** A parameter name as the trail keeps it: a client may send any text as a name, so only a name's usual characters. */
const safeName = (name: string) => (/^[A-Za-z0-9_:.-]{1,40}$/.test(name) ? name : '?');

/** The search's path with the query's parameter names and none of their values: no name or document lands in the trail. */
function accessPath(type: SearchType, pairs: Array<[string, string]>): string {
  const names = pairs.map(([name]) => safeName(name)).join('&');
  return `/fhir/R4/${type}${names ? `?${names}` : ''}`.slice(0, 200);
}

/**
 * An API client's name for the trail, read after the answer has gone out and kept a minute per
 * database (a search at hundreds a second would otherwise read it once per request).
 */
const NAME_TTL_MS = 60_000;
const clientNames = new WeakMap<Sequelize, Map<number, { name: string; until: number }>>();
async function apiClientName(deps: Pick<FhirDeps, 'sequelize' | 'now'>, clientId: number, apiClientId: number): Promise<string> {
  let names = clientNames.get(deps.sequelize);
  if (!names) clientNames.set(deps.sequelize, (names = new Map()));
  const now = deps.now().getTime();
  const kept = names.get(apiClientId);
  if (kept && kept.until > now) return kept.name;
  const [row] = await select<{ name: string }>(deps.sequelize, 'SELECT name FROM api_clients WHERE id = :id AND client_id = :clientId', {
    id: apiClientId,
    clientId,
  });
  const name = row?.name ?? `#${apiClientId}`;
  if (names.size >= 1_000) names.clear();
  names.set(apiClientId, { name, until: now + NAME_TTL_MS });
  return name;
}

/** One audit event for a read or search answered; outside the handler so nothing keeps the request alive. */
function recordAccess(deps: FhirDeps, reader: Reader, access: Access): void {
  const at = deps.now();
  const write = (clientName: string | null) =>
    deps.recordEvent({
      client_id: reader.clientId,
      user_id: reader.userId,
      actor_kind: reader.apiClientId === null ? 'staff' : 'system',
      action: access.action,
      resource: 'fhir',
      resource_id: access.id === null ? null : access.id.slice(0, 64),
      patient_id: fhirAccessPatient(access.resources),
      summary: fhirAccessSummary({ ...access, apiClient: clientName }),
      method: 'GET',
      path: access.path,
      status: 200,
      ip: access.ip?.slice(0, 64) || null,
      created_at: at,
    });
  const apiClientId = reader.apiClientId;
  // After the answer, in a promise of its own: a failure here is logged, never the caller's error.
  (apiClientId === null ? Promise.resolve(null) : apiClientName(deps, reader.clientId, apiClientId))
    .then(write)
    .catch((err) => deps.log('FHIR audit event not recorded', err));
}

/** The CapabilityStatement, from the same table the router serves: it lists exactly what is implemented. */
export function capabilityStatement(base: string, now: Date): Json {
  const host = base.replace(/\/fhir\/R4$/, '');
  return {
    resourceType: 'CapabilityStatement',
    status: 'active',
    date: now.toISOString(),
    publisher: 'Vigía',
    kind: 'instance',
    software: { name: 'Vigía' },
    implementation: { description: 'API FHIR R4 de Vigía (lectura, búsqueda y exportación masiva)', url: base },
    fhirVersion: '4.0.1',
    format: ['json'],
    rest: [
      {
        mode: 'server',
        security: {
          extension: [
            {
              url: 'http://fhir-registry.smarthealthit.org/StructureDefinition/oauth-uris',
              extension: [{ url: 'token', valueUri: `${host}/oauth/token` }],
            },
          ],
          service: [
            {
              coding: [{ system: 'http://terminology.hl7.org/CodeSystem/restful-security-service', code: 'SMART-on-FHIR' }],
              text: `SMART Backend Services; configuración en ${base}/.well-known/smart-configuration`,
            },
          ],
        },
        resource: (Object.keys(SEARCH_TYPES) as SearchType[]).map((type) => ({
          type,
          interaction: [{ code: 'read' }, { code: 'search-type' }],
          searchParam: SEARCH_TYPES[type].map((p) => ({
            name: p.name,
            type: p.type === 'special' ? 'special' : p.type,
            documentation: p.documentation,
          })),
          // Bulk Data export (modules/fhir_exports): all patients', or a tag's (Group).
          ...(type === 'Patient' ? { operation: [{ name: 'export', definition: `${BULK_DATA}/OperationDefinition/patient-export` }] } : {}),
          ...(type === 'Group' ? { operation: [{ name: 'export', definition: `${BULK_DATA}/OperationDefinition/group-export` }] } : {}),
          // The RDA as it was sent: the kept document Bundle (fhir.search.documents.ts).
          ...(type === 'Composition'
            ? { operation: [{ name: 'document', definition: 'http://hl7.org/fhir/OperationDefinition/Composition-document' }] }
            : {}),
        })),
        operation: [{ name: 'export', definition: `${BULK_DATA}/OperationDefinition/export` }],
      },
    ],
  };
}

export function fhirRouter(deps: FhirDeps): Router {
  const r = Router();
  r.get('/metadata', (req, res) => send(res, 200, capabilityStatement(baseUrl(deps, req), deps.now())));

  const typeOf = (raw: string): SearchType => {
    if (!isSearchType(raw)) throw new FhirError(404, 'not-supported', `Tipo de recurso no admitido: ${raw}`);
    return raw;
  };

  r.get('/:type', async (req, res) => {
    const type = typeOf(req.params.type as string);
    const reader = await readerOf(deps, req, res);
    requireScope(reader, type, 'search');
    const pairs = queryPairs(req);
    const { known, unknown } = splitParams(type, pairs);
    if (unknown.length && isStrict(req.get('prefer')))
      throw new FhirError(400, 'invalid', `Parámetro de búsqueda no admitido para ${type}: ${unknown.join(', ')}`, unknown[0]);
    const input = commonInput(known);
    const page = await SEARCHES[type].search(deps, reader.clientId, input);
    send(res, 200, bundleOf(baseUrl(deps, req), type, pairs, page, unknown));
    recordAccess(deps, reader, {
      action: 'fhir_search',
      type,
      id: null,
      resources: page.resources,
      found: { shown: page.resources.length, pageSize: input.count, total: page.total, countOnly: input.summaryCount },
      path: accessPath(type, pairs),
      ip: req.ip ?? null,
    });
  });

  // Before /:type/:id's 404 for anything else: the document Bundle kept, unchanged (issue 51).
  r.get('/Composition/:id/\\$document', async (req, res) => {
    const reader = await readerOf(deps, req, res);
    requireScope(reader, 'Composition', 'read');
    const id = req.params.id as string;
    const found = await readDocumentText(deps, reader.clientId, id);
    if (!found) throw new FhirError(404, 'not-found', `No existe Composition/${id}`);
    // The text kept, not a re-serialisation: what the Ministry got (or will get), byte for byte.
    res.status(200).set('Content-Type', FHIR_JSON).send(found.text);
    recordAccess(deps, reader, {
      action: 'fhir_read',
      type: 'Composition',
      id,
      resources: [found.composition],
      path: '/fhir/R4/Composition/:id/$document',
      ip: req.ip ?? null,
    });
  });

  r.get('/:type/:id', async (req, res) => {
    const type = typeOf(req.params.type as string);
    const reader = await readerOf(deps, req, res);
    requireScope(reader, type, 'read');
    const id = req.params.id as string;
    const resource = await SEARCHES[type].read(deps, reader.clientId, id);
    // Another organisation's resource is not found, like one that does not exist.
    if (!resource) throw new FhirError(404, 'not-found', `No existe ${type}/${id}`);
    send(res, 200, resource);
    recordAccess(deps, reader, { action: 'fhir_read', type, id, resources: [resource], path: `/fhir/R4/${type}/:id`, ip: req.ip ?? null });
  });

  r.use((req, _res, next) => next(new FhirError(404, 'not-supported', `Operación no admitida: ${req.method} ${req.path}`)));

  r.use(fhirErrors(deps.log));
  return r;
}

/** Every error of /fhir/R4 as an OperationOutcome (the export's router uses it too). */
export function fhirErrors(log: (msg: string, err?: unknown) => void) {
  return (err: unknown, _req: Request, res: Response, _next: NextFunction) => {
    if (err instanceof SearchError) return send(res, 400, operationOutcome('invalid', err.message, 'error', err.param));
    if (err instanceof FhirError) {
      if (err.status === 401) res.set('WWW-Authenticate', 'Bearer realm="vigia-fhir"');
      return send(res, err.status, operationOutcome(err.code, err.message, 'error', err.expression));
    }
    if (err instanceof AppError && err.status < 500) {
      res.set(err.headers);
      const code: IssueCode =
        err.status === 404 ? 'not-found' : err.status === 403 ? 'forbidden' : err.status === 429 ? 'throttled' : 'invalid';
      return send(res, err.status, operationOutcome(code, err.message, 'error', err.errors[0]?.field));
    }
    const database = databaseUnavailable(err);
    if (database) {
      res.set(database.headers);
      return send(res, database.status, operationOutcome('transient', database.message));
    }
    log('FHIR API failed', err);
    send(res, 500, operationOutcome('exception', 'Error interno del servidor.'));
  };
}
