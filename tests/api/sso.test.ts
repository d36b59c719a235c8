import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { startTestProduct, createOrg, bearer, type TestProduct, type Org } from '../support/product';
import { signInAtProvider, startOidcProvider, type LoopbackProvider } from '../support/oidc';

/** Single sign-on against a real OpenID Connect provider on loopback (D18). */
const REDIRECT_URI = 'http://127.0.0.1:9/sso/callback';
let provider: LoopbackProvider;
let t: TestProduct;
let org: Org;

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
  org = await createOrg(t, 'Clinica SSO');
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
