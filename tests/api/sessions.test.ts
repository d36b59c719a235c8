import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { startTestProduct, createOrg, bearer, PASSWORD, type TestProduct, type Org } from '../support/product';
import { execute, select } from '../../api/src/db/sql';

let t: TestProduct;
let org: Org;
beforeAll(async () => {
  t = await startTestProduct();
  org = await createOrg(t, 'Clinica Sesiones');
});
afterAll(() => t.stop());

describe('POST /api/v1/sessions', () => {
  it('signs a staff user in with the fields the front end stores', async () => {
    const res = await t.http.post('/api/v1/sessions').send({ email: 'MEDICO@clinicasesiones.test', password: PASSWORD });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      user_id: org.users.medico.id,
      client_id: org.clientId,
      client_name: 'Clinica Sesiones',
      country_id: 26,
      country_id_name: 'Colombia',
      prefix: '+57',
      client_with_multipatient_glady: false,
      role_name: 'medico',
      first_name: 'USUARIO',
    });
    expect(res.body.token).toEqual(expect.any(String));
    expect(res.body.message).toMatch(/Bienvenido/);
    expect(res.body).not.toHaveProperty('password_hash');
  });

  it('answers a wrong password, an unknown e-mail and a disabled account alike, in Spanish', async () => {
    const wrong = await t.http.post('/api/v1/sessions').send({ email: 'admin@clinicasesiones.test', password: 'Incorrecta@1' });
    const unknown = await t.http.post('/api/v1/sessions').send({ email: 'nadie@clinicasesiones.test', password: 'Incorrecta@1' });
    await org.users.consulta.update({ status: 1 });
    try {
      // The right password of a disabled account: the answer must not say it was right.
      const disabled = await t.http.post('/api/v1/sessions').send({ email: 'consulta@clinicasesiones.test', password: PASSWORD });
      for (const res of [wrong, unknown, disabled]) {
        expect(res.status).toBe(401);
        expect(res.body).toEqual({ code: 'invalid_credentials', message: 'Correo o contraseña incorrectos' });
      }
    } finally {
      await org.users.consulta.update({ status: 0 });
    }
  });

  it('answers 400 naming the field when the e-mail is malformed', async () => {
    const res = await t.http.post('/api/v1/sessions').send({ email: 'no-es-correo', password: PASSWORD });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'validation_error', field: 'email', message: '¡El formato de correo no es válido!' });
  });

  it('answers 400 for a short password and for a missing one', async () => {
    const short = await t.http.post('/api/v1/sessions').send({ email: 'admin@clinicasesiones.test', password: '1234' });
    expect(short.status).toBe(400);
    expect(short.body).toMatchObject({ field: 'password', message: 'Mínimo 8 caracteres' });
    const missing = await t.http.post('/api/v1/sessions').send({ email: 'admin@clinicasesiones.test' });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ field: 'password', message: '¡El campo es requerido!' });
  });

  it('answers 400 for malformed JSON, never 500', async () => {
    const res = await t.http.post('/api/v1/sessions').set('content-type', 'application/json').send('{"email": ');
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('El cuerpo de la petición no es un JSON válido.');
  });
});

describe('GET /api/v1/me and DELETE /api/v1/sessions', () => {
  it('returns the profile, then refuses the same token after logout', async () => {
    const login = await t.http.post('/api/v1/sessions').send({ email: 'enfermeria@clinicasesiones.test', password: PASSWORD });
    const token = login.body.token;
    const me = await t.http.get('/api/v1/me').set(bearer(token));
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ role_name: 'enfermeria', client_id: org.clientId });
    expect((await t.http.delete('/api/v1/sessions').set(bearer(token))).status).toBe(204);
    const after = await t.http.get('/api/v1/me').set(bearer(token));
    expect(after.status).toBe(401);
    expect(after.body.code).toBe('unauthorized');
  });

  it('refuses a request without a token', async () => {
    expect((await t.http.get('/api/v1/me')).status).toBe(401);
  });
});

