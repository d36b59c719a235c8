import crypto from 'node:crypto';
import express, { Router, type Request, type RequestHandler, type Response } from 'express';
import type { Sequelize } from 'sequelize';
import { compactVerify, createLocalJWKSet, createRemoteJWKSet, decodeJwt, jwtVerify, SignJWT, type JWTVerifyGetKey } from 'jose';
import { execute, prepared, select } from '../../db/sql.js';
import { ApiClient } from '../../db/models/api-clients.model.js';
import { TOKEN_ISSUER } from '../../http/auth.js';
import { publicBase } from '../../http/origin.js';
import {
  ACCESS_TOKEN_TTL_S,
  ASSERTION_ALGORITHMS,
  FHIR_TYPES,
  GRANT_TYPE,
  TOKEN_ERRORS,
  assertionProblem,
  grantScopes,
  readTokenRequest,
  type TokenError,
} from './api-clients.rules.js';
import { jtiKeptUntil } from './api-clients.clock.rules.js';

/** The access token's audience: the FHIR API, never the staff API (whose audience is 'vigia-api'). */
export const FHIR_AUDIENCE = 'vigia-fhir';
/** How long a JWKS fetched from a client's URL is trusted before it is fetched again. */
const JWKS_CACHE_MS = 5 * 60_000;

export interface TokenEventInput {
  client_id: number;
  user_id: null;
  action: 'token_issued';
  resource: 'api_client';
  resource_id: string;
  summary: string;
  method: string;
  path: string;
  status: number;
  ip: string | null;
  created_at: Date;
  actor_kind: 'system';
}

export interface TokenDeps {
  sequelize: Sequelize;
  secret: string;
  now: () => Date;
  log: (msg: string, err?: unknown) => void;
  /** PUBLIC_URL when set: the token endpoint's URL (an assertion's `aud`) is built on it, else on the request's own. */
  publicUrl: string | null;
  /** The audit trail's writer (modules/audit), handed in by app.ts. */
  recordEvent(event: TokenEventInput): void;
}

/** What a valid API-client token says: the FHIR API reads only this organisation's data, within these scopes. */
export interface ApiClientPrincipal {
  kind: 'api_client';
  clientId: number;
  apiClientId: number;
  publicId: string;
  scopes: string[];
}

/**
 * The HS256 key as a CryptoKey, imported once per secret: given a KeyObject or bytes, jose imports
 * the key again on every sign and verify (a CPU profile of the FHIR search showed it at 2 %).
 */
const keys = new Map<string, Promise<crypto.webcrypto.CryptoKey>>();
function keyOf(secret: string): Promise<crypto.webcrypto.CryptoKey> {
  let key = keys.get(secret);
  if (!key) {
    key = crypto.webcrypto.subtle.importKey('raw', Buffer.from(secret, 'utf8'), { name: 'HMAC', hash: 'SHA-256' }, false, [
      'sign',
      'verify',
    ]);
    keys.set(secret, key);
  }
  return key;
}

/** The host's base URL, without a trailing slash: the origin the caller reached, as links are built. */
function baseUrl(deps: Pick<TokenDeps, 'publicUrl'>, req: Request): string {
  return publicBase(deps.publicUrl ?? null, req);
}

/** Key sets by client: a pasted JWKS is parsed once per text, a URL's set is jose's own (fetched, cached, refetched on an unknown kid). */
const localSets = new Map<number, { text: string; set: JWTVerifyGetKey }>();
const remoteSets = new Map<string, JWTVerifyGetKey>();
function keySetOf(c: ApiClient): JWTVerifyGetKey | null {
  if (c.jwks) {
    const kept = localSets.get(c.id);
    if (kept?.text === c.jwks) return kept.set;
    const set = createLocalJWKSet(JSON.parse(c.jwks));
    localSets.set(c.id, { text: c.jwks, set });
    return set;
  }
  if (c.jwks_url) {
    let set = remoteSets.get(c.jwks_url);
    if (!set) {
      set = createRemoteJWKSet(new URL(c.jwks_url), { cacheMaxAge: JWKS_CACHE_MS, cooldownDuration: 30_000, timeoutDuration: 5_000 });
      if (remoteSets.size >= 1_000) remoteSets.clear();
      remoteSets.set(c.jwks_url, set);
    }
    return set;
  }
  return null;
}

/**
 * Expired jtis are deleted at most once a minute per database, not on every token: a replay is
 * checked against the unique index, and a jti whose row has expired but is still there is taken
 * again by the INSERT's ON CONFLICT (a new expiry), so the sweep only keeps the table small.
 */
const lastSweep = new WeakMap<Sequelize, number>();
async function forgetExpiredJtis(deps: Pick<TokenDeps, 'sequelize'>, now: Date): Promise<void> {
  const last = lastSweep.get(deps.sequelize);
  if (last !== undefined && now.getTime() - last < 60_000 && now.getTime() >= last) return;
  lastSweep.set(deps.sequelize, now.getTime());
  await execute(deps.sequelize, 'DELETE FROM oauth_jtis WHERE expires_at <= :now', { now });
}

