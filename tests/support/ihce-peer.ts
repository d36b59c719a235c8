import http from 'node:http';
import crypto from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Worker } from 'node:worker_threads';
import { typeScriptWorker } from '@vigia/contract/node/ts-worker';
import { rdaProfile, type Json, type RdaIssue } from './rda-validator';

/**
 * The Ministry's IHCE platform ('InteropAPI – Prestadores' v1.3, docs/rda-plan.md §3) on loopback,
 * for the tests: the identity provider's client-credentials token endpoint, the API gateway's
 * subscription key, and the operations the product calls. Every posted Bundle is validated against
 * its profile in the guide with the tests' validator (validateRda): any error is answered as the
 * platform would, an OperationOutcome (422), and the document is not kept. A valid one is kept
 * under its identifier and answered 201 with the Composition's id; the same identifier sent again
 * is answered 200 with the same id (the platform's success twice for one send).
 *
 * A nota aclaratoria (`POST Composition/{id}/$enviar-nota-aclaratoria`) is validated the same way
 * against the profile of the document it corrects; {id} must be a kept document's id (404
 * not-found otherwise) and the Bundle must say it corrects it (Composition.status amended,
 * relatesTo replaces its identifier; 422 business-rule otherwise).
 *
 * Fault modes, each for the next N calls to the API (`fail(mode, n)`): 'timeout' (no answer until
 * the caller gives up), '500', '503', '429', 'reset' (the connection dropped), 'duplicate' (409 with
 * an OperationOutcome `duplicate`, after keeping the document), 'refuse' (422: a rule of the national
registry the profiles cannot check, `REFUSAL_TEXT` on the patient's identifier). `expireTokens()` makes every token
 * issued so far invalid (a token expiring in the middle of a backlog).
 */

export const PEER_CLIENT_ID = 'vigia-ips-demo';
export const PEER_CLIENT_SECRET = 'secreto-del-ministerio-9f3a';
export const PEER_SUBSCRIPTION_KEY = 'clave-apim-4b7e';
export const PEER_SCOPE = 'api://ihce/.default';

export type FaultMode = 'timeout' | '500' | '503' | '429' | 'reset' | 'duplicate' | 'refuse';

/** The issue a 'refuse' fault answers: what the national registry would say of a valid Bundle. */
export const REFUSAL_TEXT = 'El documento del paciente no coincide con el registrado en la Registraduría Nacional.';
export const REFUSAL_LOCATION = 'Bundle.entry[1].resource.identifier[0]';

export interface PeerCall {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  /** The posted document's identifier, for the sends. */
  identifier: string | null;
  status: number;
}

/** The IHCE settings (PUT /clients/{id}/ihce) that point an organisation at `peer`, as an administrator saves them. */
export function peerSettings(peer: Pick<IhcePeer, 'tokenUrl' | 'baseUrl'>, enabled = true) {
  return {
    enabled,
    token_url: peer.tokenUrl,
    base_url: peer.baseUrl,
    client_id: PEER_CLIENT_ID,
    client_secret: PEER_CLIENT_SECRET,
    subscription_key: PEER_SUBSCRIPTION_KEY,
    scope: PEER_SCOPE,
  };
}

export interface IhcePeer {
  tokenUrl: string;
  baseUrl: string;
  calls: PeerCall[];
  tokenRequests: Array<Record<string, string>>;
  /** Kept documents by identifier: the id given, the Bundle as received, and the id of the one it corrects. */
  documents: Map<string, { remoteId: string; bundle: Json; kind: string; corrects?: string }>;
  fail(mode: FaultMode, times?: number): void;
  expireTokens(): void;
  /** How long a token lasts (seconds, the `expires_in` answered). */
  tokenSeconds: number;
  /** The sends of one document (every call that posted it, whatever the answer). */
  sendsOf(identifier: string): PeerCall[];
  close(): Promise<void>;
}

const PROFILES: Record<string, string> = {
  consulta: rdaProfile('BundleAmbulatoryRDA'),
  paciente: rdaProfile('BundlePatientStatementRDA'),
};

const outcome = (issues: Json[]) => ({ resourceType: 'OperationOutcome', issue: issues });
const issueOf = (i: RdaIssue): Json => ({
  severity: i.severity,
  code: /required|obligatori|mínimo|min/i.test(i.message) ? 'required' : 'invalid',
  details: { text: i.message },
  expression: [i.path],
});

/** The identifier values of the Patient entries of a document (for the queries). */
function patientIdentifiers(bundle: Json): string[] {
  const entries = (bundle.entry ?? []) as Json[];
  return entries
    .map((e) => e.resource as Json)
    .filter((r) => r?.resourceType === 'Patient')
    .flatMap((r) => ((r.identifier ?? []) as Json[]).map((i) => String(i.value)));
}

/** The identifier a Parameters body asks about (any valueIdentifier / valueString part). */
function askedIdentifier(body: Json): string | null {
  for (const p of (body?.parameter ?? []) as Json[]) {
    const v = p.valueIdentifier?.value ?? p.valueString;
    if (typeof v === 'string') return v;
  }
  return null;
}

