import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import jwt from 'jsonwebtoken';
import { startTestProduct, createOrg, bearer, patientBody, PASSWORD, requestFor, type TestProduct, type Org } from '../support/product';
import { patientToken } from './fixtures';

/**
 * Token attacks (ASVS V7, V9; P3): every forged, stale or misplaced token gets 401 with the same
 * Spanish answer, on a staff read, a staff write and the portal's own read. Forgeries signed with
 * the real key prove that the session row, not the signature alone, decides who is calling.
 * tests/api/sessions.test.ts keeps the sign-in behaviour; the attack list lives here.
 */
const SECRET = 'clave-de-pruebas-de-seguridad-0123456789abcdef';
let clock = new Date();
let t: TestProduct;
let org: Org;
let patientId: number;
let portal: string;
const figures = { attacks: 0, calls: 0 };

beforeAll(async () => {
  t = await startTestProduct({ now: () => clock, jwtSecret: SECRET });
  org = await createOrg(t, 'Clinica Tokens');
  patientId = (
    await t.http
      .post('/api/v1/patients')
      .set(bearer(org.tokens.admin))
      .send(patientBody({ nid: '7200000001', cellphone: '3007778899' }))
  ).body.id;
  portal = await patientToken(t, org, '7200000001', '3007778899');
});
afterAll(async () => {
  console.info(`[security] tokens: ${JSON.stringify(figures)}`);
  await t?.stop();
});

const claimsOf = (token: string) => jwt.decode(token) as jwt.JwtPayload;
const b64 = (v: object) => Buffer.from(JSON.stringify(v)).toString('base64url');
/** Same header and signature, other claims. */
const withClaims = (token: string, patch: object) => {
  const [h, , s] = token.split('.');
  return `${h}.${b64({ ...claimsOf(token), ...patch })}.${s}`;
};
/** Re-signed with the real key: only the server-side session can refuse it. */
const resigned = (token: string, patch: object) => jwt.sign({ ...claimsOf(token), ...patch }, SECRET, { algorithm: 'HS256' });

async function signIn(email: string) {
  const res = await t.http.post('/api/v1/sessions').send({ email, password: PASSWORD });
  expect(res.status).toBe(201);
  return res.body.token as string;
}

/** The calls every attack is tried on: a staff read, a staff write, the patient's own record. */
const targets = () => [
  (auth: Record<string, string>) => t.http.get('/api/v1/me').set(auth),
  (auth: Record<string, string>) =>
    t.http
      .post('/api/v1/tags')
      .set(auth)
      .send({ name: `robada ${Math.random()}`, color: 'red' }),
  (auth: Record<string, string>) => t.http.get(`/api/v1/patients/${patientId}`).set(auth),
];

async function expectRefused(auth: Record<string, string>, label: string) {
  figures.attacks++;
  const tagsBefore = (await t.http.get('/api/v1/tags').set(bearer(org.tokens.admin))).body.length;
  for (const call of targets()) {
    const res = await call(auth);
    figures.calls++;
    expect(res.status, `${label}: ${JSON.stringify(res.body)}`).toBe(401);
    expect(res.body).toEqual({ code: 'unauthorized', message: 'Su sesión no es válida o ha expirado. Inicie sesión de nuevo.' });
  }
  expect((await t.http.get('/api/v1/tags').set(bearer(org.tokens.admin))).body.length, `${label} wrote a row`).toBe(tagsBefore);
}

describe('forged tokens', () => {
  const forgeries: Array<[string, (staff: string, patient: string) => string]> = [
    ['alg none', (s) => `${b64({ alg: 'none', typ: 'JWT' })}.${b64(claimsOf(s))}.`],
    ['alg none, upper case', (s) => `${b64({ alg: 'NONE', typ: 'JWT' })}.${b64(claimsOf(s))}.`],
    ['HS512 with the real key (algorithm not allowed)', (s) => jwt.sign(claimsOf(s), SECRET, { algorithm: 'HS512' })],
    ['wrong key', (s) => jwt.sign(claimsOf(s), 'otra-clave', { algorithm: 'HS256' })],
    ['empty key', (s) => `${s.split('.')[0]}.${s.split('.')[1]}.`],
    ['tampered subject (another user), old signature', (s) => withClaims(s, { sub: String(org.users.admin.id) })],
    ['tampered role claim, old signature', (s) => withClaims(s, { role: 'admin', role_name: 'admin' })],
    ['tampered expiry, old signature', (s) => withClaims(s, { exp: claimsOf(s).exp! + 86_400 })],
    ['subject of another user, real key', (s) => resigned(s, { sub: String(org.users.admin.id) })],
    ['client of another organisation, real key', (s) => resigned(s, { cid: org.clientId + 1 })],
    ['staff session presented as a patient one, real key', (s) => resigned(s, { typ: 'patient' })],
    ['patient session presented as staff, real key', (_s, p) => resigned(p, { typ: 'staff' })],
    ['unknown session id, real key', (s) => resigned(s, { jti: '00000000-0000-4000-8000-000000000000' })],
    ['other issuer, real key', (s) => resigned(s, { iss: 'otro' })],
    ['other audience, real key', (s) => resigned(s, { aud: 'otra-api' })],
    ['garbage', () => 'esto.no.es-un-token'],
  ];

  it.each(forgeries)('refuses %s', async (label, forge) => {
    await expectRefused(bearer(forge(org.tokens.consulta, portal)), label);
  });

  it('refuses a missing token and other schemes', async () => {
    await expectRefused({}, 'no token');
    await expectRefused({ Authorization: 'Bearer' }, 'empty bearer');
    await expectRefused({ Authorization: `Basic ${Buffer.from(`${org.users.admin.email}:${PASSWORD}`).toString('base64')}` }, 'basic');
  });
});

