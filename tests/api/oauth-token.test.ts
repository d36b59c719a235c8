import http from 'node:http';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { AddressInfo } from 'node:net';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { UnsecuredJWT, type CryptoKey } from 'jose';
import { select } from '../../api/src/db/sql';
import { verifyApiClientToken } from '../../api/src/modules/api_clients/api-clients.token';
import { startTestProduct, createOrg, bearer, type TestProduct, type Org } from '../support/product';
import { ASSERTION_TYPE, makeClientKey, signAssertion, type ClientKey } from '../support/smart-client';

/**
 * SMART Backend Services' token endpoint (issue 37), driven as an integrator would: keys made with
 * jose, assertions signed with them, the form posted to /oauth/token. Every refusal answers RFC
 * 6749's code with the same words whatever check failed.
 */
const SECRET = crypto.randomBytes(32).toString('hex');
const HOST = 'vigia.test';
const AUD = `http://${HOST}/oauth/token`;
const INVALID_CLIENT = { error: 'invalid_client', error_description: 'No fue posible autenticar el cliente.' };

let t: TestProduct;
let org: Org;
const keys: Record<string, ClientKey> = {};
let active: { id: number; client_id: string };
let suspended: { id: number; client_id: string };
let remote: { id: number; client_id: string };
let jwksServer: http.Server;
let jwksFetches = 0;

async function keyPair(alg: string, kid: string) {
  keys[kid] = await makeClientKey(alg, kid);
}

/** The server's clock runs `offset` ms ahead of the wall clock when a test moves it, or stands at `frozen` (ms). */
let offset = 0;
let frozen: number | null = null;
const serverNow = () => new Date(frozen ?? Date.now() + offset);
const nowSeconds = () => Math.floor(serverNow().getTime() / 1000);

interface AssertionOptions {
  alg?: string;
  kid?: string;
  key?: CryptoKey | Uint8Array;
  iss?: string;
  sub?: string;
  aud?: string;
  exp?: number;
  iat?: number;
  nbf?: number;
  jti?: string;
}
function assertion(clientId: string, o: AssertionOptions = {}): Promise<string> {
  const kid = o.kid ?? 'rs384';
  return signAssertion({
    alg: o.alg ?? 'RS384',
    kid,
    iss: o.iss ?? clientId,
    sub: o.sub ?? clientId,
    aud: o.aud ?? AUD,
    exp: o.exp ?? nowSeconds() + 240,
    iat: o.iat,
    nbf: o.nbf,
    jti: o.jti,
    key: o.key ?? keys[kid].privateKey,
  });
}

const form = (fields: Record<string, string>) => t.http.post('/oauth/token').set('Host', HOST).type('form').send(fields);
const tokenFor = async (signed: string, scope = 'system/Patient.rs') =>
  form({ grant_type: 'client_credentials', client_assertion_type: ASSERTION_TYPE, client_assertion: signed, scope });

async function register(body: object) {
  const res = await t.http.post('/api/v1/api_clients').set(bearer(org.tokens.admin)).send(body);
  if (res.status !== 201) throw new Error(JSON.stringify(res.body));
  return res.body as { id: number; client_id: string };
}

beforeAll(async () => {
  t = await startTestProduct({ jwtSecret: SECRET, allowHttpServices: true, now: serverNow });
  org = await createOrg(t, 'Clinica Integraciones');
  await keyPair('RS384', 'rs384');
  await keyPair('ES384', 'es384');
  await keyPair('RS256', 'rs256');
  await keyPair('ES256', 'es256');
  await keyPair('RS384', 'stranger');
  const jwks = { keys: ['rs384', 'es384', 'rs256', 'es256'].map((k) => keys[k].publicJwk) };
  active = await register({ name: 'HIS Central', jwks, scopes: ['system/Patient.rs', 'system/Observation.rs'] });
  suspended = await register({ name: 'Suspendido', jwks, scopes: ['system/*.rs'], status: 'suspended' });
  // The loopback peer: a real HTTP server that serves the JWKS, and counts how often it is asked.
  jwksServer = http.createServer((_req, res) => {
    jwksFetches++;
    res.setHeader('Content-Type', 'application/json');
    res.end(JSON.stringify({ keys: [keys.es384.publicJwk] }));
  });
  await new Promise<void>((resolve) => jwksServer.listen(0, '127.0.0.1', resolve));
  const port = (jwksServer.address() as AddressInfo).port;
  remote = await register({ name: 'Analitica', jwks_url: `http://127.0.0.1:${port}/jwks.json`, scopes: ['system/*.rs'] });
});
afterAll(async () => {
  await new Promise((resolve) => jwksServer?.close(resolve));
  await t?.stop();
});