/**
 * validateRda's errors for `bundle`, computed on a thread of its own (rda-validator.thread.ts), one
 * thread for every peer of the test file, started with the first. Not on the test's thread:
 * loading the guide takes 3 s (several times that on a loaded CI machine) and a document 0.1-0.5 s,
 * all synchronous, and while the test's thread is held its idle keep-alive sockets to the API go
 * unread; the server closes one after 5 s, and the test's next fetch, sent on it before the close
 * is seen, fails with 'other side closed' (CI, stop 58: rda-journey's beforeAll; reproduced here
 * with the two cores kept busy).
 */
type ValidatorAnswer = { id: number; errors?: RdaIssue[]; failure?: string };
let validator: { worker: Worker; waiting: Map<number, (answer: Omit<ValidatorAnswer, 'id'>) => void> } | null = null;
let nextValidation = 0;
function validatorThread() {
  if (!validator) {
    const worker = typeScriptWorker(new URL('./rda-validator.thread.ts', import.meta.url).href);
    const waiting = new Map<number, (answer: Omit<ValidatorAnswer, 'id'>) => void>();
    worker.on('message', (answer: ValidatorAnswer) => {
      waiting.get(answer.id)?.(answer);
      waiting.delete(answer.id);
    });
    worker.on('error', (error) => {
      for (const settle of waiting.values()) settle({ failure: String(error) });
      waiting.clear();
      validator = null;
    });
    worker.unref(); // the test's process ends when its tests do
    validator = { worker, waiting };
  }
  return validator;
}
function validateApart(bundle: Json, profile: string): Promise<RdaIssue[]> {
  const { worker, waiting } = validatorThread();
  const id = nextValidation++;
  return new Promise((resolve, reject) => {
    waiting.set(id, (answer) => (answer.errors ? resolve(answer.errors) : reject(new Error(`RDA validator: ${answer.failure}`))));
    worker.postMessage({ id, bundle, profile });
  });
}

