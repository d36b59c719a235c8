import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { startTestProduct, createOrg, bearer, BOGOTA, type TestProduct, type Org } from '../support/product';
import { MESSAGES } from '@vigia/contract/rules/validation';

let t: TestProduct;
let org: Org;
let other: Org;
beforeAll(async () => {
  t = await startTestProduct();
  org = await createOrg(t, 'Clinica Usuarios');
  other = await createOrg(t, 'Clinica Vecina');
});
afterAll(() => t.stop());

const MEDELLIN = 2605001;
let n = 0;
function userBody(overrides: Record<string, unknown> = {}) {
  n += 1;
  return {
    first_name: 'carlos andrés',
    last_name: 'gómez ruiz',
    email: `Carlos.Gomez${n}@Clinica.co`,
    password: 'Segura@2026',
    password_confirmation: 'Segura@2026',
    cellphone: '3001112233',
    prefix: '+57',
    country_id: 26,
    city_id: BOGOTA,
    role_name: 'enfermeria',
    ...overrides,
  };
}

describe('POST /api/v1/users', () => {
  it('creates a user who can then sign in; names upper-cased, e-mail lower-cased, no hash in the answer', async () => {
    const body = userBody();
    const res = await t.http
      .post('/api/v1/users')
      .set(bearer(org.tokens.admin))
      .send({ user: { ...body, password_confirmation: undefined }, password_confirmation: body.password });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({
      first_name: 'CARLOS ANDRÉS',
      last_name: 'GÓMEZ RUIZ',
      email: body.email.toLowerCase(),
      status: 0,
      status_name: 'Activo',
      role_name: 'enfermeria',
      role_label: 'Enfermería',
      city_name: 'Bogotá, D.C.',
      country_name: 'Colombia',
      time_zone: 'America/Bogota',
      media_email: true,
      media_whatsapp: false,
      priority_high: true,
      priority_medium: true,
      priority_low: false,
    });
    expect(JSON.stringify(res.body)).not.toMatch(/password|hash/);
    const login = await t.http.post('/api/v1/sessions').send({ email: body.email, password: body.password });
    expect(login.status).toBe(201);
    expect(login.body.role_name).toBe('enfermeria');
  });

  it.each([
    ['password', { password: 'Corta@1', password_confirmation: 'Corta@1' }, MESSAGES.passwordMin],
    ['password', { password: 'sinmayuscula@2026', password_confirmation: 'sinmayuscula@2026' }, MESSAGES.password],
    ['password', { password: 'SinEspecial2026', password_confirmation: 'SinEspecial2026' }, MESSAGES.password],
    ['password', { password: 'Otro#Caracter2026', password_confirmation: 'Otro#Caracter2026' }, MESSAGES.password],
    ['password_confirmation', { password_confirmation: 'Segura@2027' }, 'las contraseñas no coinciden'],
    ['password_confirmation', { password_confirmation: undefined }, MESSAGES.required],
    ['first_name', { first_name: 'Jo' }, 'Solo letras y espacios, entre 3 y 50 caracteres'],
    ['last_name', { last_name: undefined }, MESSAGES.required],
    ['email', { email: 'no-es-correo' }, MESSAGES.email],
    ['cellphone', { cellphone: '12ab' }, MESSAGES.phoneRequired],
    ['prefix', { prefix: undefined }, MESSAGES.required],
    ['city_id', { city_id: undefined }, MESSAGES.required],
    ['city_id', { country_id: 8 }, 'La ciudad no pertenece al país seleccionado.'],
    ['country_id', { country_id: 9999 }, 'El país no existe.'],
    ['role_name', { role_name: 'root' }, 'Valor no permitido. Opciones: Administrador, Médico, Enfermería, Consulta.'],
  ])('refuses a bad %s with 400 and its message (%j)', async (field, overrides, message) => {
    const before = (await t.http.get('/api/v1/users').set(bearer(org.tokens.admin))).headers['x-total-count'];
    const res = await t.http.post('/api/v1/users').set(bearer(org.tokens.admin)).send(userBody(overrides));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ field, message });
    expect((await t.http.get('/api/v1/users').set(bearer(org.tokens.admin))).headers['x-total-count']).toBe(before);
  });

  it('refuses an e-mail already used, in any client, with 409', async () => {
    const res = await t.http
      .post('/api/v1/users')
      .set(bearer(org.tokens.admin))
      .send(userBody({ email: other.users.medico.email.toUpperCase() }));
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ field: 'email', message: 'Ya existe un usuario con ese correo electrónico.' });
  });

  it.each(['medico', 'enfermeria', 'consulta'] as const)('refuses writes by %s with 403', async (role) => {
    expect((await t.http.post('/api/v1/users').set(bearer(org.tokens[role])).send(userBody())).status).toBe(403);
    const res = await t.http.patch(`/api/v1/users/${org.users.consulta.id}`).set(bearer(org.tokens[role])).send({ role_name: 'admin' });
    expect(res.status).toBe(403);
    expect((await t.http.get(`/api/v1/users/${org.users.consulta.id}`).set(bearer(org.tokens.admin))).body.role_name).toBe('consulta');
  });
});

