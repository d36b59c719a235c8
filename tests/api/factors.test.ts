import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import crypto from 'node:crypto';
import otplib from 'otplib';
import { startTestProduct, createOrg, bearer, PASSWORD, type TestProduct, type Org } from '../support/product';
import { select } from '../../api/src/db/sql';

/**
 * Issue 38's second factor through the API, on SQLite and (DATABASE_URL) PostgreSQL: TOTP codes
 * are computed here from the key the enrolment answered; passkeys are registered and used with a
 * software authenticator (node:crypto, ES256) at the end of the file. Chromium's own virtual
 * authenticator drives them in the browser test.
 */
const { authenticator } = otplib;
// Mid-step (15 s into a 30 s step), so ±1 step is unambiguous.
let nowMs = Date.parse('2026-11-20T12:00:15Z');
const STEP = 30_000;
const codeAt = (secret: string, ms: number) => authenticator.clone({ epoch: ms }).generate(secret);
/** Moves the clock on by whole steps (past any throttle wait of earlier failures). */
const advance = (ms: number) => {
  nowMs += ms;
};

let t: TestProduct;
let org: Org;
beforeAll(async () => {
  t = await startTestProduct({ now: () => new Date(nowMs) });
  org = await createOrg(t, 'Clinica Factores');
});
afterAll(() => t.stop());

const signIn = (email: string) => t.http.post('/api/v1/sessions').send({ email, password: PASSWORD });

async function enrolTotp(token: string): Promise<{ secret: string; recovery: string[] }> {
  const start = await t.http.post('/api/v1/me/factors/totp').set(bearer(token));
  expect(start.status).toBe(200);
  expect(start.body.qr_svg).toMatch(/^<svg/);
  expect(start.body.otpauth_uri).toContain(`secret=${start.body.secret}`);
  const confirm = await t.http
    .post('/api/v1/me/factors/totp/confirm')
    .set(bearer(token))
    .send({ code: codeAt(start.body.secret, nowMs) });
  expect(confirm.status).toBe(200);
  return { secret: start.body.secret, recovery: confirm.body.recovery_codes };
}

/** Password step of a user with a factor: the intermediate token. */
async function firstStep(email: string): Promise<string> {
  advance(4 * STEP);
  const res = await signIn(email);
  expect(res.status).toBe(202);
  expect(res.body.step).toBe('second_factor');
  return res.body.token;
}

