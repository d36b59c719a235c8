/**
 * Issue 37: the SMART Backend Services side of the FHIR rows (bench/fhir.ts). The benchmark's API
 * client (an RS384 key pair made here, its public JWK pasted in as an administrator would), client
 * assertions, access tokens, and the token endpoint's row: assertions signed before timing (each
 * with a fresh jti, good once), sent once each from `--connections` connections, beside jose's own
 * jwtVerify of the same assertions in this process.
 */
import crypto from 'node:crypto';
import autocannon from 'autocannon';
import { createLocalJWKSet, exportJWK, generateKeyPair, jwtVerify, SignJWT, type CryptoKey, type JWK } from 'jose';
import { fetchRetrying, type LoadResult } from './load.js';
import type { Phase, Settings } from './measure.js';
import type { ApiProcess } from './server.js';
import { summarize } from './stats.js';
import { FHIR_IDS, FHIR_TARGETS } from './targets.js';

const ALG = 'RS384';
const ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';
const SCOPES = ['system/Patient.rs', 'system/Observation.rs'];
/** An assertion may be at most 5 minutes ahead; this leaves the phase room after signing. */
const ASSERTION_LIFETIME_S = 280;

export interface FhirClient {
  id: number;
  publicId: string;
  privateKey: CryptoKey;
  jwks: { keys: JWK[] };
}

/** The benchmark's own API client, in client A, with the two scopes its rows need. */
export async function registerClient(baseUrl: string, staffToken: string): Promise<FhirClient> {
  const { publicKey, privateKey } = await generateKeyPair(ALG, { extractable: true });
  const jwks = { keys: [{ ...(await exportJWK(publicKey)), kid: 'bench', alg: ALG, use: 'sig' }] };
  const res = await fetchRetrying(`${baseUrl}/api/v1/api_clients`, {
    method: 'POST',
    headers: { authorization: `Bearer ${staffToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Benchmark FHIR', jwks, scopes: SCOPES }),
  });
  const body = (await res.json()) as { id: number; client_id: string };
  if (res.status !== 201) throw new Error(`No se pudo registrar el cliente de API: ${res.status} ${JSON.stringify(body)}`);
  return { id: body.id, publicId: body.client_id, privateKey, jwks };
}

export async function removeClient(baseUrl: string, staffToken: string, id: number): Promise<void> {
  const res = await fetchRetrying(`${baseUrl}/api/v1/api_clients/${id}`, {
    method: 'DELETE',
    headers: { authorization: `Bearer ${staffToken}` },
  });
  if (res.status !== 204) throw new Error(`No se pudo borrar el cliente de API ${id}: ${res.status}`);
}

/** Client assertions signed now, each with its own jti (the endpoint refuses a jti seen before). */
async function signAssertions(client: FhirClient, audience: string, nowSeconds: number, n: number): Promise<string[]> {
  const out: string[] = [];
  for (let i = 0; i < n; i++)
    out.push(
      await new SignJWT({})
        .setProtectedHeader({ alg: ALG, kid: 'bench', typ: 'JWT' })
        .setIssuer(client.publicId)
        .setSubject(client.publicId)
        .setAudience(audience)
        .setExpirationTime(nowSeconds + ASSERTION_LIFETIME_S)
        .setJti(crypto.randomUUID())
        .sign(client.privateKey),
    );
  return out;
}

const tokenForm = (assertion: string) =>
  new URLSearchParams({
    grant_type: 'client_credentials',
    client_assertion_type: ASSERTION_TYPE,
    client_assertion: assertion,
    scope: SCOPES.join(' '),
  }).toString();

/** A fresh access token (5 minutes): one per scenario, so a long phase never runs on an expired one. */
export async function accessToken(baseUrl: string, client: FhirClient, nowSeconds: number): Promise<string> {
  const [assertion] = await signAssertions(client, `${baseUrl}/oauth/token`, nowSeconds, 1);
  const res = await fetchRetrying(`${baseUrl}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: tokenForm(assertion),
  });
  const body = (await res.json()) as { access_token?: string };
  if (res.status !== 200 || !body.access_token) throw new Error(`POST /oauth/token respondió ${res.status}: ${JSON.stringify(body)}`);
  return body.access_token;
}

// ---------------------------------------------------------------- token endpoint

export interface FhirTokenResult {
  alg: string;
  /** Assertions sent in the measured phase (each verified once), after `warmup` of their own. */
  assertions: number;
  warmup: number;
  signSeconds: number;
  /** 200 answers per second: each is one assertion whose signature, claims and jti passed. */
  api: Phase;
  baseline: { concurrency: number; perSecond: number; sequentialPerSecond: number; failed: number };
}

/**
 * Closed loop over `assertions`, each sent once (autocannon's `amount`), form-encoded. The time is
 * taken here, from the start to the last answer: with `amount`, autocannon notices the end only at
 * its next one-second sample, so its `duration` is whole seconds (3,000 answers in 2.2 s read as
 * 1,000/s).
 */
export async function postAssertions(baseUrl: string, assertions: string[], connections: number): Promise<LoadResult> {
  let next = 0;
  const headers = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };
  const instance = autocannon({
    url: baseUrl,
    connections,
    amount: assertions.length,
    timeout: 30,
    headers,
    requests: [
      {
        setupRequest: (request) => ({
          ...request,
          method: 'POST',
          path: '/oauth/token',
          headers,
          body: tokenForm(assertions[next++ % assertions.length]),
        }),
      },
    ],
  });
  const started = performance.now();
  let lastAnswer = started;
  const samples: number[] = [];
  instance.on('response', (_client: unknown, status: number, _bytes: number, ms: number) => {
    lastAnswer = performance.now();
    if (status >= 200 && status < 300) samples.push(ms);
  });
  const result = await instance;
  const seconds = Math.max(lastAnswer - started, 1) / 1000;
  return {
    connections,
    seconds,
    rps: result['2xx'] / seconds,
    latency: summarize(samples),
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    statusCodes: Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, s]) => [code, s.count])),
  };
}