describe('GET /fhir/R4/.well-known/smart-configuration', () => {
  it('advertises the token endpoint, private_key_jwt and the system scopes', async () => {
    const res = await t.http.get('/fhir/R4/.well-known/smart-configuration').set('Host', HOST);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      token_endpoint: AUD,
      token_endpoint_auth_methods_supported: ['private_key_jwt'],
      token_endpoint_auth_signing_alg_values_supported: expect.arrayContaining(['RS384', 'ES384']),
      grant_types_supported: ['client_credentials'],
      capabilities: ['client-confidential-asymmetric', 'permission-v2'],
    });
    expect(res.body.scopes_supported).toEqual(expect.arrayContaining(['system/*.rs', 'system/Patient.rs', 'system/Group.rs']));
  });
});

describe('behind a reverse proxy on loopback (X-Forwarded-Proto and X-Forwarded-Host, as trust proxy believes them)', () => {
  const PROXIED = 'https://fhir.clinica.test';
  const via = <T extends { set(name: string, value: string): T }>(r: T) =>
    r.set('Host', '127.0.0.1:8080').set('X-Forwarded-Proto', 'https').set('X-Forwarded-Host', 'fhir.clinica.test');

  it('advertises the token endpoint at the origin the integrator reached, as the recovery links are built', async () => {
    const res = await via(t.http.get('/fhir/R4/.well-known/smart-configuration'));
    expect(res.status).toBe(200);
    expect(res.body.token_endpoint).toBe(`${PROXIED}/oauth/token`);
    const search = await via(t.http.get('/fhir/R4/metadata'));
    expect(JSON.stringify(search.body)).toContain(`${PROXIED}/oauth/token`);
  });

  it('accepts an assertion whose audience is that token endpoint, and refuses the internal host', async () => {
    const post = (signed: string) =>
      via(t.http.post('/oauth/token')).type('form').send({
        grant_type: 'client_credentials',
        client_assertion_type: ASSERTION_TYPE,
        client_assertion: signed,
        scope: 'system/Patient.rs',
      });
    const ok = await post(await assertion(active.client_id, { aud: `${PROXIED}/oauth/token` }));
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    const internal = await post(await assertion(active.client_id, { aud: 'http://127.0.0.1:8080/oauth/token' }));
    expect(internal.status).toBe(401);
    expect(internal.body).toEqual(INVALID_CLIENT);
  });
});

