/**
 * SMART Backend Services' rules (issue 37), pure: which scopes a token gets, what a client
 * assertion's claims must say, and what the token request must carry. The token endpoint
 * (api-clients.token.ts) does the I/O around them.
 *
 * Sources: SMART App Launch 2.2 'Backend Services' (client_credentials, private_key_jwt, `exp` no
 * more than five minutes ahead, with an allowance for clock skew: api-clients.clock.rules.ts; `jti` not reused) and 'Scopes and Launch Context' (v2 scopes
 * `system/<Type>.<cruds>`; v1's `.read` reads as `.rs`); RFC 6749 §5.2 (error codes); RFC 7523.
 */

import type { components } from '@vigia/contract/openapi';
import { assertionTimeProblem } from './api-clients.clock.rules.js';

type Schemas = components['schemas'];

/**
 * The FHIR types of the contract's FhirExportType and ApiClientScope (`system/<Type>.rs`, plus
 * `system/*.rs`), in the CapabilityStatement's order: the compiler holds the lists equal below, so
 * a type added to the contract and not here (or the other way) does not build.
 */
const CONTRACT_FHIR_TYPES = [
  'Patient',
  'Observation',
  'DetectedIssue',
  'Condition',
  'Device',
  'RelatedPerson',
  'MedicationRequest',
  'ServiceRequest',
  'Group',
  // The RDA documents (issue 51).
  'Composition',
] as const satisfies ReadonlyArray<Schemas['FhirExportType']>;
type ContractFhirType = (typeof CONTRACT_FHIR_TYPES)[number];
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const contractListsTheSameTypes: Same<ContractFhirType, Schemas['FhirExportType']> &
  Same<`system/${ContractFhirType}.rs` | 'system/*.rs', Schemas['ApiClientScope']> = true;
void contractListsTheSameTypes;

/** The FHIR types the API serves (read, search, scopes, Bulk export): the contract's. */
export const FHIR_TYPES = CONTRACT_FHIR_TYPES;
export type FhirType = (typeof FHIR_TYPES)[number];

export const GRANT_TYPE = 'client_credentials';
export const ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';
/** Algorithms a client assertion may be signed with: RS384 and ES384 (SMART's SHALL), RS256 and ES256 too. */
export const ASSERTION_ALGORITHMS = ['RS384', 'ES384', 'RS256', 'ES256'] as const;
/** The access token's life: what `expires_in` answers. */
export const ACCESS_TOKEN_TTL_S = 300;

/** One scope: a type (or every type, '*') and the permissions asked, of r (read) and s (search). */
export interface Scope {
  type: FhirType | '*';
  read: boolean;
  search: boolean;
}

const SCOPE = /^system\/(\*|[A-Za-z]+)\.(r|s|rs|read)$/;

/** `system/Patient.rs` → its parts; null for anything else (another context, a write permission, an unknown type). */
export function parseScope(text: string): Scope | null {
  const m = SCOPE.exec(text);
  if (!m) return null;
  const type = m[1];
  if (type !== '*' && !(FHIR_TYPES as readonly string[]).includes(type)) return null;
  const perms = m[2] === 'read' ? 'rs' : m[2];
  return { type: type as Scope['type'], read: perms.includes('r'), search: perms.includes('s') };
}

export function formatScope(s: Scope): string {
  return `system/${s.type}.${s.read ? 'r' : ''}${s.search ? 's' : ''}`;
}

/**
 * What a token gets: each scope asked, cut to what the registered scopes cover. `system/*.rs`
 * asked of a client registered for Patient and Observation gets those two; `system/Patient.r`
 * asked of a client registered for `system/*.rs` gets `system/Patient.r`. Unparseable scopes are
 * dropped; an empty answer is the caller's invalid_scope.
 */
export function grantScopes(requested: string, registered: readonly string[]): string[] {
  const held = registered.map(parseScope).filter((s): s is Scope => s !== null);
  const out: string[] = [];
  const add = (s: Scope) => {
    const text = formatScope(s);
    if ((s.read || s.search) && !out.includes(text)) out.push(text);
  };
  for (const word of requested.split(' ').filter(Boolean)) {
    const asked = parseScope(word);
    if (!asked) continue;
    for (const h of held) {
      if (h.type !== '*' && asked.type !== '*' && h.type !== asked.type) continue;
      add({ type: asked.type === '*' ? h.type : asked.type, read: asked.read && h.read, search: asked.search && h.search });
    }
  }
  // A wildcard granted makes the same type's narrower grants redundant.
  return out.filter((s) => {
    const p = parseScope(s)!;
    return (
      p.type === '*' ||
      !out.some((o) => {
        const q = parseScope(o)!;
        return q.type === '*' && (q.read || !p.read) && (q.search || !p.search);
      })
    );
  });
}