export async function startIhcePeer(): Promise<IhcePeer> {
  validatorThread(); // loading the guide while the test sets up
  const calls: PeerCall[] = [];
  const tokenRequests: Array<Record<string, string>> = [];
  const documents = new Map<string, { remoteId: string; bundle: Json; kind: string; corrects?: string }>();
  const faults: FaultMode[] = [];
  const tokens = new Map<string, number>();
  const hanging = new Set<http.ServerResponse>();
  let base = '';

  const peer = {
    calls,
    tokenRequests,
    documents,
    tokenSeconds: 3600,
    fail(mode: FaultMode, times = 1) {
      for (let i = 0; i < times; i++) faults.push(mode);
    },
    expireTokens() {
      tokens.clear();
    },
    sendsOf: (identifier: string) => calls.filter((c) => c.identifier === identifier),
  };

  const send = (res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/fhir+json', ...headers });
    res.end(JSON.stringify(body));
  };

  function token(form: URLSearchParams, res: http.ServerResponse) {
    tokenRequests.push(Object.fromEntries(form));
    if (form.get('grant_type') !== 'client_credentials') return send(res, 400, { error: 'unsupported_grant_type' });
    if (form.get('client_id') !== PEER_CLIENT_ID || form.get('client_secret') !== PEER_CLIENT_SECRET)
      return send(res, 401, { error: 'invalid_client', error_description: 'AADSTS7000215: Invalid client secret provided.' });
    const accessToken = crypto.randomBytes(24).toString('base64url');
    tokens.set(accessToken, Date.now() + peer.tokenSeconds * 1000);
    send(res, 200, { token_type: 'Bearer', expires_in: peer.tokenSeconds, access_token: accessToken });
  }

  async function api(req: http.IncomingMessage, body: string, res: http.ServerResponse, call: PeerCall) {
    const answer = (status: number, payload: unknown, headers?: Record<string, string>) => {
      call.status = status;
      send(res, status, payload, headers);
    };
    if (req.headers['ocp-apim-subscription-key'] !== PEER_SUBSCRIPTION_KEY)
      return answer(401, {
        statusCode: 401,
        message: 'Access denied due to invalid subscription key. Make sure to provide a valid key for an active subscription.',
      });
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    const until = bearer ? tokens.get(bearer) : undefined;
    if (!until || until < Date.now())
      return answer(401, outcome([{ severity: 'error', code: 'login', details: { text: 'Token inválido o vencido.' } }]));
    let json: Json;
    try {
      json = body ? (JSON.parse(body) as Json) : {};
    } catch {
      return answer(400, outcome([{ severity: 'error', code: 'structure', details: { text: 'El cuerpo no es JSON.' } }]));
    }
    const path = call.path.slice(new URL(base).pathname.length);
    const enviar = /^\/Composition\/\$enviar-rda-(consulta|paciente)$/.exec(path);
    const nota = /^\/Composition\/([^/]+)\/\$enviar-nota-aclaratoria$/.exec(path);
    if (req.method === 'POST' && (enviar || nota)) {
      call.identifier = typeof json.identifier?.value === 'string' ? json.identifier.value : null;
      const fault = faults.shift();
      if (fault === 'timeout') {
        call.status = 0;
        hanging.add(res);
        return;
      }
      if (fault === 'reset') {
        call.status = 0;
        return req.socket.destroy();
      }
      if (fault === '500' || fault === '503')
        return answer(Number(fault), outcome([{ severity: 'fatal', code: 'exception', details: { text: 'Error interno.' } }]));
      if (fault === '429') return answer(429, outcome([{ severity: 'error', code: 'throttled' }]), { 'retry-after': '1' });
      if (fault === 'refuse')
        return answer(
          422,
          outcome([{ severity: 'error', code: 'business-rule', details: { text: REFUSAL_TEXT }, expression: [REFUSAL_LOCATION] }]),
        );
      if (json.resourceType !== 'Bundle')
        return answer(
          400,
          outcome([{ severity: 'error', code: 'structure', details: { text: 'Se esperaba un Bundle.' }, expression: ['Bundle'] }]),
        );
      // A nota aclaratoria corrects a document the platform holds (by the id it gave it), of its kind,
      // and says so: Composition.relatesTo 'replaces' that document's identifier.
      const corrected = nota ? [...documents.entries()].find(([, d]) => d.remoteId === decodeURIComponent(nota[1])) : undefined;
      if (nota && !corrected)
        return answer(
          404,
          outcome([
            {
              severity: 'error',
              code: 'not-found',
              details: { text: `No existe el documento ${nota[1]} que la nota aclaratoria corrige.` },
            },
          ]),
        );
      const kind = enviar ? enviar[1] : corrected![1].kind;
      const errors = await validateApart(json, PROFILES[kind]);
      if (errors.length) return answer(422, outcome(errors.map(issueOf)));
      if (corrected) {
        const composition = json.entry?.[0]?.resource ?? {};
        const replaces = ((composition.relatesTo ?? []) as Json[]).find((r) => r.code === 'replaces')?.targetIdentifier?.value;
        if (composition.status !== 'amended' || replaces !== corrected[0])
          return answer(
            422,
            outcome([
              {
                severity: 'error',
                code: 'business-rule',
                details: {
                  text: 'Una nota aclaratoria lleva Composition.status amended y relatesTo replaces con el identificador del RDA que corrige.',
                },
                expression: ['Composition.relatesTo'],
              },
            ]),
          );
      }
      const identifier = call.identifier ?? '';
      const known = documents.get(identifier);
      const remoteId = known?.remoteId ?? crypto.randomUUID();
      if (!known) documents.set(identifier, { remoteId, bundle: json, kind, ...(corrected ? { corrects: corrected[1].remoteId } : {}) });
      if (fault === 'duplicate')
        return answer(
          409,
          outcome([{ severity: 'error', code: 'duplicate', details: { text: `El RDA ${identifier} ya fue registrado.` } }]),
        );
      const composition = { ...(json.entry?.[0]?.resource ?? {}), id: remoteId };
      return answer(known ? 200 : 201, composition, { location: `${base}/Composition/${remoteId}` });
    }
    const read = /^\/Composition\/([^/]+)\/\$document$/.exec(path);
    if (req.method === 'GET' && read) {
      const doc = [...documents.values()].find((d) => d.remoteId === decodeURIComponent(read[1]));
      return doc
        ? answer(200, doc.bundle)
        : answer(404, outcome([{ severity: 'error', code: 'not-found', details: { text: 'No existe.' } }]));
    }
    if (req.method === 'POST' && (path === '/Composition/$consultar-rda-paciente' || path === '/Patient/$consultar-paciente-exacto')) {
      const asked = askedIdentifier(json);
      const found = [...documents.values()].filter((d) => asked && patientIdentifiers(d.bundle).includes(asked));
      const resources =
        path === '/Patient/$consultar-paciente-exacto'
          ? found.slice(0, 1).map((d) => (d.bundle.entry as Json[]).find((e) => e.resource?.resourceType === 'Patient')!.resource)
          : found.map((d) => d.bundle);
      return answer(200, {
        resourceType: 'Bundle',
        type: 'searchset',
        total: resources.length,
        entry: resources.map((resource) => ({ resource })),
      });
    }
    answer(404, outcome([{ severity: 'error', code: 'not-supported', details: { text: `Operación desconocida: ${req.method} ${path}` } }]));
  }

  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://peer');
      if (req.method === 'POST' && url.pathname === '/oauth2/v2.0/token') return token(new URLSearchParams(body), res);
      const call: PeerCall = { method: req.method ?? '', path: url.pathname, headers: req.headers, identifier: null, status: 0 };
      calls.push(call);
      api(req, body, res, call).catch((error: Error) => {
        call.status = 500;
        send(res, 500, outcome([{ severity: 'fatal', code: 'exception', details: { text: error.message } }]));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  base = `http://127.0.0.1:${port}/fhir`;
  return Object.assign(peer, {
    tokenUrl: `http://127.0.0.1:${port}/oauth2/v2.0/token`,
    baseUrl: base,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}