describe('TOTP enrolment and the two-step sign-in', () => {
  let secret: string;
  let recovery: string[];
  const email = 'medico@clinicafactores.test';

  beforeAll(async () => {
    ({ secret, recovery } = await enrolTotp(org.tokens.medico));
  });

  it('answers ten recovery codes and never shows the key again', async () => {
    expect(recovery).toHaveLength(10);
    for (const c of recovery) expect(c).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    expect(new Set(recovery).size).toBe(10);
    const f = await t.http.get('/api/v1/me/factors').set(bearer(org.tokens.medico));
    expect(f.status).toBe(200);
    expect(f.body).toMatchObject({ totp: { enabled: true }, recovery_codes_left: 10, passkeys: [], required: false });
    expect(JSON.stringify(f.body)).not.toContain(secret);
    const stored = await select<{ secret_enc: string }>(t.sequelize, 'SELECT secret_enc FROM user_totps WHERE user_id = :id', {
      id: org.users.medico.id,
    });
    expect(stored[0].secret_enc).not.toContain(secret);
    const again = await t.http.post('/api/v1/me/factors/totp').set(bearer(org.tokens.medico));
    expect(again.status).toBe(409);
  });

  it('asks for the second step after the password, then signs in with the current code', async () => {
    advance(4 * STEP);
    const first = await signIn(email);
    expect(first.status).toBe(202);
    expect(first.body).toMatchObject({ step: 'second_factor', methods: ['totp', 'recovery_code'] });
    expect(first.body).not.toHaveProperty('user_id');
    const res = await t.http.post('/api/v1/sessions/second-factor').send({ token: first.body.token, code: codeAt(secret, nowMs) });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ user_id: org.users.medico.id, role_name: 'medico' });
    expect((await t.http.get('/api/v1/me').set(bearer(res.body.token))).status).toBe(200);
  });

  it('refuses the intermediate token on every other route', async () => {
    const token = await firstStep(email);
    for (const [method, url] of [
      ['get', '/api/v1/me'],
      ['get', '/api/v1/patients'],
      ['get', '/api/v1/me/factors'],
      ['get', '/api/v1/sessions/mine'],
    ] as const) {
      const res = await t.http[method](url).set(bearer(token));
      expect(res.status, url).toBe(401);
      expect(res.body).toEqual({ code: 'second_factor_pending', message: 'Complete el segundo paso del inicio de sesión.' });
    }
    // …and it is not an enrolment token either.
    const enrol = await t.http.post('/api/v1/sessions/enrolment/totp').send({ token });
    expect(enrol.status).toBe(401);
    expect(enrol.body.code).toBe('sign_in_token_invalid');
  });

  it('accepts one step of drift either way and refuses two', async () => {
    for (const [drift, status] of [
      [-1, 201],
      [1, 201],
      [-2, 401],
      [2, 401],
    ] as const) {
      const token = await firstStep(email);
      const res = await t.http.post('/api/v1/sessions/second-factor').send({ token, code: codeAt(secret, nowMs + drift * STEP) });
      expect(res.status, `drift ${drift}`).toBe(status);
      if (status === 401) expect(res.body).toMatchObject({ code: 'second_factor_invalid', message: expect.stringMatching(/no es válido/) });
    }
  });

  it('refuses a code already used in its step', async () => {
    const code = codeAt(secret, nowMs + 4 * STEP);
    const ok = await t.http.post('/api/v1/sessions/second-factor').send({ token: await firstStep(email), code });
    expect(ok.status).toBe(201);
    // Same step (the clock has not moved on): a second sign-in with the same code is a replay.
    const again = await signIn(email);
    const replay = await t.http.post('/api/v1/sessions/second-factor').send({ token: again.body.token, code });
    expect(replay.status).toBe(401);
    expect(replay.body.code).toBe('second_factor_invalid');
  });

  it('answers 400 naming the field for letters, the wrong length or both proofs, and changes nothing', async () => {
    const token = await firstStep(email);
    for (const code of ['12345', '1234567', '12a456', ' 123456']) {
      const res = await t.http.post('/api/v1/sessions/second-factor').send({ token, code });
      expect(res.status, code).toBe(400);
      expect(res.body).toMatchObject({ field: 'code', message: 'El código tiene 6 dígitos.' });
    }
    const both = await t.http.post('/api/v1/sessions/second-factor').send({ token, code: '123456', recovery_code: recovery[0] });
    expect(both.status).toBe(400);
    const neither = await t.http.post('/api/v1/sessions/second-factor').send({ token });
    expect(neither.status).toBe(400);
    const bad = await t.http.post('/api/v1/sessions/second-factor').send({ token, recovery_code: 'abc' });
    expect(bad.body).toMatchObject({ field: 'recovery_code' });
    // The token is still good after all that.
    const ok = await t.http.post('/api/v1/sessions/second-factor').send({ token, code: codeAt(secret, nowMs) });
    expect(ok.status).toBe(201);
  });

  it('refuses a tampered, an expired and a spent intermediate token', async () => {
    const token = await firstStep(email);
    const tampered = token.slice(0, -3) + (token.endsWith('aaa') ? 'bbb' : 'aaa');
    const r1 = await t.http.post('/api/v1/sessions/second-factor').send({ token: tampered, code: codeAt(secret, nowMs) });
    expect(r1.status).toBe(401);
    expect(r1.body).toMatchObject({ code: 'sign_in_token_invalid', message: expect.stringMatching(/venció/) });
    const ok = await t.http.post('/api/v1/sessions/second-factor').send({ token, code: codeAt(secret, nowMs) });
    expect(ok.status).toBe(201);
    advance(4 * STEP);
    const spent = await t.http.post('/api/v1/sessions/second-factor').send({ token, code: codeAt(secret, nowMs) });
    expect(spent.body.code).toBe('sign_in_token_invalid');
    const late = await firstStep(email);
    advance(5 * 60_000 + 1000);
    const expired = await t.http.post('/api/v1/sessions/second-factor').send({ token: late, code: codeAt(secret, nowMs) });
    expect(expired.status).toBe(401);
    expect(expired.body.code).toBe('sign_in_token_invalid');
  });

  it('takes each recovery code once, in any case and with or without its hyphen', async () => {
    const used = await t.http
      .post('/api/v1/sessions/second-factor')
      .send({ token: await firstStep(email), recovery_code: recovery[1].toUpperCase().replace('-', '') });
    expect(used.status).toBe(201);
    const twice = await t.http.post('/api/v1/sessions/second-factor').send({ token: await firstStep(email), recovery_code: recovery[1] });
    expect(twice.status).toBe(401);
    expect(twice.body).toMatchObject({ code: 'second_factor_invalid', message: 'El código de recuperación no es válido o ya se usó.' });
    const f = await t.http.get('/api/v1/me/factors').set(bearer(org.tokens.medico));
    expect(f.body.recovery_codes_left).toBe(9);
  });

  it('writes refused codes and enrolment to the audit trail', async () => {
    await new Promise((r) => setTimeout(r, 250));
    const rows = await select<{ action: string; summary: string }>(
      t.sequelize,
      "SELECT action, summary FROM audit_events WHERE user_id = :id AND resource = 'factor' ORDER BY id",
      { id: org.users.medico.id },
    );
    expect(rows.map((r) => r.action)).toContain('factor_enrolled');
    expect(rows.filter((r) => r.action === 'second_factor_refused').length).toBeGreaterThanOrEqual(3);
    // The codes sent never reach the trail's changes (the sign-in events keep the body, masked).
    const changes = await select<{ changes: string | null }>(t.sequelize, 'SELECT changes FROM audit_events WHERE changes IS NOT NULL');
    const text = changes.map((r) => r.changes).join('\n');
    expect(text).toContain('recovery_code');
    for (const code of recovery.slice(0, 2)) expect(text.toLowerCase()).not.toContain(code.replace('-', ''));
    expect(text).not.toContain(recovery[1]);
  });

  it('renews recovery codes with a current code (the old ones void) and removes the app with a code', async () => {
    advance(4 * STEP);
    const renewed = await t.http
      .post('/api/v1/me/factors/recovery-codes')
      .set(bearer(org.tokens.medico))
      .send({ code: codeAt(secret, nowMs) });
    expect(renewed.status).toBe(200);
    expect(renewed.body.recovery_codes).toHaveLength(10);
    const old = await t.http.post('/api/v1/sessions/second-factor').send({ token: await firstStep(email), recovery_code: recovery[2] });
    expect(old.status).toBe(401);
    const wrong = await t.http.post('/api/v1/me/factors/totp/remove').set(bearer(org.tokens.medico)).send({ code: '000000' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.field).toBe('code');
    const removed = await t.http
      .post('/api/v1/me/factors/totp/remove')
      .set(bearer(org.tokens.medico))
      .send({ recovery_code: renewed.body.recovery_codes[0] });
    expect(removed.status).toBe(200);
    advance(4 * STEP);
    expect((await signIn(email)).status).toBe(201);
  });
});

