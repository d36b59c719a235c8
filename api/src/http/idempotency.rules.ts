import crypto from 'node:crypto';

/**
 * Idempotency keys (issue 50), the pure part: what a key must look like, what makes two requests
 * "the same request", and what a request whose key is already known gets. The table and the
 * middleware are idempotency.ts.
 */

/** The request header, and the answer's header that marks a stored answer sent again. */
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
export const REPLAYED_HEADER = 'Idempotent-Replayed';

/** A key is kept this long from its first use: a phone back on the network the next morning retries as new. */
export const KEY_TTL_MS = 24 * 3600_000;
/**
 * A first request still unanswered after this long died with its process (no request runs a
 * minute): its key is taken over by the same request sent again, instead of refusing it for a day.
 */
export const STALE_RUN_MS = 60_000;
/** What a request sent while the first is running is told to wait (Retry-After). */
export const IN_PROGRESS_RETRY_S = 2;

export const MESSAGES = {
  malformed: "La cabecera 'Idempotency-Key' debe ser un UUID (por ejemplo, 3f0c2a9e-5b1d-4c7e-9a8f-2d6b1e4c0a7d).",
  reused: "La clave 'Idempotency-Key' ya se usó para otra petición. Genere una clave nueva para cada envío distinto.",
  inProgress: 'Su envío anterior con esta clave todavía se está procesando. Espere unos segundos y vuelva a intentarlo.',
} as const;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The header's value: null when absent (the write runs as always), the key in lower case, or malformed. */
export function readIdempotencyKey(header: unknown): { ok: true; key: string | null } | { ok: false } {
  if (header === undefined || header === null) return { ok: true, key: null };
  if (typeof header !== 'string' || !UUID.test(header.trim())) return { ok: false };
  return { ok: true, key: header.trim().toLowerCase() };
}

/** JSON with every object's keys sorted: `{"a":1,"b":2}` and `{"b":2,"a":1}` are one body. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v === undefined ? null : v)).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/** What "the same request" means: the method, the path with its query, and the body as data. */
export function requestHash(method: string, url: string, body: unknown): string {
  return crypto
    .createHash('sha256')
    .update(`${method.toUpperCase()} ${url}\n${canonicalJson(body)}`)
    .digest('hex');
}

/** Only a successful write is kept: a refusal or a failure wrote nothing, so the same key may try again. */
export const keepsAnswer = (status: number) => status >= 200 && status < 300;

export interface StoredKey {
  request_hash: string;
  status: number | null;
  body: string | null;
}

export type Verdict =
  { kind: 'replay'; status: number; body: unknown } | { kind: 'reused' } | { kind: 'in_progress'; retryAfterSeconds: number };

/** A request whose key its user has already used (and that did not take the key over). */
export function verdictFor(stored: StoredKey, hash: string): Verdict {
  if (stored.request_hash !== hash) return { kind: 'reused' };
  if (stored.status === null || stored.body === null) return { kind: 'in_progress', retryAfterSeconds: IN_PROGRESS_RETRY_S };
  return { kind: 'replay', status: Number(stored.status), body: JSON.parse(stored.body) as unknown };
}