// Forged, expired and tampered tokens: tests/security/tokens.test.ts.
describe('disabled users', () => {
  it('refuses the token of a user who was disabled', async () => {
    const login = await t.http.post('/api/v1/sessions').send({ email: 'consulta@clinicasesiones.test', password: PASSWORD });
    await org.users.consulta.update({ status: 1 });
    try {
      expect((await t.http.get('/api/v1/me').set(bearer(login.body.token))).status).toBe(401);
      const again = await t.http.post('/api/v1/sessions').send({ email: 'consulta@clinicasesiones.test', password: PASSWORD });
      expect(again.status).toBe(401);
    } finally {
      await org.users.consulta.update({ status: 0 });
    }
  });
});

/**
 * On SQLite the session and its user are kept between requests (P198); each test reads them once
 * (so they are kept), changes them by another path, and expects the next request to see it.
 */
describe('a session read before a change is not trusted after it', () => {
  const signIn = async (who: string) =>
    (await t.http.post('/api/v1/sessions').send({ email: `${who}@clinicasesiones.test`, password: PASSWORD })).body.token as string;
  const me = (token: string) => t.http.get('/api/v1/me').set(bearer(token));

  it('a role changed through the model', async () => {
    const token = await signIn('consulta');
    expect((await me(token)).body.role_name).toBe('consulta');
    await org.users.consulta.update({ role_name: 'enfermeria' });
    try {
      expect((await me(token)).body.role_name).toBe('enfermeria');
    } finally {
      await org.users.consulta.update({ role_name: 'consulta' });
    }
  });

  it.each([
    ['a raw UPDATE of the session', "UPDATE sessions SET revoked_at = created_at WHERE subject_type = 'staff' AND subject_id = :id"],
    ['a raw UPDATE of the user', 'UPDATE users SET status = 1 WHERE id = :id'],
    ['a raw DELETE of the session', "DELETE FROM sessions WHERE subject_type = 'staff' AND subject_id = :id"],
  ])('%s', async (_what, sql) => {
    const token = await signIn('consulta');
    expect((await me(token)).status).toBe(200);
    await t.sequelize.query(sql, { replacements: { id: org.users.consulta.id } });
    try {
      expect((await me(token)).status).toBe(401);
    } finally {
      await t.sequelize.query('UPDATE users SET status = 0 WHERE id = :id', { replacements: { id: org.users.consulta.id } });
    }
  });

  it('a user disabled inside a transaction, read by another request before its COMMIT', async () => {
    const token = await signIn('consulta');
    expect((await me(token)).status).toBe(200);
    try {
      await t.sequelize.transaction(async (transaction) => {
        await org.users.consulta.update({ status: 1 }, { transaction });
        // Another request reads the row as it was before COMMIT; it must not be kept past it.
        expect((await me(token)).status).toBe(200);
      });
      expect((await me(token)).status).toBe(401);
    } finally {
      await org.users.consulta.update({ status: 0 });
    }
  });
});

describe('contract', () => {
  it('serves openapi.yaml and a reference page', async () => {
    const yaml = await t.http.get('/api/v1/openapi.yaml');
    expect(yaml.status).toBe(200);
    expect(yaml.text).toContain('openapi: 3.1.0');
    const docs = await t.http.get('/api/docs');
    expect(docs.status).toBe(200);
    expect(docs.text).toContain('swagger-ui');
    expect((await t.http.get('/api/docs/assets/swagger-ui-bundle.js')).status).toBe(200);
  });

  it('answers 404 in Spanish for an unknown API route', async () => {
    const res = await t.http.get('/api/v1/nada').set(bearer(org.tokens.admin));
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('La ruta solicitada no existe.');
  });

  it('sends security headers', async () => {
    const res = await t.http.get('/api/v1/health');
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(res.headers['referrer-policy']).toBe('same-origin');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });
});

const CHROME_LINUX = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const FIREFOX_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';