/** A verified JWS's payload as a JWT claims set (null: not a JSON object, so no JWT). */
function claimsOf(payload: Uint8Array): Record<string, unknown> | null {
  let claims: unknown;
  try {
    claims = JSON.parse(new TextDecoder().decode(payload));
  } catch {
    return null;
  }
  return claims && typeof claims === 'object' && !Array.isArray(claims) ? (claims as Record<string, unknown>) : null;
}

class Refusal extends Error {
  constructor(
    readonly error: TokenError,
    readonly reason: string,
  ) {
    super(reason);
  }
}

function answerError(res: Response, error: TokenError) {
  const { status, description } = TOKEN_ERRORS[error];
  if (status === 401) res.setHeader('WWW-Authenticate', 'Bearer error="invalid_client"');
  res.status(status).json({ error, error_description: description });
}

/**
 * SMART Backend Services' token endpoint (issue 37): the client authenticates with a JWT signed by
 * its own key (private_key_jwt) and gets a 5-minute bearer token for the FHIR API with the scopes
 * asked that it holds. Every refusal is RFC 6749's JSON with a fixed Spanish description per code:
 * which check failed is logged, never answered.
 */
async function issueToken(deps: TokenDeps, req: Request, res: Response): Promise<void> {
  const form = readTokenRequest(req.body);
  if (!form.ok) throw new Refusal(form.error, 'form');
  const { assertion, scope } = form.request;
  let unverified: { iss?: unknown };
  try {
    unverified = decodeJwt(assertion);
  } catch {
    throw new Refusal('invalid_client', 'assertion not a JWT');
  }
  const publicId = typeof unverified.iss === 'string' ? unverified.iss : '';
  const client = publicId && publicId.length <= 64 ? await ApiClient.findOne({ where: { public_id: publicId } }) : null;
  if (!client) throw new Refusal('invalid_client', 'unknown client');
  if (client.status !== 'active') throw new Refusal('invalid_client', 'client suspended');
  const keys = keySetOf(client);
  if (!keys) throw new Refusal('invalid_client', 'client without keys');
  const now = deps.now();
  const nowSeconds = Math.floor(now.getTime() / 1000);
  const audience = `${baseUrl(deps, req)}/oauth/token`;
  // The signature only: the time claims are the clock rules' (api-clients.clock.rules.ts, with their
  // allowance for skew), not jose's, whose own checks of exp and nbf allow none.
  let payload: Uint8Array;
  try {
    ({ payload } = await compactVerify(assertion, keys, { algorithms: [...ASSERTION_ALGORITHMS] }));
  } catch (err) {
    // The client's JWKS URL not answering (timeout, network, not 200) is no verdict on the client: try later.
    const code = (err as { code?: string }).code;
    if (client.jwks_url && (code === undefined || code === 'ERR_JWKS_TIMEOUT' || code === 'ERR_JOSE_GENERIC')) throw err;
    throw new Refusal('invalid_client', `signature: ${(err as Error).message}`);
  }
  const claims = claimsOf(payload);
  if (!claims) throw new Refusal('invalid_client', 'payload not a JSON object');
  const problem = assertionProblem(claims, { clientId: client.public_id, audience, nowSeconds });
  if (problem) throw new Refusal('invalid_client', problem);
  const granted = grantScopes(scope, JSON.parse(client.scopes) as string[]);
  if (!granted.length) throw new Refusal('invalid_scope', 'no scope granted');
  // The jti is kept as long as the assertion could be accepted: the same one again before then is a replay.
  await forgetExpiredJtis(deps, now);
  const fresh = await execute(
    deps.sequelize,
    `INSERT INTO oauth_jtis (api_client_id, jti, expires_at) VALUES (:id, :jti, :exp)
     ON CONFLICT (api_client_id, jti) DO UPDATE SET expires_at = excluded.expires_at WHERE oauth_jtis.expires_at <= :now`,
    { id: client.id, jti: claims.jti as string, exp: new Date(jtiKeptUntil(claims.exp as number) * 1000), now },
  );
  if (!fresh) throw new Refusal('invalid_client', 'jti replayed');
  const scopeText = granted.join(' ');
  const token = await new SignJWT({ typ: 'api_client', cid: client.client_id, acid: client.id, scope: scopeText })
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuer(TOKEN_ISSUER)
    .setAudience(FHIR_AUDIENCE)
    .setSubject(client.public_id)
    .setJti(crypto.randomUUID())
    .setIssuedAt(nowSeconds)
    .setExpirationTime(nowSeconds + ACCESS_TOKEN_TTL_S)
    .sign(await keyOf(deps.secret));
  // 'Clientes de API' shows when the client last got a token: to the minute is enough, and a client
  // asking many tokens does not queue a write behind each one (SQLite has one writer).
  if (!client.last_token_at || now.getTime() - new Date(client.last_token_at).getTime() >= LAST_TOKEN_PRECISION_MS)
    await execute(deps.sequelize, 'UPDATE api_clients SET last_token_at = :now WHERE id = :id', { now, id: client.id });
  deps.recordEvent({
    client_id: client.client_id,
    user_id: null,
    action: 'token_issued',
    resource: 'api_client',
    resource_id: String(client.id),
    summary: `Emitió un token de acceso para el cliente de API ${client.name} (${scopeText})`.slice(0, 300),
    method: 'POST',
    path: '/oauth/token',
    status: 200,
    ip: req.ip?.slice(0, 64) || null,
    created_at: now,
    actor_kind: 'system',
  });
  res.json({ access_token: token, token_type: 'bearer', expires_in: ACCESS_TOKEN_TTL_S, scope: scopeText });
}