/** jose's jwtVerify of each assertion with the options the endpoint gives it (api-clients.token.ts), from `concurrency` loops. */
async function verifyInProcess(client: FhirClient, assertions: string[], currentDate: Date, concurrency: number) {
  const keys = createLocalJWKSet(client.jwks);
  let failed = 0;
  let next = 0;
  const started = performance.now();
  const loop = async () => {
    while (next < assertions.length) {
      const a = assertions[next++];
      await jwtVerify(a, keys, { algorithms: [ALG], currentDate }).catch(() => failed++);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, loop));
  return { perSecond: assertions.length / ((performance.now() - started) / 1000), failed };
}

export async function measureToken(opts: {
  api: ApiProcess;
  client: FhirClient;
  settings: Settings;
  nowMs: () => number;
  log: (line: string) => void;
}): Promise<FhirTokenResult> {
  const { api, client, settings, log } = opts;
  const connections = settings.connections;
  // Enough for the phase at well above the target; the phase is a count of requests, timed.
  // At most 6,000: all are signed before timing with one expiry (ASSERTION_LIFETIME_S), so signing and sending must fit in it.
  const n = Math.min(6000, Math.max(200, settings.seconds * FHIR_TARGETS.tokenAssertionsPerSecond));
  const warm = Math.max(50, settings.warmupSeconds * 100);
  const t0 = performance.now();
  const nowSeconds = Math.floor(opts.nowMs() / 1000);
  const assertions = await signAssertions(client, `${api.baseUrl}/oauth/token`, nowSeconds, warm + n);
  const signSeconds = (performance.now() - t0) / 1000;
  log(`POST /oauth/token — ${warm + n} aserciones ${ALG} firmadas en ${signSeconds.toFixed(1)} s (un jti cada una)`);
  api.memory.setPhase(FHIR_IDS.token);
  await postAssertions(api.baseUrl, assertions.slice(0, warm), connections);
  const measured = assertions.slice(warm);
  const cpuBefore = api.cpuMs();
  const load = await postAssertions(api.baseUrl, measured, connections);
  const cpu = api.cpuMs() - cpuBefore;
  // The audit rows of the last tokens are written after their answers.
  await new Promise((r) => setTimeout(r, 500));
  const currentDate = new Date(opts.nowMs());
  const sequential = await verifyInProcess(client, measured, currentDate, 1);
  const concurrent = await verifyInProcess(client, measured, currentDate, connections);
  log(
    `  API, ${connections} conexiones: ${load.rps.toFixed(0)} tokens/s · p50 ${load.latency.p50.toFixed(2)} · p95 ${load.latency.p95.toFixed(2)} ms · no-2xx ${load.non2xx} · errores ${load.errors}; jose jwtVerify en proceso: ${concurrent.perSecond.toFixed(0)}/s (${sequential.perSecond.toFixed(0)}/s de a una)`,
  );
  return {
    alg: ALG,
    assertions: measured.length,
    warmup: warm,
    signSeconds,
    api: { ...load, apiCpuMsPerRequest: cpu / Math.max(1, load.rps * load.seconds) },
    baseline: {
      concurrency: connections,
      perSecond: concurrent.perSecond,
      sequentialPerSecond: sequential.perSecond,
      failed: concurrent.failed + sequential.failed,
    },
  };
}

/** The report's row for the token endpoint. */
export function fhirTokenRow(r: FhirTokenResult) {
  const ms = (v: number) => `${v < 10 ? v.toFixed(2) : v.toFixed(1)} ms`;
  const perSecond = (v: number) => `${Math.round(v).toLocaleString('en-US')}/s`;
  const bad = r.api.non2xx + r.api.errors + r.api.timeouts;
  return {
    what: `FHIR token endpoint (POST /oauth/token, ${r.assertions.toLocaleString('en-US')} ${r.alg} client assertions signed before timing, each with its own jti; ${r.api.connections} connections, p50 ${ms(r.api.latency.p50)}, p95 ${ms(r.api.latency.p95)}${bad ? `, ${bad} refused or failed` : ''}): signatures verified/s`,
    target: `≥ ${FHIR_TARGETS.tokenPerSecond}/s`,
    figure: perSecond(r.api.rps),
    baseline: `${perSecond(r.baseline.perSecond)} (jose jwtVerify of the same assertions in-process, ${r.baseline.concurrency} loops; ${perSecond(r.baseline.sequentialPerSecond)} one at a time)`,
    ratio: `${(r.api.rps / r.baseline.perSecond).toFixed(2)}×`,
    ok: r.api.rps >= FHIR_TARGETS.tokenPerSecond && bad === 0,
  };
}