describe('stale and misplaced tokens', () => {
  it('refuses an expired token, even one whose claims are re-signed to look fresh', async () => {
    const token = await signIn(org.users.enfermeria.email);
    // Accepted once first: the server keeps tokens whose signature verified, never their expiry.
    expect((await t.http.get('/api/v1/me').set(bearer(token))).status).toBe(200);
    clock = new Date(clock.getTime() + 3601_000);
    try {
      await expectRefused(bearer(token), 'expired');
      // The session row expired too: a fresh exp with the real key is still refused.
      await expectRefused(bearer(resigned(token, { exp: Math.floor(clock.getTime() / 1000) + 600 })), 'expired, re-signed');
    } finally {
      clock = new Date(clock.getTime() - 3601_000);
    }
  });

  it('refuses a staff token and a patient token after logout', async () => {
    const staff = await signIn(org.users.medico.email);
    expect((await t.http.delete('/api/v1/sessions').set(bearer(staff))).status).toBe(204);
    await expectRefused(bearer(staff), 'staff after logout');
    const own = await patientToken(t, org, '7200000001', '3007778899');
    expect((await t.http.get(`/api/v1/patients/${patientId}`).set(bearer(own))).status).toBe(200);
    expect((await t.http.delete('/api/v1/sessions').set(bearer(own))).status).toBe(204);
    await expectRefused(bearer(own), 'patient after logout');
  });

  it('refuses a patient token on every staff call', async () => {
    for (const [method, url] of [
      ['get', '/api/v1/me'],
      ['get', '/api/v1/patients'],
      ['get', '/api/v1/users'],
      ['post', '/api/v1/tags'],
      ['put', `/api/v1/patients/${patientId}`],
      ['get', '/api/v1/sms_outbox'],
      // Its own alerts too: the portal shows none, and their entries are staff notes (P146).
      ['get', `/api/v1/patients/${patientId}/alerts`],
      ['get', `/api/v1/patients/${patientId}/alerts/1`],
    ] as const) {
      // Valid bodies, so the refusal is about the session and not about the input.
      const body =
        method === 'post' ? { name: 'etiqueta valida', color: 'red' } : method === 'put' ? { neighborhood: 'centro' } : undefined;
      const res = await requestFor(t, method, url).set(bearer(portal)).send(body);
      figures.calls++;
      expect(res.status, `${method} ${url}`).toBe(401);
    }
    figures.attacks++;
  });

  it('refuses the token of a user who was disabled, from the next call on', async () => {
    const token = await signIn(org.users.consulta.email);
    expect((await t.http.get('/api/v1/me').set(bearer(token))).status).toBe(200);
    const off = await t.http.put(`/api/v1/users/${org.users.consulta.id}`).set(bearer(org.tokens.admin)).send({ status: 1 });
    expect(off.status).toBe(200);
    try {
      await expectRefused(bearer(token), 'disabled user');
    } finally {
      await t.http.put(`/api/v1/users/${org.users.consulta.id}`).set(bearer(org.tokens.admin)).send({ status: 0 });
    }
  });

  it('refuses the token of a deceased patient', async () => {
    const own = await patientToken(t, org, '7200000001', '3007778899');
    expect((await t.http.put(`/api/v1/patients/${patientId}`).set(bearer(org.tokens.admin)).send({ status: 3 })).status).toBe(200);
    const res = await t.http.get(`/api/v1/patients/${patientId}`).set(bearer(own));
    figures.attacks++;
    figures.calls++;
    expect(res.status, JSON.stringify(res.body)).toBe(401);
  });
});