describe('the organisation policy', () => {
  const email = 'enfermeria@clinicafactores.test';

  it('takes a user of a required role without a factor to enrolment, where nothing else works', async () => {
    const set = await t.http
      .patch(`/api/v1/clients/${org.clientId}`)
      .set(bearer(org.tokens.admin))
      .send({ second_factor_roles: ['enfermeria'] });
    expect(set.status).toBe(200);
    expect(set.body.second_factor_roles).toEqual(['enfermeria']);
    advance(4 * STEP);
    const first = await signIn(email);
    expect(first.status).toBe(202);
    expect(first.body).toMatchObject({ step: 'enrolment', methods: ['totp', 'passkey'] });
    const token = first.body.token;
    expect((await t.http.get('/api/v1/me').set(bearer(token))).status).toBe(401);
    const code = await t.http.post('/api/v1/sessions/second-factor').send({ token, code: '123456' });
    expect(code.body.code).toBe('sign_in_token_invalid');

    const key = await t.http.post('/api/v1/sessions/enrolment/totp').send({ token });
    expect(key.status).toBe(200);
    const wrong = await t.http
      .post('/api/v1/sessions/enrolment/totp/confirm')
      .send({ token, code: codeAt(key.body.secret, nowMs + 3 * STEP) });
    expect(wrong.status).toBe(401);
    const done = await t.http.post('/api/v1/sessions/enrolment/totp/confirm').send({ token, code: codeAt(key.body.secret, nowMs) });
    expect(done.status).toBe(201);
    expect(done.body).toMatchObject({ role_name: 'enfermeria', recovery_codes: expect.any(Array) });
    expect(done.body.recovery_codes).toHaveLength(10);

    const f = await t.http.get('/api/v1/me/factors').set(bearer(done.body.token));
    expect(f.body).toMatchObject({ required: true, totp: { enabled: true } });
    // The only factor of a required role cannot be removed.
    advance(4 * STEP);
    const remove = await t.http
      .post('/api/v1/me/factors/totp/remove')
      .set(bearer(done.body.token))
      .send({ code: codeAt(key.body.secret, nowMs) });
    expect(remove.status).toBe(409);
    // Other roles still sign in with the password alone.
    expect((await signIn('consulta@clinicafactores.test')).status).toBe(201);
  });

  it('lets an administrator reset another user, never themself, and ends that user’s sessions', async () => {
    advance(4 * STEP);
    const self = await t.http.delete(`/api/v1/users/${org.users.admin.id}/factors`).set(bearer(org.tokens.admin));
    expect(self.status).toBe(400);
    const notAdmin = await t.http.delete(`/api/v1/users/${org.users.enfermeria.id}/factors`).set(bearer(org.tokens.consulta));
    expect(notAdmin.status).toBe(403);
    const reset = await t.http.delete(`/api/v1/users/${org.users.enfermeria.id}/factors`).set(bearer(org.tokens.admin));
    expect(reset.status).toBe(200);
    expect(reset.body.ended).toBeGreaterThanOrEqual(1);
    // Enrolment again at the next sign-in.
    const next = await signIn(email);
    expect(next.body.step).toBe('enrolment');
    await new Promise((r) => setTimeout(r, 250));
    const [event] = await select<{ user_id: number; resource_id: string }>(
      t.sequelize,
      "SELECT user_id, resource_id FROM audit_events WHERE action = 'factors_reset' ORDER BY id DESC",
    );
    expect(event).toMatchObject({ user_id: org.users.admin.id, resource_id: String(org.users.enfermeria.id) });
  });

  it('refuses an unknown role in the policy', async () => {
    const res = await t.http
      .patch(`/api/v1/clients/${org.clientId}`)
      .set(bearer(org.tokens.admin))
      .send({ second_factor_roles: ['jefe'] });
    expect(res.status).toBe(400);
    expect(res.body.field).toMatch(/second_factor_roles/);
  });
});

