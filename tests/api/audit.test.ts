import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { startTestProduct, createOrg, bearer, patientBody, BOGOTA, PASSWORD, type TestProduct, type Org } from '../support/product';
import { execute, select } from '../../api/src/db/sql';
import { raiseAlert } from '../../api/src/modules/alerts/alerts.raise';

let t: TestProduct;
let org: Org;
let other: Org;
beforeAll(async () => {
  t = await startTestProduct();
  org = await createOrg(t, 'Clinica Auditoria');
  other = await createOrg(t, 'Clinica Vecina');
});
afterAll(() => t.stop());

interface EventRow {
  id: number;
  client_id: number;
  user_id: number | null;
  actor_kind: string;
  action: string;
  resource: string;
  resource_id: string | null;
  patient_id: number | null;
  summary: string;
  changes: string | null;
  method: string;
  path: string;
  status: number;
}

/** The recorder writes after the answer has gone out: wait (briefly) for the row. */
async function eventWhere(where: string, repl: Record<string, unknown>): Promise<EventRow> {
  for (let i = 0; i < 50; i++) {
    const [row] = await select<EventRow>(t.sequelize, `SELECT * FROM audit_events WHERE ${where} ORDER BY id DESC`, repl);
    if (row) return row;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`no audit event where ${where} ${JSON.stringify(repl)}`);
}
const lastId = async () => Number((await select<{ n: number | null }>(t.sequelize, 'SELECT MAX(id) AS n FROM audit_events'))[0].n ?? 0);
const eventsAfter = (id: number) => select<EventRow>(t.sequelize, 'SELECT * FROM audit_events WHERE id > :id ORDER BY id', { id });
/** A successful change whose own event proves the recorder has caught up with the requests before it. */
async function settle(o: Org = org) {
  const name = `marca ${Math.random().toString(36).slice(2, 8)}`;
  const tag = await t.http.post('/api/v1/tags').set(bearer(o.tokens.admin)).send({ name, color: 'blue' });
  expect(tag.status, JSON.stringify(tag.body)).toBe(201);
  await eventWhere("resource = 'tag' AND action = 'create' AND client_id = :c AND changes LIKE :name", {
    c: o.clientId,
    name: `%${name}%`,
  });
}

async function newPatient(o: Org = org): Promise<number> {
  const res = await t.http.post('/api/v1/patients').set(bearer(o.tokens.admin)).send(patientBody());
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id;
}