describe('GET /api/v1/users', () => {
  it('lists only the own client, paged, sorted and searchable', async () => {
    const page = await t.http.get('/api/v1/users?_start=0&_end=2&_sort=last_name&_order=asc').set(bearer(org.tokens.consulta));
    expect(page.status).toBe(200);
    expect(Number(page.headers['x-total-count'])).toBeGreaterThanOrEqual(5);
    expect(page.body).toHaveLength(2);
    const all = await t.http.get('/api/v1/users?_end=100').set(bearer(org.tokens.admin));
    expect(all.body.map((u: { email: string }) => u.email)).not.toContain(other.users.admin.email);
    const found = await t.http.get('/api/v1/users?q=consulta').set(bearer(org.tokens.admin));
    expect(found.body.map((u: { email: string }) => u.email)).toEqual([org.users.consulta.email]);
    const admins = await t.http.get('/api/v1/users?role_name=admin').set(bearer(org.tokens.admin));
    expect(admins.body.every((u: { role_name: string }) => u.role_name === 'admin')).toBe(true);
  });

  it("answers 404 for another client's user, to read and to write", async () => {
    expect((await t.http.get(`/api/v1/users/${other.users.admin.id}`).set(bearer(org.tokens.admin))).status).toBe(404);
    const res = await t.http.put(`/api/v1/users/${other.users.medico.id}`).set(bearer(org.tokens.admin)).send({ status: 1 });
    expect(res.status).toBe(404);
    expect((await t.http.get('/api/v1/me').set(bearer(other.tokens.medico))).status).toBe(200);
  });
});