describe('POST /oauth/token', () => {
  it('issues a 5-minute bearer token for an RS384 assertion, with the scope asked and held', async () => {
    const before = Date.now();
    const res = await tokenFor(await assertion(active.client_id));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toEqual({ access_token: expect.any(String), token_type: 'bearer', expires_in: 300, scope: 'system/Patient.rs' });
    const principal = await verifyApiClientToken({ sequelize: t.sequelize, secret: SECRET, now: () => new Date() }, res.body.access_token);
    expect(principal).toEqual({
      kind: 'api_client',
      clientId: org.clientId,
      apiClientId: active.id,
      publicId: active.client_id,
      scopes: ['system/Patient.rs'],
    });
    // Five minutes later it is no longer valid.
    expect(
      await verifyApiClientToken(
        { sequelize: t.sequelize, secret: SECRET, now: () => new Date(Date.now() + 301_000) },
        res.body.access_token,
      ),
    ).toBeNull();
    const shown = await t.http.get(`/api/v1/api_clients/${active.id}`).set(bearer(org.tokens.admin));
    expect(new Date(shown.body.last_token_at).getTime()).toBeGreaterThanOrEqual(before - 1000);
    let event: { actor_kind: string; summary: string; user_id: number | null } | undefined;
    for (let i = 0; i < 50 && !event; i++) {
      [event] = await select<NonNullable<typeof event>>(
        t.sequelize,
        "SELECT * FROM audit_events WHERE action = 'token_issued' AND resource_id = :id",
        {
          id: String(active.id),
        },
      );
      if (!event) await new Promise((r) => setTimeout(r, 20));
    }
    expect(event).toMatchObject({ actor_kind: 'system', user_id: null });
    expect(event!.summary).toBe('Emitió un token de acceso para el cliente de API HIS Central (system/Patient.rs)');
    // 'Auditoría' shows it, by the actor 'Sistema'.
    const trail = await t.http.get('/api/v1/audit_events?resource=api_client').set(bearer(org.tokens.admin));
    expect(trail.status).toBe(200);
    expect(trail.body).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ action: 'token_issued', actor_kind: 'system', user_id: null, resource_id: String(active.id) }),
      ]),
    );
  });

  it.each(['ES384', 'RS256', 'ES256'])('accepts an assertion signed %s; system/*.rs gets what the client holds', async (alg) => {
    const res = await tokenFor(await assertion(active.client_id, { alg, kid: alg.toLowerCase() }), 'system/*.rs');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.scope).toBe('system/Patient.rs system/Observation.rs');
  });

  it('verifies with a JWKS fetched from the client URL, and keeps it for the next assertions', async () => {
    const first = await tokenFor(await assertion(remote.client_id, { alg: 'ES384', kid: 'es384' }), 'system/Group.rs system/Patient.r');
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.scope).toBe('system/Group.rs system/Patient.r');
    const second = await tokenFor(await assertion(remote.client_id, { alg: 'ES384', kid: 'es384' }), 'system/*.rs');
    expect(second.status).toBe(200);
    expect(jwksFetches).toBe(1);
    // A key the URL does not serve.
    const stranger = await tokenFor(await assertion(remote.client_id, { kid: 'stranger' }));
    expect(stranger.status).toBe(401);
    expect(stranger.body).toEqual(INVALID_CLIENT);
  });

  const refusals: Array<[string, () => Promise<{ status: number; body: unknown }>]> = [
    [
      'a key the client did not register',
      async () => tokenFor(await assertion(active.client_id, { kid: 'rs384', key: keys.stranger.privateKey })),
    ],
    ['another aud', async () => tokenFor(await assertion(active.client_id, { aud: 'https://otro.example/oauth/token' }))],
    ['an assertion expired two minutes ago', async () => tokenFor(await assertion(active.client_id, { exp: nowSeconds() - 120 }))],
    ['exp ten minutes ahead', async () => tokenFor(await assertion(active.client_id, { exp: nowSeconds() + 600 }))],
    ['sub other than iss', async () => tokenFor(await assertion(active.client_id, { sub: suspended.client_id }))],
    ['an unknown client', async () => tokenFor(await assertion('no-such-client'))],
    ['a suspended client', async () => tokenFor(await assertion(suspended.client_id))],
    ['a text that is no JWT', async () => tokenFor('no.es.jwt')],
    [
      'an unsigned assertion (alg none)',
      async () => {
        const unsigned = new UnsecuredJWT({})
          .setIssuer(active.client_id)
          .setSubject(active.client_id)
          .setAudience(AUD)
          .setJti('n1')
          .setExpirationTime(nowSeconds() + 60)
          .encode();
        return tokenFor(unsigned);
      },
    ],
    [
      'an HS256 assertion keyed with the public key (algorithm confusion)',
      async () =>
        tokenFor(await assertion(active.client_id, { alg: 'HS256', key: new TextEncoder().encode(JSON.stringify(keys.rs384.publicJwk)) })),
    ],
    [
      'another client assertion type',
      async () =>
        form({
          grant_type: 'client_credentials',
          client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:saml2-bearer',
          client_assertion: await assertion(active.client_id),
          scope: 'system/Patient.rs',
        }),
    ],
  ];
  it.each(refusals)('refuses %s with 401 invalid_client', async (_name, send) => {
    const res = await send();
    expect(res.status).toBe(401);
    expect(res.body).toEqual(INVALID_CLIENT);
  });

  it('answers 503 temporarily_unavailable, not 500, when the JWKS URL does not answer', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const dead = await register({ name: 'Sin JWKS', jwks_url: `http://127.0.0.1:${port}/jwks.json`, scopes: ['system/*.rs'] });
    const res = await tokenFor(await assertion(dead.client_id));
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ error: 'temporarily_unavailable', error_description: expect.any(String) });
  });

  it('refuses a jti seen before while its assertion is valid', async () => {
    const jti = crypto.randomUUID();
    expect((await tokenFor(await assertion(active.client_id, { jti }))).status).toBe(200);
    const replay = await tokenFor(await assertion(active.client_id, { jti }));
    expect(replay.status).toBe(401);
    expect(replay.body).toEqual(INVALID_CLIENT);
    // The same text again, too.
    const signed = await assertion(active.client_id);
    expect((await tokenFor(signed)).status).toBe(200);
    expect((await tokenFor(signed)).status).toBe(401);
  });

  it('takes a jti again once the assertion that used it has expired, allowance for clock skew included', async () => {
    const jti = crypto.randomUUID();
    expect((await tokenFor(await assertion(active.client_id, { jti, exp: nowSeconds() + 30 }))).status).toBe(200);
    try {
      // 30 s after exp the same assertion could still be accepted (60 s of skew): the jti is a replay.
      offset = 60_000;
      expect((await tokenFor(await assertion(active.client_id, { jti, exp: nowSeconds() + 60 }))).status).toBe(401);
      offset = 105_000;
      const again = await tokenFor(await assertion(active.client_id, { jti, exp: nowSeconds() + 60 }));
      expect(again.status, JSON.stringify(again.body)).toBe(200);
      const rows = await select<{ n: number }>(t.sequelize, 'SELECT COUNT(*) AS n FROM oauth_jtis WHERE jti = :jti', { jti });
      expect(Number(rows[0].n)).toBe(1);
      expect((await tokenFor(await assertion(active.client_id, { jti, exp: nowSeconds() + 60 }))).status).toBe(401);
    } finally {
      offset = 0;
    }
  });

  it.each<[string, () => Promise<{ status: number; body: unknown }>, number, string]>([
    ['a scope the client does not hold', async () => tokenFor(await assertion(active.client_id), 'system/Group.rs'), 400, 'invalid_scope'],
    ['a write scope', async () => tokenFor(await assertion(active.client_id), 'system/Patient.cruds'), 400, 'invalid_scope'],
    [
      'grant_type password',
      async () =>
        form({
          grant_type: 'password',
          client_assertion_type: ASSERTION_TYPE,
          client_assertion: await assertion(active.client_id),
          scope: 'system/Patient.rs',
        }),
      400,
      'unsupported_grant_type',
    ],
    [
      'no scope',
      async () =>
        form({
          grant_type: 'client_credentials',
          client_assertion_type: ASSERTION_TYPE,
          client_assertion: await assertion(active.client_id),
        }),
      400,
      'invalid_request',
    ],
    [
      'no assertion',
      async () => form({ grant_type: 'client_credentials', client_assertion_type: ASSERTION_TYPE, scope: 'system/Patient.rs' }),
      400,
      'invalid_request',
    ],
    [
      'a JSON body',
      async () => t.http.post('/oauth/token').set('Host', HOST).send({ grant_type: 'client_credentials' }),
      400,
      'invalid_request',
    ],
    ['an empty body', async () => t.http.post('/oauth/token').set('Host', HOST), 400, 'invalid_request'],
    [
      'a form of 40 kB',
      async () => form({ grant_type: 'client_credentials', client_assertion: 'x'.repeat(40_000) }),
      400,
      'invalid_request',
    ],
    [
      'a form in another charset',
      async () =>
        t.http
          .post('/oauth/token')
          .set('Host', HOST)
          .set('Content-Type', 'application/x-www-form-urlencoded; charset=latin9')
          .send('grant_type=client_credentials'),
      400,
      'invalid_request',
    ],
  ])('refuses %s with %i %s', async (_name, send, status, error) => {
    const res = await send();
    expect(res.status).toBe(status);
    expect(res.body).toEqual({ error, error_description: expect.any(String) });
  });

  it('answers a client that was refused a scope without spending its jti', async () => {
    const jti = crypto.randomUUID();
    expect((await tokenFor(await assertion(active.client_id, { jti }), 'system/Group.rs')).status).toBe(400);
    expect((await tokenFor(await assertion(active.client_id, { jti }), 'system/Patient.rs')).status).toBe(200);
  });

  it('gives a token that the staff API refuses like any token that does not fit', async () => {
    const res = await tokenFor(await assertion(active.client_id));
    const token = res.body.access_token as string;
    for (const path of ['/api/v1/me', '/api/v1/api_clients', '/api/v1/patients']) {
      const staff = await t.http.get(path).set(bearer(token));
      expect(staff.status, path).toBe(401);
      expect(staff.body.code).toBe('unauthorized');
    }
  });

  it('stops honouring the tokens of a client once it is suspended or deleted', async () => {
    const client = await register({ name: 'Temporal', jwks: { keys: [keys.rs384.publicJwk] }, scopes: ['system/*.rs'] });
    const token = (await tokenFor(await assertion(client.client_id))).body.access_token as string;
    const verify = () => verifyApiClientToken({ sequelize: t.sequelize, secret: SECRET, now: () => new Date() }, token);
    expect(await verify()).not.toBeNull();
    await t.http.patch(`/api/v1/api_clients/${client.id}`).set(bearer(org.tokens.admin)).send({ status: 'suspended' });
    expect(await verify()).toBeNull();
    expect((await tokenFor(await assertion(client.client_id))).body).toEqual(INVALID_CLIENT);
    await t.http.patch(`/api/v1/api_clients/${client.id}`).set(bearer(org.tokens.admin)).send({ status: 'active' });
    expect(await verify()).not.toBeNull();
    expect((await t.http.delete(`/api/v1/api_clients/${client.id}`).set(bearer(org.tokens.admin))).status).toBe(204);
    expect(await verify()).toBeNull();
    // A token signed with another secret is nobody's.
    expect(await verifyApiClientToken({ sequelize: t.sequelize, secret: 'otro-secreto', now: () => new Date() }, token)).toBeNull();
  });
});

