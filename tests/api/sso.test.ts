import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { startTestProduct, createOrg, bearer, PASSWORD, type TestProduct, type Org } from '../support/product';
import { select } from '../../api/src/db/sql';
import { SSO_REQUIRED_MESSAGE } from '@vigia/contract/rules/sign-in';
import { signInAtProvider, startOidcProvider, type LoopbackProvider } from '../support/oidc';

/** Single sign-on against a real OpenID Connect provider on loopback (D18). */
const REDIRECT_URI = 'http://127.0.0.1:9/sso/callback';
let provider: LoopbackProvider;
let t: TestProduct;
let org: Org;
let other: Org;

beforeAll(async () => {
  provider = await startOidcProvider({ unverified: ['sin.verificar@clinicasso.test'] });
  provider.register(REDIRECT_URI);
  // The app reads OIDC_* when it is built (each test file runs in its own worker).
  Object.assign(process.env, {
    OIDC_ISSUER: provider.issuer,
    OIDC_CLIENT_ID: provider.clientId,
    OIDC_CLIENT_SECRET: provider.clientSecret,
    OIDC_REDIRECT_URI: REDIRECT_URI,
  });
  t = await startTestProduct();
  // The administrators are break-glass accounts: they sign in with their password to set the others.
  org = await createOrg(t, 'Clinica SSO', { breakGlass: ['admin'] });
  other = await createOrg(t, 'Otra Clinica SSO', { breakGlass: ['admin'] });
});
afterAll(async () => {
  await t?.stop();
  await provider?.close();
});

async function start() {
  const res = await t.http.post('/api/v1/sso/authorize');
  expect(res.status).toBe(200);
  return res.body as { url: string; state: string };
}

describe('single sign-on (OpenID Connect, code + PKCE)', () => {
  it('starts with PKCE S256, a state and a nonce at the configured provider', async () => {
    const { url, state } = await start();
    const u = new URL(url);
    expect(u.origin).toBe(provider.issuer);
    expect(u.searchParams.get('code_challenge_method')).toBe('S256');
    expect(u.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(u.searchParams.get('state')).toBe(state);
    expect(u.searchParams.get('nonce')).toBeTruthy();
    expect(u.searchParams.get('redirect_uri')).toBe(REDIRECT_URI);
  });

  it('signs in the user with the e-mail the provider asserts and issues our own session', async () => {
    const { url } = await start();
    const callback = await signInAtProvider(url, org.users.medico.email, REDIRECT_URI);
    const res = await t.http.post('/api/v1/sso/callback').send({
      code: callback.searchParams.get('code'),
      state: callback.searchParams.get('state'),
      iss: callback.searchParams.get('iss') ?? undefined,
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ user_id: org.users.medico.id, client_id: org.clientId, role_name: 'medico' });
    const me = await t.http.get('/api/v1/me').set(bearer(res.body.token));
    expect(me.status).toBe(200);
    expect(me.body.email).toBe(org.users.medico.email);
    // The code and the state are single use.
    const again = await t.http
      .post('/api/v1/sso/callback')
      .send({ code: callback.searchParams.get('code'), state: callback.searchParams.get('state') });
    expect(again.status).toBe(401);
  });

  it.each([
    ['an unknown e-mail', 'nadie@otra.test'],
    ['an e-mail the provider has not verified', 'sin.verificar@clinicasso.test'],
  ])('refuses %s', async (_label, email) => {
    const { url } = await start();
    const callback = await signInAtProvider(url, email, REDIRECT_URI);
    const res = await t.http
      .post('/api/v1/sso/callback')
      .send({ code: callback.searchParams.get('code'), state: callback.searchParams.get('state') });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ code: 'sso_failed', message: 'No se pudo completar el inicio de sesión único.' });
    expect(res.body).not.toHaveProperty('token');
  });

  it('refuses a state it did not issue and a code from another sign-on', async () => {
    const first = await start();
    const second = await start();
    const callback = await signInAtProvider(first.url, org.users.admin.email, REDIRECT_URI);
    const forged = await t.http.post('/api/v1/sso/callback').send({ code: callback.searchParams.get('code'), state: 'estado-inventado' });
    expect(forged.status).toBe(401);
    const swapped = await t.http.post('/api/v1/sso/callback').send({ code: callback.searchParams.get('code'), state: second.state });
    expect(swapped.status).toBe(401);
  });

  it('refuses a forged code with 401, never 500', async () => {
    const { state } = await start();
    const res = await t.http.post('/api/v1/sso/callback').send({ code: 'codigo-falso', state });
    expect(res.status).toBe(401);
  });

  it('validates the callback body against the contract', async () => {
    const res = await t.http.post('/api/v1/sso/callback').send({ state: 'x' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ field: 'code', message: '¡El campo es requerido!' });
  });
});