describe('what the recorder writes', () => {
  it('records a patient edit with the user, the patient and the fields sent', async () => {
    const patientId = await newPatient();
    const created = await eventWhere("resource = 'patient' AND action = 'create' AND patient_id = :p", { p: patientId });
    expect(created).toMatchObject({
      user_id: org.users.admin.id,
      resource_id: String(patientId),
      client_id: org.clientId,
      method: 'POST',
      path: '/patients',
      status: 201,
    });

    const res = await t.http
      .put(`/api/v1/patients/${patientId}`)
      .set(bearer(org.tokens.medico))
      .send({ patient: { neighborhood: 'teusaquillo', cellphone: '3109876543' } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const e = await eventWhere("resource = 'patient' AND action = 'update' AND patient_id = :p", { p: patientId });
    expect(e).toMatchObject({
      client_id: org.clientId,
      user_id: org.users.medico.id,
      actor_kind: 'staff',
      resource_id: String(patientId),
      method: 'PUT',
      path: '/patients/:id',
      status: 200,
      summary: 'Actualizó el paciente: neighborhood, cellphone',
    });
    expect(JSON.parse(e.changes!)).toEqual({ neighborhood: 'teusaquillo', cellphone: '3109876543' });
  });

  it('records closing an alert with the alert, its patient and the close type', async () => {
    const patientId = await newPatient();
    const alertId = await t.sequelize.transaction((transaction) =>
      raiseAlert(
        { sequelize: t.sequelize, transaction, now: new Date(), jobs: t.jobs },
        { client_id: org.clientId, patient_id: patientId, alert_type: 3, priority: 2, description: 'Dolor torácico referido' },
      ),
    );
    const res = await t.http
      .put(`/api/v1/patients/${patientId}/alerts/${alertId}`)
      .set(bearer(org.tokens.enfermeria))
      .send({ alert: { status: 2, close_type: 'true_alert', description: 'Se contacta al paciente y se remite' } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const e = await eventWhere("resource = 'alert' AND action = 'close' AND resource_id = :a", { a: String(alertId) });
    expect(e).toMatchObject({
      user_id: org.users.enfermeria.id,
      patient_id: patientId,
      summary: 'Cerró la alerta',
      path: '/patients/:id/alerts/:alertId',
    });
    expect(JSON.parse(e.changes!)).toEqual({ status: 2, close_type: 'true_alert', description: 'Se contacta al paciente y se remite' });
  });

  it('records creating an order with the new order id', async () => {
    const patientId = await newPatient();
    const res = await t.http
      .post(`/api/v1/patients/${patientId}/orders`)
      .set(bearer(org.tokens.medico))
      .send({ order_type: 1, medicine_id: 17 });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const e = await eventWhere("resource = 'order' AND action = 'create' AND patient_id = :p", { p: patientId });
    expect(e).toMatchObject({ user_id: org.users.medico.id, resource_id: String(res.body.id), summary: 'Creó la orden', status: 201 });
    expect(JSON.parse(e.changes!)).toEqual({ order_type: 1, medicine_id: 17 });
  });

  it('records a settings change with the integration password masked, and the secret is nowhere in the trail', async () => {
    const secret = 'Clave-Integracion-9f3a';
    const res = await t.http.put(`/api/v1/clients/${org.clientId}`).set(bearer(org.tokens.admin)).send({
      residents_enabled: true,
      residents_url: 'https://residencias.example/resi',
      residents_user: 'api-vigia',
      residents_password: secret,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const e = await eventWhere("resource = 'settings' AND action = 'update' AND client_id = :c", { c: org.clientId });
    expect(e).toMatchObject({ user_id: org.users.admin.id, patient_id: null, resource_id: String(org.clientId), path: '/clients/:id' });
    expect(JSON.parse(e.changes!)).toEqual({
      residents_enabled: true,
      residents_url: 'https://residencias.example/resi',
      residents_user: 'api-vigia',
      residents_password: '••••',
    });
    const listed = await t.http.get('/api/v1/audit_events?resource=settings').set(bearer(org.tokens.admin));
    expect(JSON.stringify(listed.body)).not.toContain(secret);
    expect(await select(t.sequelize, 'SELECT id FROM audit_events WHERE changes LIKE :s OR summary LIKE :s', { s: `%${secret}%` })).toEqual(
      [],
    );
  });

  it('masks the webhook security phrase, a new user password and the sign-in password (D20)', async () => {
    const phrase = 'frase-secreta-del-webhook-77';
    const userPassword = 'Nueva@Clave2026x';
    expect(
      (
        await t.http
          .patch(`/api/v1/clients/${org.clientId}`)
          .set(bearer(org.tokens.admin))
          .send({ webhook_url: 'https://receptor.example/fhir', security_phrase: phrase })
      ).status,
    ).toBe(200);
    const user = await t.http.post('/api/v1/users').set(bearer(org.tokens.admin)).send({
      first_name: 'carlos',
      last_name: 'ruiz',
      email: 'carlos.audit@clinica.co',
      password: userPassword,
      password_confirmation: userPassword,
      cellphone: '3001112233',
      prefix: '+57',
      country_id: 26,
      city_id: BOGOTA,
      role_name: 'enfermeria',
    });
    expect(user.status, JSON.stringify(user.body)).toBe(201);
    const u = await eventWhere("resource = 'user' AND action = 'create' AND resource_id = :id", { id: String(user.body.id) });
    expect(JSON.parse(u.changes!)).toMatchObject({ email: 'carlos.audit@clinica.co', password: '••••', password_confirmation: '••••' });
    const w = await eventWhere("resource = 'settings' AND changes LIKE '%security_phrase%'", {});
    expect(JSON.parse(w.changes!)).toMatchObject({ security_phrase: '••••' });

    const signIn = await t.http.post('/api/v1/sessions').send({ email: 'carlos.audit@clinica.co', password: userPassword });
    expect(signIn.status).toBe(201);
    const s = await eventWhere("action = 'sign_in' AND user_id = :u", { u: user.body.id });
    expect(s).toMatchObject({ client_id: org.clientId, resource: 'session', summary: 'Inició sesión' });
    const refused = await t.http.post('/api/v1/sessions').send({ email: 'carlos.audit@clinica.co', password: 'Equivocada@2026' });
    expect(refused.status).toBe(401);
    const f = await eventWhere("action = 'sign_in_failed' AND user_id = :u", { u: user.body.id });
    expect(JSON.parse(f.changes!)).toEqual({ email: 'carlos.audit@clinica.co', password: '••••' });

    const all = JSON.stringify(await select(t.sequelize, 'SELECT * FROM audit_events'));
    for (const s of [phrase, userPassword, 'Equivocada@2026', PASSWORD]) expect(all).not.toContain(s);
  });

  it('records a patient portal sign-in and sign-out as the patient, with the one-time code masked', async () => {
    const patientId = await newPatient();
    const nid = (await t.http.get(`/api/v1/patients/${patientId}`).set(bearer(org.tokens.admin))).body.nid as string;
    const asked = await t.http.post('/api/v1/request_otp').send({ nid });
    expect(asked.status, JSON.stringify(asked.body)).toBe(200);
    let code = '';
    for (let i = 0; i < 500 && !code; i++) {
      const sms = await t.http.get('/api/v1/sms_outbox').set(bearer(org.tokens.admin));
      code = (sms.body as Array<{ body: string; created_at: string }>).map((m) => m.body.match(/\d{4,8}/)?.[0]).find(Boolean) ?? '';
      if (!code) await new Promise((r) => setTimeout(r, 10));
    }
    const signedIn = await t.http.post('/api/v1/verify_otp').send({ nid, otp_code: code, challenge_id: asked.body.challenge_id });
    expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(200);
    const e = await eventWhere("action = 'sign_in' AND actor_kind = 'patient' AND patient_id = :p", { p: patientId });
    expect(e).toMatchObject({ client_id: org.clientId, user_id: null, summary: 'El paciente inició sesión en el portal' });
    expect(JSON.parse(e.changes!)).toMatchObject({ nid, otp_code: '••••' });
    expect(e.changes).not.toContain(code);
    expect((await t.http.delete('/api/v1/sessions').set(bearer(signedIn.body.token))).status).toBe(204);
    await eventWhere("action = 'sign_out' AND actor_kind = 'patient' AND patient_id = :p", { p: patientId });
  });

  it('records nothing for a refused request (400, 403, 404) nor for a read', async () => {
    const patientId = await newPatient();
    await settle();
    const before = await lastId();
    expect((await t.http.put(`/api/v1/patients/${patientId}`).set(bearer(org.tokens.admin)).send({ email: 'no-es-correo' })).status).toBe(
      400,
    );
    expect(
      (await t.http.put(`/api/v1/patients/${patientId}`).set(bearer(org.tokens.consulta)).send({ neighborhood: 'centro' })).status,
    ).toBe(403);
    expect(
      (await t.http.put(`/api/v1/patients/${patientId}`).set(bearer(other.tokens.admin)).send({ neighborhood: 'centro' })).status,
    ).toBe(404);
    expect((await t.http.post(`/api/v1/patients/${patientId}/orders`).set(bearer(org.tokens.medico)).send({ order_type: 1 })).status).toBe(
      400,
    );
    expect((await t.http.get(`/api/v1/patients/${patientId}`).set(bearer(org.tokens.admin))).status).toBe(200);
    await settle();
    const after = await eventsAfter(before);
    expect(after.map((e) => e.resource)).toEqual(['tag']);
  });

  it('does not record device readings (high volume), only the staff change that registered the device', async () => {
    const patientId = await newPatient();
    await execute(t.sequelize, 'UPDATE patients SET card_id = :card WHERE id = :id', { card: 'GW-AUDIT', id: patientId });
    const device = await t.http.post('/api/v1/devices').set(bearer(org.tokens.admin)).send({ card_id: 'GW-AUDIT' });
    expect(device.status, JSON.stringify(device.body)).toBe(201);
    const registered = await eventWhere("resource = 'device' AND action = 'create' AND client_id = :c", { c: org.clientId });
    expect(registered.changes).not.toContain(device.body.secret);
    const before = await lastId();
    const reading = await t.http
      .post('/api/v1/devices/GW-AUDIT/readings')
      .set('X-Device-Secret', device.body.secret)
      .send({ clinical_element: 1, value: 72 });
    expect(reading.status, JSON.stringify(reading.body)).toBe(201);
    await settle();
    expect((await eventsAfter(before)).map((e) => e.resource)).toEqual(['tag']);
  });
});

describe('GET /api/v1/audit_events and /patients/:id/audit_events', () => {
  let patientId: number;
  beforeAll(async () => {
    patientId = await newPatient();
    expect(
      (await t.http.patch(`/api/v1/patients/${patientId}`).set(bearer(org.tokens.enfermeria)).send({ neighborhood: 'suba' })).status,
    ).toBe(200);
    await eventWhere("resource = 'patient' AND action = 'update' AND patient_id = :p", { p: patientId });
  });

  it('lists the patient trail newest first with user and patient names, paginated', async () => {
    const res = await t.http.get(`/api/v1/patients/${patientId}/audit_events`).set(bearer(org.tokens.admin));
    expect(res.status).toBe(200);
    expect(res.headers['x-total-count']).toBe('2');
    expect(res.body.map((e: { action: string }) => e.action)).toEqual(['update', 'create']);
    expect(res.body[0]).toMatchObject({
      user_id: org.users.enfermeria.id,
      user_name: 'Usuario Enfermeria',
      actor_kind: 'staff',
      resource: 'patient',
      patient_id: patientId,
      patient_name: 'María José Pérez Gómez',
      changes: { neighborhood: 'suba' },
      method: 'PATCH',
      path: '/patients/:id',
      status: 200,
    });
    const page = await t.http.get(`/api/v1/patients/${patientId}/audit_events?_start=1&_end=2`).set(bearer(org.tokens.admin));
    expect(page.body.map((e: { action: string }) => e.action)).toEqual(['create']);
    expect(page.headers['x-total-count']).toBe('2');
  });

  it('filters the client trail by patient, user, resource and dates', async () => {
    const get = (q: string) => t.http.get(`/api/v1/audit_events?${q}`).set(bearer(org.tokens.admin));
    const byPatient = await get(`patient_id=${patientId}`);
    expect(byPatient.headers['x-total-count']).toBe('2');
    const byUser = await get(`user_id=${org.users.enfermeria.id}&resource=patient`);
    expect(byUser.body.length).toBeGreaterThan(0);
    expect(
      byUser.body.every((e: { user_id: number; resource: string }) => e.user_id === org.users.enfermeria.id && e.resource === 'patient'),
    ).toBe(true);
    const today = new Date().toLocaleDateString('en-CA', { timeZone: 'America/Bogota' });
    expect(Number((await get(`patient_id=${patientId}&from=${today}&to=${today}`)).headers['x-total-count'])).toBe(2);
    expect((await get(`patient_id=${patientId}&to=2020-01-01`)).headers['x-total-count']).toBe('0');
    expect((await get(`patient_id=${patientId}&from=2099-01-01`)).headers['x-total-count']).toBe('0');
  });

  it.each([
    ['from=2026-11-22&to=2026-11-01', 'to', "La fecha 'Hasta' no puede ser anterior a la fecha 'Desde'."],
    ['from=ayer', 'from', 'La fecha no es válida (formato AAAA-MM-DD).'],
    ['resource=nada', 'resource', 'El recurso no es válido.'],
    ['user_id=abc', 'user_id', undefined],
  ])('refuses %s with 400 on %s', async (q, field, message) => {
    const res = await t.http.get(`/api/v1/audit_events?${q}`).set(bearer(org.tokens.admin));
    expect(res.status).toBe(400);
    expect(res.body.field).toBe(field);
    if (message) expect(res.body.message).toBe(message);
  });

  it.each(['medico', 'enfermeria', 'consulta'] as const)('answers 403 to %s', async (role) => {
    expect((await t.http.get('/api/v1/audit_events').set(bearer(org.tokens[role]))).status).toBe(403);
    expect((await t.http.get(`/api/v1/patients/${patientId}/audit_events`).set(bearer(org.tokens[role]))).status).toBe(403);
  });

  it('answers 401 without a session', async () => {
    expect((await t.http.get('/api/v1/audit_events')).status).toBe(401);
  });

  it("never shows client A's events to client B: 404 for A's patient, nothing of A in B's list", async () => {
    await settle(other);
    expect((await t.http.get(`/api/v1/patients/${patientId}/audit_events`).set(bearer(other.tokens.admin))).status).toBe(404);
    const filtered = await t.http.get(`/api/v1/audit_events?patient_id=${patientId}`).set(bearer(other.tokens.admin));
    expect(filtered.status).toBe(200);
    expect(filtered.body).toEqual([]);
    const list = await t.http.get('/api/v1/audit_events?_end=100').set(bearer(other.tokens.admin));
    expect(list.body.length).toBeGreaterThan(0);
    const ids = new Set(
      (await select<{ id: number }>(t.sequelize, 'SELECT id FROM audit_events WHERE client_id = :c', { c: org.clientId })).map((r) =>
        Number(r.id),
      ),
    );
    expect(list.body.some((e: { id: number }) => ids.has(e.id))).toBe(false);
    const aUsers = new Set(Object.values(org.users).map((u) => u.id));
    expect(list.body.some((e: { user_id: number | null }) => e.user_id !== null && aUsers.has(e.user_id))).toBe(false);
  });
});