describe('POST /oauth/token at the edges of the clock (SMART: exp at most 300 s ahead; 60 s of skew either way)', () => {
  // The server's clock stands still at the middle of a second, so each edge is the same second on both sides.
  const at = Math.floor(Date.now() / 1000) * 1000 + 500;
  const now = Math.floor(at / 1000);
  it.each<[string, { exp: number; iat?: number; nbf?: number }, 200 | 401]>([
    ['exp now + 300, as the official SMART client sends it', { exp: now + 300 }, 200],
    ['exp now + 301, the SMART client rounding its second up', { exp: now + 301 }, 200],
    ['exp now + 360', { exp: now + 360 }, 200],
    ['exp now + 361', { exp: now + 361 }, 401],
    ['iat 60 s in the future', { iat: now + 60, exp: now + 300 }, 200],
    ['iat 61 s in the future', { iat: now + 61, exp: now + 300 }, 401],
    ['nbf 60 s in the future', { nbf: now + 60, exp: now + 300 }, 200],
    ['nbf 61 s in the future', { nbf: now + 61, exp: now + 300 }, 401],
    ['expired by 60 s', { exp: now - 60 }, 200],
    ['expired by 61 s', { exp: now - 61 }, 401],
  ])('%s → %i', async (_name, times, status) => {
    frozen = at;
    try {
      const res = await tokenFor(await assertion(active.client_id, times));
      expect(res.status, JSON.stringify(res.body)).toBe(status);
      if (status === 401) expect(res.body).toEqual(INVALID_CLIENT);
      else expect(res.body.expires_in).toBe(300);
    } finally {
      frozen = null;
    }
  });
});