/** A session opened the way staff now sign in: at the provider. */
async function signInThroughProvider(email: string): Promise<string> {
  const { url } = await start();
  const callback = await signInAtProvider(url, email, REDIRECT_URI);
  const res = await t.http.post('/api/v1/sso/callback').send({
    code: callback.searchParams.get('code'),
    state: callback.searchParams.get('state'),
    iss: callback.searchParams.get('iss') ?? undefined,
  });
  expect(res.body).toMatchObject({ token: expect.any(String) });
  return res.body.token;
}
const signIn = (email: string, password = PASSWORD) => t.http.post('/api/v1/sessions').send({ email, password });
const mark = (userId: number, breakGlass: unknown, token = org.tokens.admin) =>
  t.http.put(`/api/v1/users/${userId}/break_glass`).set(bearer(token)).send({ break_glass: breakGlass });

/** The recorder writes after the answer has gone out: wait (briefly) for the rows. */
async function auditedChanges(userId: number, count: number): Promise<{ summary: string; changes: string; user_id: number }[]> {
  for (let i = 0; i < 50; i++) {
    const rows = await select<{ summary: string; changes: string; user_id: number }>(
      t.sequelize,
      "SELECT summary, changes, user_id FROM audit_events WHERE resource = 'user' AND resource_id = :id AND path LIKE '%break_glass' ORDER BY id",
      { id: String(userId) },
    );
    if (rows.length >= count) return rows;
    await new Promise((r) => setTimeout(r, 20));
  }
  return [];
}

describe('passwords where staff sign in through the provider (issue 49)', () => {
  it('refuses the right password of a staff member with sso_required and a Spanish way forward', async () => {
    const res = await signIn(org.users.enfermeria.email);
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 'sso_required', message: SSO_REQUIRED_MESSAGE });
    expect(res.body.message).toContain("'Ingresar con el proveedor de identidad'");
    expect(res.body).not.toHaveProperty('token');
    expect(org.tokens.enfermeria).toBe('');
  });

  it('says nothing more than before to a wrong password', async () => {
    const res = await signIn(org.users.enfermeria.email, 'Otra@Clave2026');
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('invalid_credentials');
  });

  it('lets a break-glass account in with its password', async () => {
    const res = await signIn(org.users.admin.email);
    expect(res.status).toBe(201);
    expect(res.body.token).toEqual(expect.any(String));
  });

  it('an administrator marks and unmarks a break-glass account, audited, and the password follows at once', async () => {
    const consulta = org.users.consulta;
    const marked = await mark(consulta.id, true);
    expect(marked.status).toBe(200);
    expect(marked.body).toMatchObject({ id: consulta.id, email: consulta.email, break_glass: true });
    expect((await signIn(consulta.email)).status).toBe(201);
    const listed = await t.http.get('/api/v1/users?break_glass=true').set(bearer(org.tokens.admin));
    expect(listed.status).toBe(200);
    expect(listed.body.map((u: { email: string }) => u.email).sort()).toEqual([org.users.admin.email, consulta.email].sort());

    expect((await mark(consulta.id, false)).body.break_glass).toBe(false);
    expect((await signIn(consulta.email)).status).toBe(403);
    const events = await auditedChanges(consulta.id, 2);
    expect(events.map((e) => JSON.parse(e.changes))).toEqual([{ break_glass: true }, { break_glass: false }]);
    expect(events[0]).toMatchObject({
      user_id: org.users.admin.id,
      summary: 'Cambió la cuenta de emergencia (ingreso con contraseña) del usuario',
    });
  });

  it('only an administrator of the same organisation sets the mark', async () => {
    const medico = await signInThroughProvider(org.users.medico.email);
    const byMedico = await mark(org.users.consulta.id, true, medico);
    expect(byMedico.status).toBe(403);
    expect(byMedico.body.code).toBe('forbidden');
    const fromOther = await mark(org.users.consulta.id, true, other.tokens.admin);
    expect(fromOther.status).toBe(404);
    const unknown = await mark(999999, true);
    expect(unknown.status).toBe(404);
    expect((await signIn(org.users.consulta.email)).status).toBe(403);
  });

  it('refuses a mark that is not a boolean, naming the field, and the field on the user update', async () => {
    const res = await mark(org.users.consulta.id, 'si');
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('break_glass');
    const update = await t.http.patch(`/api/v1/users/${org.users.consulta.id}`).set(bearer(org.tokens.admin)).send({ break_glass: true });
    expect(update.status).toBe(400);
  });

  it('a user of the provider signs in there as before', async () => {
    const token = await signInThroughProvider(org.users.enfermeria.email);
    const me = await t.http.get('/api/v1/me').set(bearer(token));
    expect(me.status).toBe(200);
  });
});
