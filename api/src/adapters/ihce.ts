import crypto from 'node:crypto';

/**
 * The Ministry of Health's interoperability platform (IHCE, 'InteropAPI – Prestadores' v1.3) as its
 * public request collection describes it (docs/rda-plan.md §3):
 * - an OAuth2 client-credentials token from the Ministry's identity provider (form fields
 *   `grant_type`, `client_id`, `client_secret`, `scope`), cached until shortly before it expires;
 * - the header `Ocp-Apim-Subscription-Key` on every call to the API;
 * - `POST {base}/Composition/$enviar-rda-consulta` and `$enviar-rda-paciente` with the document
 *   Bundle (`application/fhir+json`), `POST {base}/Composition/{id}/$enviar-nota-aclaratoria` with a
 *   corrected version of the document the platform holds as {id}, `GET {base}/Composition/{id}/$document`,
 *   `POST {base}/Composition/$consultar-rda-paciente` and `POST {base}/Patient/$consultar-paciente-exacto`.
 * Every answer is classified (accepted / refused with its OperationOutcome / transient / auth), so
 * the sender decides what a document's status becomes without reading HTTP. Without settings the
 * local default sends nothing: documents stay 'sin enviar' until the organisation configures it.
 */

export interface IhceCredentials {
  tokenUrl: string;
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  subscriptionKey: string;
  scope: string | null;
}

export type RdaDocumentKind = 'consulta' | 'paciente';

/** One `issue` of a FHIR OperationOutcome, as the platform wrote it. */
export interface OutcomeIssue {
  severity?: string;
  code?: string;
  details?: { text?: string };
  diagnostics?: string;
  expression?: string[];
  location?: string[];
}

export type IhceResult =
  /** The platform holds the document (`duplicate`: it already had this identifier). */
  | { kind: 'accepted'; remoteId: string | null; duplicate: boolean; body: unknown }
  /** The platform answered and refused it: its OperationOutcome says why. */
  | { kind: 'refused'; status: number; issues: OutcomeIssue[] }
  /** Worth trying again later: network, timeout, 5xx, 429 (retryAfterMs when the platform said). */
  | { kind: 'transient'; reason: string; retryAfterMs: number | null }
  /** The organisation's credentials or subscription key were refused: only a settings change helps. */
  | { kind: 'auth'; reason: string }
  /** No settings: the local default. */
  | { kind: 'unconfigured' };

export interface IhcePlatform {
  /** `bundle` as text is the document kept, sent as it is: byte for byte what `$document` answers, and not parsed to be written again. */
  sendDocument(kind: RdaDocumentKind, bundle: object | string): Promise<IhceResult>;
  /**
   * `$enviar-nota-aclaratoria`: a corrected version of a document the platform holds; `remoteId`
   * is the id the platform gave the document it replaces.
   */
  sendCorrection(remoteId: string, bundle: object | string): Promise<IhceResult>;
  readDocument(remoteId: string): Promise<IhceResult>;
  /** `$consultar-rda-paciente`: a Parameters body (the patient's identifier), answers a searchset Bundle. */
  queryPatientDocuments(parameters: object): Promise<IhceResult>;
  /** `$consultar-paciente-exacto`: a Parameters body, answers the matching Patient(s). */
  findPatient(parameters: object): Promise<IhceResult>;
  /** 'Probar conexión': gets a (new) token; null when it works, else the Spanish reason. */
  testConnection(): Promise<string | null>;
}

export interface IhceAdapter {
  /** The platform for an organisation's credentials; null credentials = the local default. */
  platform(credentials: IhceCredentials | null): IhcePlatform;
}

/** One call may wait this long; a platform slower than that is treated as down (retried later). */
export const IHCE_TIMEOUT_MS = 30_000;
/** A token is renewed this long before the identity provider says it expires. */
export const TOKEN_MARGIN_MS = 60_000;
/** What a token lasts when the identity provider does not say (`expires_in` missing). */
const DEFAULT_TOKEN_MS = 5 * 60_000;

const FHIR_JSON = 'application/fhir+json';

export const IHCE_REASONS = {
  credentials:
    'La plataforma IHCE rechazó las credenciales de la institución (client_id o client_secret). Revíselas en Integraciones → IHCE.',
  subscription:
    'La plataforma IHCE rechazó la clave de suscripción (Ocp-Apim-Subscription-Key) o el acceso de la institución. Revísela en Integraciones → IHCE.',
  timeout: 'La plataforma IHCE no respondió a tiempo.',
  network: 'No fue posible conectarse con la plataforma IHCE.',
  tokenAnswer: 'El proveedor de identidad del Ministerio no entregó un token válido.',
  status: (status: number) => `La plataforma IHCE respondió con el código ${status}.`,
  busy: 'La plataforma IHCE pidió esperar antes de enviar más documentos (429).',
} as const;

