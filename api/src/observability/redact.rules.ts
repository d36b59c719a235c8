/**
 * What never reaches a log line (issue 39): a care organisation's logs are read by whoever runs the
 * servers, who must not learn who the patients are. A log line carries ids, codes and counts; a
 * value under a personal key is dropped whole, and a string anywhere is scrubbed of what looks like
 * an e-mail address, a token or a document or phone number, so a message built from a row (an
 * error naming its input) cannot leak one either.
 */

export const REDACTED = '[oculto]';

/** Keys whose value is personal or secret whatever it holds (compared lower-case, without _ or -). */
const PERSONAL_KEYS = new Set(
  [
    'name',
    'names',
    'first_name',
    'last_name',
    'firstname',
    'lastname',
    'full_name',
    'surname',
    'nid',
    'document',
    'identification',
    'email',
    'mail',
    'to',
    'phone',
    'mobile',
    'cellphone',
    'telephone',
    'address',
    'birthdate',
    'birth_date',
    'password',
    'passwd',
    'secret',
    'token',
    'access_token',
    'refresh_token',
    'id_token',
    'authorization',
    'cookie',
    'set-cookie',
    'code',
    'otp',
    'text',
    'body',
    'subject',
    'content',
    'parameters',
    'params',
    'bind',
    'payload',
    'query',
  ].map((k) => normaliseKey(k)),
);

/** Keys that look personal by their ending (`patient_email`, `contact_phone`, `x-api-key`). */
const PERSONAL_SUFFIXES = ['email', 'phone', 'token', 'password', 'secret', 'nid', 'name', 'key'];

/**
 * Keys a log line may carry although they end like a personal one: ids and codes of things, not
 * people. `backup_file` is the name the backup job gave its archive (a time and a database); its
 * digits would otherwise read as a document number.
 */
const ALLOWED_KEYS = new Set(
  ['route', 'method', 'status', 'kind', 'channel', 'reqid', 'requestid', 'level', 'err', 'type', 'backup_file'].map(normaliseKey),
);

function normaliseKey(key: string): string {
  return key.toLowerCase().replace(/[_-]/g, '');
}

/** Keys whose string the API itself wrote (a route template, a request id it checked): logged as they are. */
function isTrustedKey(key: string): boolean {
  return ALLOWED_KEYS.has(normaliseKey(key));
}

/** Whether a value under `key` must be dropped whole. */
export function isPersonalKey(key: string): boolean {
  const k = normaliseKey(key);
  if (ALLOWED_KEYS.has(k)) return false;
  if (PERSONAL_KEYS.has(k)) return true;
  return PERSONAL_SUFFIXES.some((s) => k.endsWith(s));
}

const PATTERNS: Array<[RegExp, string | ((m: string) => string)]> = [
  // JWTs and other long bearer-like strings first, so their dots do not read as an e-mail's.
  [/\beyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g, '[token]'],
  [/\bBearer\s+\S+/gi, 'Bearer [token]'],
  [/[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g, '[correo]'],
  // Hex or base64url strings of 32 characters or more: API keys, session ids, webhook secrets.
  [/\b[A-Za-z0-9_-]{32,}\b/g, '[token]'],
  // A phone in any spelling (+57 300 123 4567, 3001234567) and a document (6 digits or more).
  [/\+?\d[\d\s().-]{4,}\d/g, (m) => (isTimestampLike(m) || m.replace(/\D/g, '').length < 6 ? m : '[número]')],
];

/** A string with every e-mail, token and long number in it replaced by a placeholder. */
export function scrubText(text: string): string {
  let out = text;
  for (const [pattern, replacement] of PATTERNS)
    out = out.replace(pattern, (m) => (typeof replacement === 'string' ? replacement : replacement(m)));
  return out;
}

/** ISO dates and times are kept: they say when, not who. */
function isTimestampLike(s: string): boolean {
  return /^\d{4}-\d{2}-\d{2}([T ][\d:.]+)?$/.test(s.trim());
}

/**
 * A copy of `value` safe to log: personal keys dropped, strings scrubbed, numbers and booleans kept
 * (ids, counts, durations), depth bounded so a cyclic or huge object cannot stall the logger.
 */
export function redactLogValue(value: unknown, depth = 0): unknown {
  if (value == null || typeof value === 'number' || typeof value === 'boolean') return value;
  if (typeof value === 'string') return scrubText(value);
  if (typeof value === 'bigint') return Number(value);
  if (value instanceof Date) return value.toISOString();
  if (depth > 6) return '[…]';
  if (Array.isArray(value)) return value.slice(0, 50).map((v) => redactLogValue(v, depth + 1));
  if (typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>))
      out[k] = isPersonalKey(k) ? REDACTED : isTrustedKey(k) && typeof v === 'string' ? v : redactLogValue(v, depth + 1);
    return out;
  }
  return REDACTED;
}

/** An error as a log line may hold it: its class, stable code and scrubbed message and stack; never its SQL values. */
export function redactError(err: unknown): { type: string; code?: string; message: string; stack?: string } {
  if (!(err instanceof Error)) return { type: typeof err, message: scrubText(String(err)) };
  const code = (err as { code?: unknown }).code;
  return {
    type: err.name,
    ...(typeof code === 'string' ? { code } : {}),
    message: scrubText(err.message),
    ...(err.stack ? { stack: scrubText(err.stack) } : {}),
  };
}