/** A sign-in from a browser and an address ('trust proxy' is loopback, so X-Forwarded-For is the address). */
async function signInFrom(email: string, userAgent: string, address: string): Promise<string> {
  const res = await t.http
    .post('/api/v1/sessions')
    .set('User-Agent', userAgent)
    .set('X-Forwarded-For', address)
    .send({ email, password: PASSWORD });
  expect(res.status).toBe(201);
  return res.body.token;
}
const mine = (token: string) => t.http.get('/api/v1/sessions/mine').set(bearer(token));
async function auditRows(userId: number, action: string) {
  for (let i = 0; i < 50; i++) {
    const rows = await select<{ summary: string; resource_id: string | null; ip: string | null }>(
      t.sequelize,
      'SELECT summary, resource_id, ip FROM audit_events WHERE user_id = :userId AND action = :action ORDER BY id',
      { userId, action },
    );
    if (rows.length) return rows;
    await new Promise((r) => setTimeout(r, 20));
  }
  return [];
}

describe("'Sesiones activas': GET /api/v1/sessions/mine and ending sessions", () => {
  it('lists each open session with its start, last use, browser and address, the current one first', async () => {
    await execute(t.sequelize, "UPDATE sessions SET revoked_at = created_at WHERE subject_type = 'staff' AND subject_id = :id", {
      id: org.users.medico.id,
    });
    const desk = await signInFrom('medico@clinicasesiones.test', CHROME_LINUX, '203.0.113.10');
    const home = await signInFrom('medico@clinicasesiones.test', FIREFOX_WINDOWS, '198.51.100.20');
    const res = await mine(desk);
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      {
        id: expect.any(String),
        current: true,
        created_at: expect.any(String),
        last_used_at: expect.any(String),
        browser: 'Chrome en Linux',
        ip: '203.0.113.10',
      },
      {
        id: expect.any(String),
        current: false,
        created_at: expect.any(String),
        last_used_at: expect.any(String),
        browser: 'Firefox en Windows',
        ip: '198.51.100.20',
      },
    ]);
    // Nobody else's sessions: the other session sees the same two, itself first.
    expect((await mine(home)).body.map((s: { browser: string }) => s.browser)).toEqual(['Firefox en Windows', 'Chrome en Linux']);
  });

  it('ends another session of the user: its token is refused at once, saying why, and both are audited', async () => {
    const desk = await signInFrom('enfermeria@clinicasesiones.test', CHROME_LINUX, '203.0.113.11');
    const phone = await signInFrom('enfermeria@clinicasesiones.test', FIREFOX_WINDOWS, '203.0.113.12');
    const phoneId = (await mine(phone)).body[0].id as string;
    const ended = await t.http.delete(`/api/v1/sessions/${phoneId}`).set(bearer(desk));
    expect(ended.status).toBe(200);
    expect(ended.body).toEqual({ ended: 1, message: 'Se cerró 1 sesión.' });
    const refused = await t.http.get('/api/v1/me').set(bearer(phone)).set('X-Forwarded-For', '192.0.2.99');
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({
      code: 'session_ended',
      message: 'Su sesión fue cerrada desde otra sesión de su cuenta. Inicie sesión de nuevo.',
    });
    expect((await mine(desk)).body.map((s: { id: string }) => s.id)).not.toContain(phoneId);
    // Ending it again, or someone else's session, is a 404.
    expect((await t.http.delete(`/api/v1/sessions/${phoneId}`).set(bearer(desk))).status).toBe(404);
    const adminSession = (await mine(org.tokens.admin)).body[0].id as string;
    const foreign = await t.http.delete(`/api/v1/sessions/${adminSession}`).set(bearer(desk));
    expect(foreign.status).toBe(404);
    expect((await t.http.get('/api/v1/me').set(bearer(org.tokens.admin))).status).toBe(200);
    const userId = org.users.enfermeria.id;
    expect(await auditRows(userId, 'session_ended')).toEqual([
      expect.objectContaining({ summary: 'Cerró una de sus sesiones', resource_id: phoneId }),
    ]);
    expect(await auditRows(userId, 'token_refused')).toEqual([
      expect.objectContaining({
        summary: 'Se rechazó el token de una sesión que el usuario cerró',
        resource_id: phoneId,
        ip: '192.0.2.99',
      }),
    ]);
  });

  it('ends every other session, keeping the current one', async () => {
    const a = await signInFrom('medico@clinicasesiones.test', CHROME_LINUX, '203.0.113.21');
    const b = await signInFrom('medico@clinicasesiones.test', CHROME_LINUX, '203.0.113.22');
    const c = await signInFrom('medico@clinicasesiones.test', CHROME_LINUX, '203.0.113.23');
    const res = await t.http.delete('/api/v1/sessions/mine').set(bearer(a));
    expect(res.status).toBe(200);
    expect(res.body.ended).toBeGreaterThanOrEqual(2);
    for (const token of [b, c]) expect((await t.http.get('/api/v1/me').set(bearer(token))).body.code).toBe('session_ended');
    expect((await mine(a)).body).toHaveLength(1);
  });

  it('an administrator ends all sessions of a user from Usuarios; other roles may not; other clients are 404', async () => {
    const user = org.users.consulta;
    const one = await signInFrom('consulta@clinicasesiones.test', CHROME_LINUX, '203.0.113.31');
    const two = await signInFrom('consulta@clinicasesiones.test', FIREFOX_WINDOWS, '203.0.113.32');
    const medico = await signInFrom('medico@clinicasesiones.test', CHROME_LINUX, '203.0.113.33');
    const forbidden = await t.http.delete(`/api/v1/users/${user.id}/sessions`).set(bearer(medico));
    expect(forbidden.status).toBe(403);
    expect((await t.http.get('/api/v1/me').set(bearer(one))).status).toBe(200);
    const res = await t.http.delete(`/api/v1/users/${user.id}/sessions`).set(bearer(org.tokens.admin));
    expect(res.status).toBe(200);
    expect(res.body.ended).toBeGreaterThanOrEqual(2);
    for (const token of [one, two]) {
      const me = await t.http.get('/api/v1/me').set(bearer(token));
      expect(me.body).toEqual({
        code: 'session_ended',
        message: 'Su sesión fue cerrada por un administrador de su institución. Inicie sesión de nuevo.',
      });
    }
    // The administrator's own session stays, even when ending their own user's.
    const self = await t.http.delete(`/api/v1/users/${org.users.admin.id}/sessions`).set(bearer(org.tokens.admin));
    expect(self.status).toBe(200);
    expect((await t.http.get('/api/v1/me').set(bearer(org.tokens.admin))).status).toBe(200);
    const other = await createOrg(t, 'Clinica Otra Sesion');
    expect((await t.http.delete(`/api/v1/users/${other.users.medico.id}/sessions`).set(bearer(org.tokens.admin))).status).toBe(404);
    expect((await t.http.get('/api/v1/me').set(bearer(other.tokens.medico))).status).toBe(200);
    const events = await select<{ user_id: number; resource: string; resource_id: string; summary: string }>(
      t.sequelize,
      "SELECT user_id, resource, resource_id, summary FROM audit_events WHERE action = 'session_ended' AND resource = 'user' ORDER BY id",
    );
    expect(events[0]).toEqual({
      user_id: org.users.admin.id,
      resource: 'user',
      resource_id: String(user.id),
      summary: 'Cerró todas las sesiones del usuario',
    });
  });

  it("answers 404 in Spanish for a session id that is not one, and for another client's session", async () => {
    const res = await t.http.delete('/api/v1/sessions/no-es-una-sesion').set(bearer(org.tokens.admin));
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('La sesión no existe o ya fue cerrada.');
    const other = await createOrg(t, 'Clinica Ajena Sesion');
    const foreignId = (await mine(other.tokens.admin)).body[0].id as string;
    const foreign = await t.http.delete(`/api/v1/sessions/${foreignId}`).set(bearer(org.tokens.admin));
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual(res.body);
    expect((await t.http.get('/api/v1/me').set(bearer(other.tokens.admin))).status).toBe(200);
  });

  it('keeps a logout, an expired and a disabled-user token on the plain 401', async () => {
    const token = await signInFrom('medico@clinicasesiones.test', CHROME_LINUX, '203.0.113.41');
    await t.http.delete('/api/v1/sessions').set(bearer(token));
    expect((await t.http.get('/api/v1/me').set(bearer(token))).body.code).toBe('unauthorized');
  });

  it('writes the last use only when the stored one is 5 minutes old', async () => {
    const token = await signInFrom('medico@clinicasesiones.test', CHROME_LINUX, '203.0.113.51');
    const [{ id }] = (await mine(token)).body as Array<{ id: string }>;
    const lastUsed = async () =>
      new Date(
        (await select<{ last_used_at: string }>(t.sequelize, 'SELECT last_used_at FROM sessions WHERE id = :id', { id }))[0].last_used_at,
      ).getTime();
    const signedInAt = await lastUsed();
    await mine(token);
    await new Promise((r) => setTimeout(r, 100));
    expect(await lastUsed()).toBe(signedInAt);
    const old = new Date(Date.now() - 6 * 60_000);
    await execute(t.sequelize, 'UPDATE sessions SET last_used_at = :old WHERE id = :id', { old, id });
    await mine(token);
    for (let i = 0; i < 50 && (await lastUsed()) === old.getTime(); i++) await new Promise((r) => setTimeout(r, 20));
    expect(await lastUsed()).toBeGreaterThan(Date.now() - 60_000);
  });
});