describe('PUT/PATCH /api/v1/users/:id', () => {
  it('disabling a user stops their token at once and refuses their login; enabling brings it back', async () => {
    const body = userBody({ role_name: 'medico' });
    const created = (await t.http.post('/api/v1/users').set(bearer(org.tokens.admin)).send(body)).body;
    const token = (await t.http.post('/api/v1/sessions').send({ email: body.email, password: body.password })).body.token;
    expect((await t.http.get('/api/v1/me').set(bearer(token))).status).toBe(200);
    const off = await t.http.patch(`/api/v1/users/${created.id}`).set(bearer(org.tokens.admin)).send({ status: 1 });
    expect(off.body).toMatchObject({ status: 1, status_name: 'Inactivo', relogin_required: false });
    expect((await t.http.get('/api/v1/me').set(bearer(token))).status).toBe(401);
    expect((await t.http.post('/api/v1/sessions').send({ email: body.email, password: body.password })).status).toBe(401);
    await t.http.put(`/api/v1/users/${created.id}`).set(bearer(org.tokens.admin)).send({ status: 0 });
    expect((await t.http.post('/api/v1/sessions').send({ email: body.email, password: body.password })).status).toBe(201);
    // Disabling ended the session (ASVS V7.4.2): enabling the user again does not revive the old token.
    expect((await t.http.get('/api/v1/me').set(bearer(token))).status).toBe(401);
  });

  it("an administrator's password change ends every session of that user", async () => {
    const body = userBody();
    const created = (await t.http.post('/api/v1/users').set(bearer(org.tokens.admin)).send(body)).body;
    const token = (await t.http.post('/api/v1/sessions').send({ email: body.email, password: body.password })).body.token;
    await t.http
      .patch(`/api/v1/users/${created.id}`)
      .set(bearer(org.tokens.admin))
      .send({ password: 'Nueva@2026', password_confirmation: 'Nueva@2026' });
    expect((await t.http.get('/api/v1/me').set(bearer(token))).status).toBe(401);
  });

  it('changes the password only with a matching confirmation, and the old one stops working', async () => {
    const body = userBody();
    const created = (await t.http.post('/api/v1/users').set(bearer(org.tokens.admin)).send(body)).body;
    const mismatch = await t.http
      .patch(`/api/v1/users/${created.id}`)
      .set(bearer(org.tokens.admin))
      .send({ password: 'Nueva@2026', password_confirmation: 'Nueva@2025' });
    expect(mismatch.body).toMatchObject({ field: 'password_confirmation', message: 'las contraseñas no coinciden' });
    const ok = await t.http
      .patch(`/api/v1/users/${created.id}`)
      .set(bearer(org.tokens.admin))
      .send({ password: 'Nueva@2026', password_confirmation: 'Nueva@2026' });
    expect(ok.status).toBe(200);
    expect((await t.http.post('/api/v1/sessions').send({ email: body.email, password: body.password })).status).toBe(401);
    expect((await t.http.post('/api/v1/sessions').send({ email: body.email, password: 'Nueva@2026' })).status).toBe(201);
  });

  it('updates notification preferences, role and names', async () => {
    const res = await t.http
      .patch(`/api/v1/users/${org.users.enfermeria.id}`)
      .set(bearer(org.tokens.admin))
      .send({ media_whatsapp: true, priority_low: true, priority_high: false, role_name: 'medico', first_name: 'luz' + ' marina' });
    expect(res.body).toMatchObject({
      media_whatsapp: true,
      priority_low: true,
      priority_high: false,
      role_name: 'medico',
      first_name: 'LUZ MARINA',
    });
    await t.http.patch(`/api/v1/users/${org.users.enfermeria.id}`).set(bearer(org.tokens.admin)).send({ role_name: 'enfermeria' });
  });

  it('changing the country clears the city; a city of another country is refused', async () => {
    const created = (await t.http.post('/api/v1/users').set(bearer(org.tokens.admin)).send(userBody())).body;
    const moved = await t.http.patch(`/api/v1/users/${created.id}`).set(bearer(org.tokens.admin)).send({ country_id: 8 });
    expect(moved.body).toMatchObject({ country_id: 8, city_id: null, time_zone: 'Europe/Madrid' });
    const wrong = await t.http.patch(`/api/v1/users/${created.id}`).set(bearer(org.tokens.admin)).send({ city_id: MEDELLIN });
    expect(wrong.body).toMatchObject({ field: 'city_id', message: 'La ciudad no pertenece al país seleccionado.' });
  });

  it('tells an admin who changes their own city that the session closes in 10 seconds', async () => {
    const res = await t.http.patch(`/api/v1/users/${org.users.admin.id}`).set(bearer(org.tokens.admin)).send({ city_id: MEDELLIN });
    expect(res.body).toMatchObject({
      city_id: MEDELLIN,
      relogin_required: true,
      notification: { type: 'success', message: 'Para actualizar su zona horaria, la sesión se cerrará en 10 segundos.' },
    });
    const same = await t.http.patch(`/api/v1/users/${org.users.admin.id}`).set(bearer(org.tokens.admin)).send({ city_id: MEDELLIN });
    expect(same.body.relogin_required).toBe(false);
    const others = await t.http.patch(`/api/v1/users/${org.users.medico.id}`).set(bearer(org.tokens.admin)).send({ city_id: MEDELLIN });
    expect(others.body.relogin_required).toBe(false);
  });

  it('does not let an admin disable or demote themselves', async () => {
    const off = await t.http.patch(`/api/v1/users/${org.users.admin.id}`).set(bearer(org.tokens.admin)).send({ status: 1 });
    expect(off.body).toMatchObject({ field: 'status', message: 'No puede desactivar su propio usuario.' });
    const demote = await t.http.patch(`/api/v1/users/${org.users.admin.id}`).set(bearer(org.tokens.admin)).send({ role_name: 'consulta' });
    expect(demote.status).toBe(400);
    expect((await t.http.get('/api/v1/me').set(bearer(org.tokens.admin))).body.role_name).toBe('admin');
  });

  it("refuses an empty update and another user's e-mail", async () => {
    expect((await t.http.patch(`/api/v1/users/${org.users.medico.id}`).set(bearer(org.tokens.admin)).send({})).status).toBe(400);
    const dup = await t.http
      .patch(`/api/v1/users/${org.users.medico.id}`)
      .set(bearer(org.tokens.admin))
      .send({ email: org.users.consulta.email });
    expect(dup.status).toBe(409);
  });
});