class AuthRefused extends Error {}

type Answer = { status: number; body: unknown; headers: Headers };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The issues of an OperationOutcome body; none when the body is something else. */
export function outcomeIssues(body: unknown): OutcomeIssue[] {
  if (!isObject(body) || body.resourceType !== 'OperationOutcome' || !Array.isArray(body.issue)) return [];
  return body.issue.filter(isObject) as OutcomeIssue[];
}

/** The id the platform gave the document: the answer's id, or the last segment of its Location. */
function remoteIdOf(answer: Answer): string | null {
  const body = answer.body;
  if (isObject(body) && typeof body.id === 'string' && body.resourceType !== 'OperationOutcome') return body.id;
  const location = answer.headers.get('location') ?? answer.headers.get('content-location');
  const m = location ? /\/Composition\/([^/?#]+)/.exec(location) : null;
  return m ? m[1] : null;
}

function retryAfterMs(headers: Headers): number | null {
  const v = headers.get('retry-after');
  if (!v) return null;
  const seconds = Number(v);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(v);
  return Number.isFinite(at) ? Math.max(0, at - Date.now()) : null;
}

/** An answer of the platform's FHIR API, as the sender reads it (the token's 401 is handled before). */
export function classifyAnswer(answer: Answer): IhceResult {
  const { status } = answer;
  const issues = outcomeIssues(answer.body);
  if (status >= 200 && status < 300) return { kind: 'accepted', remoteId: remoteIdOf(answer), duplicate: false, body: answer.body };
  // A resend of a document the platform already holds (same identifier): it is there, which is what a send wants.
  const errors = issues.filter((i) => i.severity === 'error' || i.severity === 'fatal');
  if ((status === 409 || status === 422 || status === 400) && errors.length > 0 && errors.every((i) => i.code === 'duplicate'))
    return { kind: 'accepted', remoteId: remoteIdOf(answer), duplicate: true, body: answer.body };
  if (status === 401 || status === 403) return { kind: 'auth', reason: IHCE_REASONS.subscription };
  if (status === 429) return { kind: 'transient', reason: IHCE_REASONS.busy, retryAfterMs: retryAfterMs(answer.headers) };
  if (status === 408 || status >= 500)
    return { kind: 'transient', reason: IHCE_REASONS.status(status), retryAfterMs: retryAfterMs(answer.headers) };
  return {
    kind: 'refused',
    status,
    issues: issues.length ? issues : [{ severity: 'error', code: 'processing', diagnostics: IHCE_REASONS.status(status) }],
  };
}

function transientOf(err: unknown): IhceResult {
  const name = isObject(err) ? String(err.name) : '';
  return {
    kind: 'transient',
    reason: name === 'TimeoutError' || name === 'AbortError' ? IHCE_REASONS.timeout : IHCE_REASONS.network,
    retryAfterMs: null,
  };
}

/** A body as JSON when it is JSON, else its text (a gateway's HTML error page), null when empty. */
function parseJson(text: string): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

const trimSlash = (url: string) => url.replace(/\/+$/, '');

/**
 * The real platform over HTTP (fetch). Tokens are cached per credentials (URL, client id, a hash of
 * the secret, scope) for the life of the adapter, so every document of an organisation's backlog
 * reuses one token until shortly before it expires; a 401 from the API drops it and asks once more.
 */
export function createIhceAdapter(opts: { fetchImpl?: typeof fetch; timeoutMs?: number; now?: () => number } = {}): IhceAdapter {
  const doFetch = opts.fetchImpl ?? fetch;
  const timeoutMs = opts.timeoutMs ?? IHCE_TIMEOUT_MS;
  const clock = opts.now ?? (() => Date.now());
  const tokens = new Map<string, { token: string; until: number }>();

  const cacheKey = (c: IhceCredentials) =>
    crypto
      .createHash('sha256')
      .update(JSON.stringify([c.tokenUrl, c.clientId, c.clientSecret, c.scope, c.subscriptionKey]))
      .digest('hex');

  async function call(url: string, init: RequestInit): Promise<Answer> {
    const res = await doFetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    const text = await res.text();
    return { status: res.status, body: parseJson(text), headers: res.headers };
  }

  async function fetchToken(c: IhceCredentials): Promise<string> {
    const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: c.clientId, client_secret: c.clientSecret });
    if (c.scope) form.set('scope', c.scope);
    const answer = await call(c.tokenUrl, {
      method: 'POST',
      // The subscription key is the API gateway's: it is not sent to the identity provider.
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: form.toString(),
    });
    // RFC 6749 §5.2: a refused client answers 400 invalid_client or 401.
    if (
      answer.status === 401 ||
      answer.status === 403 ||
      (answer.status === 400 && isObject(answer.body) && answer.body.error === 'invalid_client')
    )
      throw new AuthRefused(IHCE_REASONS.credentials);
    if (answer.status === 429 || answer.status === 408 || answer.status >= 500)
      throw Object.assign(new Error(IHCE_REASONS.status(answer.status)), { transient: true });
    if (answer.status !== 200 || !isObject(answer.body) || typeof answer.body.access_token !== 'string')
      throw new AuthRefused(IHCE_REASONS.tokenAnswer);
    const seconds = Number(answer.body.expires_in);
    const lasts = Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : DEFAULT_TOKEN_MS;
    tokens.set(cacheKey(c), { token: answer.body.access_token, until: clock() + Math.max(0, lasts - TOKEN_MARGIN_MS) });
    return answer.body.access_token;
  }

  // One token request in flight per credentials: a backlog sent side by side whose token expired
  // asks for one new token, not one per document.
  const fetching = new Map<string, Promise<string>>();

  function tokenFor(c: IhceCredentials): Promise<string> {
    const key = cacheKey(c);
    const cached = tokens.get(key);
    if (cached && cached.until > clock()) return Promise.resolve(cached.token);
    let pending = fetching.get(key);
    if (!pending) {
      pending = fetchToken(c).finally(() => fetching.delete(key));
      fetching.set(key, pending);
    }
    return pending;
  }

  /** Forgets a token the API refused, unless another call has already replaced it. */
  function dropToken(c: IhceCredentials, token: string) {
    const key = cacheKey(c);
    if (tokens.get(key)?.token === token) tokens.delete(key);
  }

  function platformOf(c: IhceCredentials): IhcePlatform {
    const base = trimSlash(c.baseUrl);
    async function request(method: 'GET' | 'POST', path: string, body?: object | string): Promise<IhceResult> {
      try {
        let answer: Answer | null = null;
        for (let attempt = 0; attempt < 2; attempt++) {
          const token = await tokenFor(c);
          answer = await call(`${base}${path}`, {
            method,
            headers: {
              authorization: `Bearer ${token}`,
              'Ocp-Apim-Subscription-Key': c.subscriptionKey,
              accept: FHIR_JSON,
              ...(body ? { 'content-type': FHIR_JSON } : {}),
            },
            body: typeof body === 'string' ? body : body ? JSON.stringify(body) : undefined,
          });
          // An expired or revoked token: a new one, once. A second 401 is the subscription key or the access.
          if (answer.status !== 401) break;
          dropToken(c, token);
        }
        return classifyAnswer(answer!);
      } catch (err) {
        if (err instanceof AuthRefused) return { kind: 'auth', reason: err.message };
        if (isObject(err) && err.transient) return { kind: 'transient', reason: String(err.message), retryAfterMs: null };
        return transientOf(err);
      }
    }
    return {
      sendDocument: (kind, bundle) => request('POST', `/Composition/$enviar-rda-${kind}`, bundle),
      sendCorrection: (remoteId, bundle) =>
        request('POST', `/Composition/${encodeURIComponent(remoteId)}/$enviar-nota-aclaratoria`, bundle),
      readDocument: (remoteId) => request('GET', `/Composition/${encodeURIComponent(remoteId)}/$document`),
      queryPatientDocuments: (parameters) => request('POST', '/Composition/$consultar-rda-paciente', parameters),
      findPatient: (parameters) => request('POST', '/Patient/$consultar-paciente-exacto', parameters),
      async testConnection() {
        tokens.delete(cacheKey(c));
        try {
          await fetchToken(c);
          return null;
        } catch (err) {
          if (err instanceof AuthRefused) return err.message;
          if (isObject(err) && err.transient) return String(err.message);
          return (transientOf(err) as { reason: string }).reason;
        }
      },
    };
  }

  return { platform: (credentials) => (credentials ? platformOf(credentials) : LOCAL_IHCE) };
}

/** The local default: nothing leaves the product; the documents wait, 'sin enviar'. */
export const LOCAL_IHCE: IhcePlatform = {
  sendDocument: async () => ({ kind: 'unconfigured' }),
  sendCorrection: async () => ({ kind: 'unconfigured' }),
  readDocument: async () => ({ kind: 'unconfigured' }),
  queryPatientDocuments: async () => ({ kind: 'unconfigured' }),
  findPatient: async () => ({ kind: 'unconfigured' }),
  testConnection: async () => 'La institución no ha configurado la conexión con la plataforma IHCE.',
};