describe('passkey routes (refusals; the ceremonies are the browser test)', () => {
  it('refuses passkeys at an IP address, saying the address is the cause (issue 49)', async () => {
    // supertest reaches the app as http://127.0.0.1:<port>; no browser takes an IP address as relying party.
    const message =
      'Las llaves de acceso necesitan que Vigía se abra con un nombre de dominio, no con una dirección IP (127.0.0.1). Pida al administrador la dirección correcta.';
    const mine = await t.http.post('/api/v1/me/factors/passkeys/options').set(bearer(org.tokens.consulta)).send();
    expect(mine.status).toBe(400);
    expect(mine.body).toMatchObject({ code: 'passkey_needs_domain', message });
    // enfermeria is at enrolment (reset above): the enrolment's passkey options say the same.
    const step = await signIn('enfermeria@clinicafactores.test');
    expect(step.body.step).toBe('enrolment');
    const enrolment = await t.http.post('/api/v1/sessions/enrolment/passkey-options').send({ token: step.body.token });
    expect(enrolment.status).toBe(400);
    expect(enrolment.body).toMatchObject({ code: 'passkey_needs_domain', message });
  });

  it('answers registration options for this host and refuses a made-up or replayed answer', async () => {
    const opts = await t.http.post('/api/v1/me/factors/passkeys/options').set('Host', 'vigia.test').set(bearer(org.tokens.consulta)).send();
    expect(opts.status).toBe(200);
    expect(opts.body).toMatchObject({ challenge: expect.any(String), rp: { name: 'Vigía', id: 'vigia.test' } });
    const clientDataJSON = Buffer.from(
      JSON.stringify({ type: 'webauthn.create', challenge: opts.body.challenge, origin: 'https://evil.example' }),
    ).toString('base64url');
    const fake = { id: 'AAAA', rawId: 'AAAA', type: 'public-key', response: { clientDataJSON, attestationObject: 'AAAA' } };
    const res = await t.http
      .post('/api/v1/me/factors/passkeys')
      .set('Host', 'vigia.test')
      .set(bearer(org.tokens.consulta))
      .send({ name: 'Portátil', response: fake });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('passkey_invalid');
    // The challenge was spent by the refused answer.
    const again = await t.http
      .post('/api/v1/me/factors/passkeys')
      .set('Host', 'vigia.test')
      .set(bearer(org.tokens.consulta))
      .send({ name: 'Portátil', response: fake });
    expect(again.status).toBe(400);
    const noName = await t.http
      .post('/api/v1/me/factors/passkeys')
      .set('Host', 'vigia.test')
      .set(bearer(org.tokens.consulta))
      .send({ name: '', response: fake });
    expect(noName.status).toBe(400);
    expect(noName.body.field).toBe('name');
    const f = await t.http.get('/api/v1/me/factors').set(bearer(org.tokens.consulta));
    expect(f.body.passkeys).toEqual([]);
  });

  it('refuses an enrolment token and a made-up token on the passkey sign-in routes', async () => {
    advance(4 * STEP);
    // enfermeria is at enrolment again (reset above): the second-factor passkey route refuses that token.
    const first = await signIn('enfermeria@clinicafactores.test');
    expect(first.body.step).toBe('enrolment');
    const res = await t.http.post('/api/v1/sessions/passkey-options').send({ token: first.body.token });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('sign_in_token_invalid');
    const missing = await t.http
      .post('/api/v1/sessions/passkey')
      .send({ token: 'x'.repeat(40), response: { id: 'a', rawId: 'a', type: 'public-key', response: {} } });
    expect(missing.status).toBe(401);
    expect(missing.body.code).toBe('sign_in_token_invalid');
  });
});