/** The types a granted scope list lets a token read or search: the FHIR API's check (403 otherwise). */
export function scopeCovers(granted: readonly string[], type: FhirType, permission: 'read' | 'search'): boolean {
  return granted.some((text) => {
    const s = parseScope(text);
    return s !== null && (s.type === '*' || s.type === type) && s[permission];
  });
}

/** RFC 6749 §5.2 error codes the endpoint answers, with their status. */
export const TOKEN_ERRORS = {
  invalid_request: { status: 400, description: 'La solicitud de token no es válida.' },
  unsupported_grant_type: { status: 400, description: 'El tipo de concesión no es compatible; use client_credentials.' },
  invalid_client: { status: 401, description: 'No fue posible autenticar el cliente.' },
  invalid_scope: { status: 400, description: 'Ninguno de los scopes solicitados está autorizado para este cliente.' },
} as const;
export type TokenError = keyof typeof TOKEN_ERRORS;

export interface TokenRequest {
  assertion: string;
  scope: string;
}

/** The form's fields checked (a malformed body is invalid_request; another grant type unsupported_grant_type). */
export function readTokenRequest(body: unknown): { ok: true; request: TokenRequest } | { ok: false; error: TokenError } {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return { ok: false, error: 'invalid_request' };
  const b = body as Record<string, unknown>;
  const text = (k: string) => (typeof b[k] === 'string' ? (b[k] as string) : null);
  const grant = text('grant_type');
  if (grant === null) return { ok: false, error: 'invalid_request' };
  if (grant !== GRANT_TYPE) return { ok: false, error: 'unsupported_grant_type' };
  const type = text('client_assertion_type');
  const assertion = text('client_assertion');
  const scope = text('scope');
  if (type === null || assertion === null || !assertion || scope === null || !scope.trim()) return { ok: false, error: 'invalid_request' };
  // Another way of authenticating the client than a signed JWT: not one this server accepts.
  if (type !== ASSERTION_TYPE) return { ok: false, error: 'invalid_client' };
  if (assertion.length > 16_000 || scope.length > 2_000) return { ok: false, error: 'invalid_request' };
  return { ok: true, request: { assertion, scope: scope.trim() } };
}

/** Claims of a client assertion whose signature has been verified. */
export interface AssertionClaims {
  iss?: unknown;
  sub?: unknown;
  aud?: unknown;
  exp?: unknown;
  iat?: unknown;
  nbf?: unknown;
  jti?: unknown;
}

/**
 * Why a verified assertion is still refused (null: accepted). The reason is for the log only; the
 * answer says invalid_client whatever it is.
 */
export function assertionProblem(
  claims: AssertionClaims,
  expected: { clientId: string; audience: string; nowSeconds: number },
): string | null {
  if (claims.iss !== expected.clientId) return 'iss';
  if (claims.sub !== expected.clientId) return 'sub';
  const aud = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
  if (!aud.includes(expected.audience)) return 'aud';
  const time = assertionTimeProblem(claims, expected.nowSeconds);
  if (time) return time;
  if (typeof claims.jti !== 'string' || !claims.jti || claims.jti.length > 255) return 'jti';
  return null;
}

/** Members of a JWK that only a private key has: a JWKS pasted with any of them is refused. */
const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'k', 'oth'];

/**
 * Why a pasted JWKS cannot verify assertions (null: it can): each key public, RSA (n, e) or EC on
 * P-256/P-384 (x, y), usable for signatures.
 */
export function jwksProblem(jwks: { keys?: unknown }): string | null {
  const keys = Array.isArray(jwks?.keys) ? jwks.keys : null;
  if (!keys || !keys.length) return 'El JWKS debe ser un objeto con una lista "keys" de claves públicas.';
  for (const key of keys) {
    const k = (key ?? {}) as Record<string, unknown>;
    if (PRIVATE_MEMBERS.some((m) => m in k)) return 'El JWKS contiene una clave privada: pegue solo las claves públicas.';
    const rsa = k.kty === 'RSA' && typeof k.n === 'string' && typeof k.e === 'string';
    const ec = k.kty === 'EC' && (k.crv === 'P-256' || k.crv === 'P-384') && typeof k.x === 'string' && typeof k.y === 'string';
    if (!rsa && !ec) return 'Cada clave del JWKS debe ser pública, RSA o EC (P-256, P-384).';
    if (k.use !== undefined && k.use !== 'sig') return 'Las claves del JWKS deben ser de firma ("use": "sig").';
  }
  return null;
}
