/**
 * The Ministry's IHCE platform on loopback for the RDA backlog phase (bench/rda.ts): the contract of
 * the tests' peer (tests/support/ihce-peer.ts, whose credentials it takes) without its validator.
 * The client-credentials token endpoint, the subscription key and the bearer token are checked on
 * every call; `POST {base}/Composition/$enviar-rda-{consulta|paciente}` keeps the document's
 * identifier and answers 201 with the Composition and the id it gave, 200 with the same id when the
 * identifier comes again. The Bundle is not validated against the guide: the tests' validator takes
 * 0.5-2 s a document in one process (tests/api/rdas.test.ts), which would make the platform, not
 * Vigía's sender, the thing measured; the rda-build phase validates the same document and reports
 * what that costs. Only the identifiers are kept (10,000 Bundles of ~40 KB would be the peer's RSS).
 */
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { PEER_CLIENT_ID, PEER_CLIENT_SECRET, PEER_SCOPE, PEER_SUBSCRIPTION_KEY } from '../tests/support/ihce-peer.js';

export { PEER_CLIENT_ID, PEER_CLIENT_SECRET, PEER_SCOPE, PEER_SUBSCRIPTION_KEY };

export interface LoopbackPlatform {
  tokenUrl: string;
  baseUrl: string;
  /** Documents accepted (first send of an identifier), sends answered 200 again, calls refused, tokens issued. */
  counts: { accepted: number; again: number; refused: number; tokens: number };
  /**
   * From now on each send waits unanswered until release() (tokens are still issued): the sender's
   * places stay taken and it writes nothing, so the backlog is held without touching the product's
   * settings or rows. Held sends must be released within the sender's timeout (IHCE_TIMEOUT_MS).
   */
  hold(): void;
  /** Answers every held send (spaced by RELEASE_SPACING_MS) and stops holding; how many there were. */
  release(): number;
  /** Sends waiting now. */
  held(): number;
  close(): Promise<void>;
}

/** Between the answers to held sends on release: a quick platform's time for one send. */
const RELEASE_SPACING_MS = 50;

const outcome = (code: string, text: string) => ({
  resourceType: 'OperationOutcome',
  issue: [{ severity: 'error', code, details: { text } }],
});

export async function startLoopbackPlatform(): Promise<LoopbackPlatform> {
  const tokens = new Map<string, number>();
  const kept = new Map<string, string>();
  const counts = { accepted: 0, again: 0, refused: 0, tokens: 0 };
  const send = (res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/fhir+json', ...headers });
    res.end(JSON.stringify(body));
  };
  let base = '';
  /** The platform's answer to a send: the document's identifier kept, its id given (the same id again for a known one). */
  const accept = (res: http.ServerResponse, identifier: string, json: { entry?: Array<{ resource?: object }> }) => {
    const known = kept.get(identifier);
    const remoteId = known ?? crypto.randomUUID();
    if (known) counts.again++;
    else {
      kept.set(identifier, remoteId);
      counts.accepted++;
    }
    send(res, known ? 200 : 201, { ...(json.entry?.[0]?.resource ?? {}), id: remoteId }, { location: `${base}/Composition/${remoteId}` });
  };
  let holding = false;
  let waiting: Array<() => void> = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const url = new URL(req.url ?? '/', 'http://peer');
      if (req.method === 'POST' && url.pathname === '/oauth2/v2.0/token') {
        const form = new URLSearchParams(body);
        if (form.get('grant_type') !== 'client_credentials') return send(res, 400, { error: 'unsupported_grant_type' });
        if (form.get('client_id') !== PEER_CLIENT_ID || form.get('client_secret') !== PEER_CLIENT_SECRET)
          return send(res, 401, { error: 'invalid_client' });
        const token = crypto.randomBytes(24).toString('base64url');
        tokens.set(token, Date.now() + 3_600_000);
        counts.tokens++;
        return send(res, 200, { token_type: 'Bearer', expires_in: 3600, access_token: token });
      }
      const refuse = (status: number, payload: unknown) => {
        counts.refused++;
        send(res, status, payload);
      };
      if (req.headers['ocp-apim-subscription-key'] !== PEER_SUBSCRIPTION_KEY)
        return refuse(401, { statusCode: 401, message: 'Access denied due to invalid subscription key.' });
      const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
      if (!bearer || (tokens.get(bearer) ?? 0) < Date.now()) return refuse(401, outcome('login', 'Token inválido o vencido.'));
      const enviar = /^\/fhir\/Composition\/\$enviar-rda-(consulta|paciente)$/.exec(url.pathname);
      if (req.method !== 'POST' || !enviar)
        return refuse(404, outcome('not-supported', `Operación desconocida: ${req.method} ${url.pathname}`));
      let json: { resourceType?: string; identifier?: { value?: unknown }; entry?: Array<{ resource?: object }> };
      try {
        json = JSON.parse(body) as typeof json;
      } catch {
        return refuse(400, outcome('structure', 'El cuerpo no es JSON.'));
      }
      const identifier = typeof json.identifier?.value === 'string' ? json.identifier.value : null;
      if (json.resourceType !== 'Bundle' || !identifier)
        return refuse(400, outcome('structure', 'Se esperaba un Bundle con identificador.'));
      const answer = () => accept(res, identifier, json);
      if (holding) waiting.push(answer);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  base = `http://127.0.0.1:${port}/fhir`;
  return {
    tokenUrl: `http://127.0.0.1:${port}/oauth2/v2.0/token`,
    baseUrl: base,
    counts,
    hold: () => {
      holding = true;
    },
    release: () => {
      holding = false;
      const answers = waiting;
      waiting = [];
      // One at a time, RELEASE_SPACING_MS apart: answered together, the sender's four places ended
      // at once and their outcomes and next claims queued on the writer together, a burst of slow
      // readings (40-55 ms) at each switch that a platform answering as it goes never makes.
      answers.forEach((answer, k) => setTimeout(answer, k * RELEASE_SPACING_MS));
      return answers.length;
    },
    held: () => waiting.length,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