describe('docs/fhir.md', () => {
  it('runs the Node example as written: keys, registration, token', async () => {
    const doc = fs.readFileSync(path.join(import.meta.dirname, '../../docs/fhir.md'), 'utf8');
    const block = (name: string) => {
      const m = new RegExp('```js\\n(// ' + name.replace('.', '\\.') + '[\\s\\S]*?)```').exec(doc);
      if (!m) throw new Error(`docs/fhir.md has no ${name} block`);
      return m[1];
    };
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigia-fhir-doc-'));
    const server = t.app.listen(0, '127.0.0.1');
    try {
      // The example imports 'jose' as an integrator's project would: from its own node_modules.
      fs.symlinkSync(path.join(import.meta.dirname, '../../node_modules'), path.join(dir, 'node_modules'));
      fs.writeFileSync(path.join(dir, 'keys.mjs'), block('keys.mjs'));
      fs.writeFileSync(path.join(dir, 'token.mjs'), block('token.mjs'));
      const run = promisify(execFile);
      await run(process.execPath, ['keys.mjs'], { cwd: dir });
      const jwks = JSON.parse(fs.readFileSync(path.join(dir, 'jwks.json'), 'utf8'));
      const client = await register({ name: 'Ejemplo de la guía', jwks, scopes: ['system/Patient.rs', 'system/Observation.rs'] });
      if (!server.listening) await new Promise((resolve) => server.once('listening', resolve));
      const port = (server.address() as AddressInfo).port;
      const { stdout } = await run(process.execPath, ['token.mjs'], {
        cwd: dir,
        env: { ...process.env, VIGIA_URL: `http://127.0.0.1:${port}`, CLIENT_ID: client.client_id },
      });
      expect(stdout.trim()).toBe('token for 300 s, scope: system/Patient.rs system/Observation.rs');
    } finally {
      await new Promise((resolve) => server.close(resolve));
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
