import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { startTestProduct, createOrg, bearer, PASSWORD, type TestProduct, type Org } from '../support/product';

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

  it('refuses a wrong password with a Spanish message and no hint about the e-mail', async () => {
    const wrong = await t.http.post('/api/v1/sessions').send({ email: 'admin@clinicasesiones.test', password: 'Incorrecta@1' });
    const unknown = await t.http.post('/api/v1/sessions').send({ email: 'nadie@clinicasesiones.test', password: 'Incorrecta@1' });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body.message).toBe('Correo o contraseña incorrectos');
    expect(unknown.body.message).toBe(wrong.body.message);
  });

  it('answers 400 naming the field when the e-mail is malformed', async () => {
    const res = await t.http.post('/api/v1/sessions').send({ email: 'no-es-correo', password: PASSWORD });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'validation_error', field: 'email', message: '¡El formato de correo no es válido!' });
  });

  it('answers 400 for a short password and for a missing one', async () => {
    const short = await t.http.post('/api/v1/sessions').send({ email: 'admin@clinicasesiones.test', password: '1234' });
    expect(short.status).toBe(400);
    expect(short.body).toMatchObject({ field: 'password', message: 'Mínimo 8 carácteres' });
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