/** SMART's discovery document (SMART App Launch 2.2 §'Conformance'): what the token endpoint accepts. */
function smartConfiguration(deps: TokenDeps, req: Request) {
  return {
    issuer: baseUrl(deps, req),
    token_endpoint: `${baseUrl(deps, req)}/oauth/token`,
    token_endpoint_auth_methods_supported: ['private_key_jwt'],
    token_endpoint_auth_signing_alg_values_supported: [...ASSERTION_ALGORITHMS],
    grant_types_supported: [GRANT_TYPE],
    scopes_supported: ['system/*.rs', ...FHIR_TYPES.map((t) => `system/${t}.rs`)],
    response_types_supported: ['token'],
    capabilities: ['client-confidential-asymmetric', 'permission-v2'],
  };
}

/**
 * `POST /oauth/token` and `GET /fhir/R4/.well-known/smart-configuration`, at the host's root: the
 * contract (openapi.yaml) covers /api/v1 only, so this form is checked here by hand
 * (api-clients.rules.ts readTokenRequest).
 */
export function oauthRouter(deps: TokenDeps): Router {
  const r = Router();
  const parseForm = express.urlencoded({ extended: false, limit: '32kb', parameterLimit: 20 });
  // A body the parser refuses (too large, another charset) is the endpoint's invalid_request, not the app's error.
  const readForm: RequestHandler = (req, res, next) =>
    parseForm(req, res, (err?: unknown) => {
      if (!err) return next();
      res.setHeader('Cache-Control', 'no-store');
      answerError(res, 'invalid_request');
    });
  r.post('/oauth/token', readForm, async (req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('Pragma', 'no-cache');
    try {
      await issueToken(deps, req, res);
    } catch (err) {
      if (err instanceof Refusal) {
        deps.log(`token refused (${err.error}): ${err.reason}`);
        return answerError(res, err.error);
      }
      // Never a 500 from the token endpoint: the database or a JWKS host failing is a retry later.
      deps.log('token endpoint failed', err);
      res
        .status(503)
        .json({ error: 'temporarily_unavailable', error_description: 'El servicio de tokens no está disponible; intente más tarde.' });
    }
  });
  r.get('/fhir/R4/.well-known/smart-configuration', (req, res) => {
    res.setHeader('Cache-Control', 'public, max-age=3600');
    res.json(smartConfiguration(deps, req));
  });
  return r;
}

/**
 * An API client's access token, verified (null: not one): signed with the server's secret, for the
 * FHIR API's audience, not expired by the injected clock, and its client still there and active
 * (a suspended or deleted client's tokens stop at once). The staff API's authenticator refuses it
 * (another audience and `typ`).
 */
/** How stale 'last token' may be before a token updates it. */
const LAST_TOKEN_PRECISION_MS = 60_000;

/** The check behind every FHIR request, prepared on PostgreSQL (parsed and planned once per connection). */
const API_CLIENT_CHECK = prepared('SELECT id, client_id, public_id, status FROM api_clients WHERE id = :id AND client_id = :clientId');

export async function verifyApiClientToken(
  deps: Pick<TokenDeps, 'secret' | 'now' | 'sequelize'>,
  token: string,
): Promise<ApiClientPrincipal | null> {
  let payload;
  try {
    ({ payload } = await jwtVerify(token, await keyOf(deps.secret), {
      algorithms: ['HS256'],
      issuer: TOKEN_ISSUER,
      audience: FHIR_AUDIENCE,
      currentDate: deps.now(),
      requiredClaims: ['exp', 'sub'],
    }));
  } catch {
    return null;
  }
  if (
    payload.typ !== 'api_client' ||
    typeof payload.acid !== 'number' ||
    typeof payload.cid !== 'number' ||
    typeof payload.scope !== 'string'
  )
    return null;
  // Read on every FHIR request: one bound SELECT of what the check needs (Sequelize's findOne cost a third of a millisecond more).
  const [client] = await select<{ id: number | string; client_id: number | string; public_id: string; status: string }>(
    deps.sequelize,
    API_CLIENT_CHECK,
    { id: payload.acid, clientId: payload.cid },
  );
  if (!client || client.status !== 'active' || client.public_id !== payload.sub) return null;
  return {
    kind: 'api_client',
    clientId: Number(client.client_id),
    apiClientId: Number(client.id),
    publicId: client.public_id,
    scopes: payload.scope.split(' '),
  };
}