/**
 * A software authenticator (attestation 'none', ES256 on P-256) built with node:crypto, so the
 * passkey ceremonies run through the API here too; the browser test drives Chromium's own.
 */
function cbor(value: unknown): Buffer {
  const head = (major: number, n: number) =>
    n < 24
      ? Buffer.from([(major << 5) | n])
      : n < 256
        ? Buffer.from([(major << 5) | 24, n])
        : Buffer.from([(major << 5) | 25, n >> 8, n & 255]);
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string') return Buffer.concat([head(3, Buffer.byteLength(value)), Buffer.from(value)]);
  if (Buffer.isBuffer(value)) return Buffer.concat([head(2, value.length), value]);
  if (value instanceof Map) return Buffer.concat([head(5, value.size), ...[...value].flatMap(([k, v]) => [cbor(k), cbor(v)])]);
  throw new Error('cbor: unsupported value');
}

function softAuthenticator(rpId: string, origin: string) {
  const { privateKey, publicKey } = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = publicKey.export({ format: 'jwk' });
  const credentialId = crypto.randomBytes(16);
  const id = credentialId.toString('base64url');
  const rpIdHash = crypto.createHash('sha256').update(rpId).digest();
  let counter = 0;
  const count = () => Buffer.from([0, 0, 0, ++counter]);
  const clientData = (type: string, challenge: string, from = origin) =>
    Buffer.from(JSON.stringify({ type, challenge, origin: from, crossOrigin: false }));
  return {
    id,
    register(challenge: string, from?: string) {
      const cose = new Map<number, unknown>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, Buffer.from(jwk.x!, 'base64url')],
        [-3, Buffer.from(jwk.y!, 'base64url')],
      ]);
      const idLength = Buffer.from([0, credentialId.length]);
      const authData = Buffer.concat([rpIdHash, Buffer.from([0x45]), count(), Buffer.alloc(16), idLength, credentialId, cbor(cose)]);
      const attestationObject = cbor(
        new Map<string, unknown>([
          ['fmt', 'none'],
          ['attStmt', new Map()],
          ['authData', authData],
        ]),
      );
      return {
        id,
        rawId: id,
        type: 'public-key',
        response: {
          clientDataJSON: clientData('webauthn.create', challenge, from).toString('base64url'),
          attestationObject: attestationObject.toString('base64url'),
          transports: ['internal'],
        },
        clientExtensionResults: {},
      };
    },
    assert(challenge: string, from?: string) {
      const authenticatorData = Buffer.concat([rpIdHash, Buffer.from([0x05]), count()]);
      const cd = clientData('webauthn.get', challenge, from);
      const signature = crypto.sign(
        'sha256',
        Buffer.concat([authenticatorData, crypto.createHash('sha256').update(cd).digest()]),
        privateKey,
      );
      return {
        id,
        rawId: id,
        type: 'public-key',
        response: {
          clientDataJSON: cd.toString('base64url'),
          authenticatorData: authenticatorData.toString('base64url'),
          signature: signature.toString('base64url'),
        },
        clientExtensionResults: {},
      };
    },
  };
}

