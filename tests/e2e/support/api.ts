import type { components } from '@vigia/contract/openapi';

/** Direct API calls the browser tests need to set up or read what a user cannot see (the SMS outbox). */

type Session = components['schemas']['Session'];
type SmsMessage = components['schemas']['SmsMessage'];
type ApiErrorBody = components['schemas']['Error'];

export const DEMO_ADMIN = { email: 'admin@demo.vigia.co', password: 'Vigia@2026' } as const;
export const DEMO_PATIENT = { nid: '1020304050', cellphone: '3001234567' } as const;

/**
 * fetch, saying which call failed and why when it could not be made at all: undici says only
 * 'fetch failed', its cause (refused, reset, 'other side closed', connect timeout) says what happened.
 */
function call(url: string, init: RequestInit = {}): Promise<Response> {
  return fetch(url, init).catch((error: Error & { cause?: { code?: string; message?: string } }) => {
    const why = error.cause?.code ?? error.cause?.message ?? 'sin causa';
    throw new Error(`${init.method ?? 'GET'} ${url}: ${error.message} (${why})`, { cause: error });
  });
}

async function describeFailure(method: string, url: string, response: Response): Promise<Error> {
  const text = await response.text();
  return new Error(`${method} ${url} answered ${response.status}: ${text.slice(0, 1000)}`);
}

export async function createStaffSession(baseUrl: string, credentials: { email: string; password: string } = DEMO_ADMIN): Promise<Session> {
  const url = `${baseUrl}/api/v1/sessions`;
  const response = await call(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify(credentials),
  });
  if (!response.ok) throw await describeFailure('POST', url, response);
  return (await response.json()) as Session;
}

/** What the server answers to a rejected staff login: the Spanish message the page must show. */
export async function rejectedLoginMessage(baseUrl: string, credentials: { email: string; password: string }): Promise<string> {
  const url = `${baseUrl}/api/v1/sessions`;
  const response = await call(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify(credentials),
  });
  if (response.ok) throw new Error(`POST ${url} accepted credentials that should be refused`);
  const body = (await response.json()) as ApiErrorBody;
  return body.message;
}

export async function listSmsOutbox(baseUrl: string, token: string, to: string): Promise<SmsMessage[]> {
  const url = `${baseUrl}/api/v1/sms_outbox?to=${encodeURIComponent(to)}`;
  const response = await call(url, { headers: { Authorization: `Bearer ${token}`, Accept: 'application/json' } });
  if (!response.ok) throw await describeFailure('GET', url, response);
  return (await response.json()) as SmsMessage[];
}

/**
 * The one-time code of the newest SMS sent to a phone. Waits a little, since the code is sent
 * while the page moves on. `after` skips messages already seen.
 */
export async function readLatestCode(baseUrl: string, token: string, to: string, after?: number): Promise<{ code: string; smsId: number }> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const [newest] = await listSmsOutbox(baseUrl, token, to);
    if (newest && (after === undefined || newest.id > after)) {
      const code = /\d{4,8}/.exec(newest.body)?.[0];
      if (!code) throw new Error(`No code in the SMS body: ${JSON.stringify(newest.body)}`);
      return { code, smsId: newest.id };
    }
    if (Date.now() > deadline) throw new Error(`No new SMS to ${to} in the outbox`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

type PatientSummary = components['schemas']['PatientSummary'];

export async function findPatientByNid(baseUrl: string, token: string, nid: string): Promise<PatientSummary> {
  const url = `${baseUrl}/api/v1/patients?q=${encodeURIComponent(nid)}`;
  const response = await call(url, { headers: { Authorization: `Bearer ${token}`, Accept: 'application/json' } });
  if (!response.ok) throw await describeFailure('GET', url, response);
  const patients = (await response.json()) as PatientSummary[];
  const patient = patients.find((candidate) => candidate.nid === nid);
  if (!patient) throw new Error(`GET ${url} did not list a patient with document ${nid}: ${JSON.stringify(patients).slice(0, 500)}`);
  return patient;
}

/** A JSON call to the product's API with a token, for setting up what a test then looks at; a failure throws with the answer. */
export async function apiCall<T>(baseUrl: string, token: string, method: string, path: string, body?: unknown): Promise<T> {
  const url = `${baseUrl}/api/v1${path}`;
  const response = await call(url, {
    method,
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', Accept: 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw await describeFailure(method, path, response);
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}