describe('sign-in throttling', () => {
  let clock = new Date('2026-04-06T14:00:00Z');
  let c: TestProduct;
  beforeAll(async () => {
    c = await startTestProduct({ now: () => clock });
    await createOrg(c, 'Clinica Freno');
  });
  afterAll(() => c.stop());
  const attempt = (email: string, password: string, address: string) =>
    c.http.post('/api/v1/sessions').set('X-Forwarded-For', address).send({ email, password });

  it('slows repeated failures exponentially, with the same answers for a known and an unknown e-mail', async () => {
    for (const email of ['medico@clinicafreno.test', 'nadie@clinicafreno.test']) {
      const address = email.startsWith('medico') ? '203.0.113.61' : '203.0.113.62';
      for (let i = 0; i < 3; i++) expect((await attempt(email, 'Incorrecta@1', address)).status).toBe(401);
      const slowed = await attempt(email, PASSWORD, address);
      expect(slowed.status).toBe(429);
      expect(slowed.headers['retry-after']).toBe('1');
      expect(slowed.body).toEqual({
        code: 'too_many_requests',
        message: 'Demasiados intentos fallidos de inicio de sesión. Espere 1 segundo e intente de nuevo.',
      });
      clock = new Date(clock.getTime() + 1000);
      expect((await attempt(email, 'Incorrecta@1', address)).status).toBe(401);
      expect((await attempt(email, 'Incorrecta@1', address)).headers['retry-after']).toBe('2');
    }
  });

  it('does not keep the owner out for good: at most the cap, and never from their usual address', async () => {
    const email = 'enfermeria@clinicafreno.test';
    expect((await attempt(email, PASSWORD, '10.20.0.1')).status).toBe(201);
    // An attacker fails from 40 addresses, again and again.
    for (let i = 0; i < 40; i++) await attempt(email, 'Incorrecta@1', `198.18.0.${i}`);
    const elsewhere = await attempt(email, PASSWORD, '198.19.0.1');
    expect(elsewhere.status).toBe(429);
    expect(Number(elsewhere.headers['retry-after'])).toBeLessThanOrEqual(5 * 60);
    expect((await attempt(email, PASSWORD, '10.20.0.1')).status).toBe(201);
    clock = new Date(clock.getTime() + 5 * 60_000);
    expect((await attempt(email, PASSWORD, '198.19.0.1')).status).toBe(201);
  });
});