describe('passkeys with a software authenticator', () => {
  // The relying party is the request's origin when PUBLIC_URL is unset (tests, development).
  const HOST = 'vigia.test';
  const ORIGIN = `http://${HOST}`;
  const email = 'admin@clinicafactores.test';
  const key = softAuthenticator(HOST, ORIGIN);
  const post = (url: string, body: object, token?: string) => {
    const r = t.http.post(url).set('Host', HOST);
    return (token ? r.set(bearer(token)) : r).send(body);
  };

  it('registers a passkey, with ten recovery codes as the first factor', async () => {
    const opts = await post('/api/v1/me/factors/passkeys/options', {}, org.tokens.admin);
    expect(opts.status).toBe(200);
    expect(opts.body.rp).toEqual({ name: 'Vigía', id: HOST });
    // Another origin's answer is refused and spends the challenge.
    const wrongOrigin = await post(
      '/api/v1/me/factors/passkeys',
      { name: 'Llave', response: key.register(opts.body.challenge, 'https://evil.example') },
      org.tokens.admin,
    );
    expect(wrongOrigin.status).toBe(400);
    expect(wrongOrigin.body.code).toBe('passkey_invalid');
    const stale = await post(
      '/api/v1/me/factors/passkeys',
      { name: 'Llave', response: key.register(opts.body.challenge) },
      org.tokens.admin,
    );
    expect(stale.status).toBe(400);
    const fresh = await post('/api/v1/me/factors/passkeys/options', {}, org.tokens.admin);
    const added = await post(
      '/api/v1/me/factors/passkeys',
      { name: 'Portátil', response: key.register(fresh.body.challenge) },
      org.tokens.admin,
    );
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ passkey: { name: 'Portátil', last_used_at: null }, recovery_codes: expect.any(Array) });
    expect(added.body.recovery_codes).toHaveLength(10);
    const renamed = await t.http
      .patch(`/api/v1/me/factors/passkeys/${added.body.passkey.id}`)
      .set(bearer(org.tokens.admin))
      .send({ name: 'Llave de la oficina' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.name).toBe('Llave de la oficina');
  });

  it('signs in with the passkey as the second step, and refuses another origin and a spent challenge', async () => {
    advance(4 * STEP);
    const first = await signIn(email);
    expect(first.status).toBe(202);
    expect(first.body.methods).toEqual(['recovery_code', 'passkey']);
    const token = first.body.token;
    const opts = await post('/api/v1/sessions/passkey-options', { token });
    expect(opts.status).toBe(200);
    expect(opts.body.allowCredentials).toEqual([expect.objectContaining({ id: key.id })]);
    const evil = await post('/api/v1/sessions/passkey', { token, response: key.assert(opts.body.challenge, 'https://evil.example') });
    expect(evil.status).toBe(401);
    expect(evil.body.code).toBe('passkey_invalid');
    // The refused answer spent that challenge: the right answer to it is refused too.
    const spent = await post('/api/v1/sessions/passkey', { token, response: key.assert(opts.body.challenge) });
    expect(spent.status).toBe(401);
    const again = await post('/api/v1/sessions/passkey-options', { token });
    const ok = await post('/api/v1/sessions/passkey', { token, response: key.assert(again.body.challenge) });
    expect(ok.status).toBe(201);
    expect(ok.body).toMatchObject({ user_id: org.users.admin.id });
    const f = await t.http.get('/api/v1/me/factors').set(bearer(ok.body.token));
    expect(f.body.passkeys[0].last_used_at).not.toBeNull();
  });

  it('deletes the passkey; without a factor the password alone signs in again', async () => {
    const f = await t.http.get('/api/v1/me/factors').set(bearer(org.tokens.admin));
    const del = await t.http.delete(`/api/v1/me/factors/passkeys/${f.body.passkeys[0].id}`).set(bearer(org.tokens.admin));
    expect(del.status).toBe(200);
    const after = await t.http.get('/api/v1/me/factors').set(bearer(org.tokens.admin));
    expect(after.body).toMatchObject({ passkeys: [], recovery_codes_left: 0 });
    advance(4 * STEP);
    expect((await signIn(email)).status).toBe(201);
  });
});

describe('passkeys in production', () => {
  it('in production without PUBLIC_URL, says the setting is missing instead of failing (issue 49)', async () => {
    const prod = await startTestProduct({ env: 'production' });
    try {
      const o = await createOrg(prod, 'Clínica Sin Dirección');
      const res = await prod.http
        .post('/api/v1/me/factors/passkeys/options')
        .set('Host', 'vigia.test')
        .set(bearer(o.tokens.consulta))
        .send();
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ code: 'passkeys_unconfigured', message: expect.stringContaining('PUBLIC_URL') });
    } finally {
      await prod.stop();
    }
  });
});
