import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { loadContract } from '../../api/src/http/contract';
import type { OpenApiOperation } from '@vigia/contract/rules/schema';
import { startTestProduct, requestFor, createOrg, bearer, patientBody, type Org, type TestProduct } from '../support/product';

/**
 * Authentication comes before the contract (issue 41): a stranger's call to any operation that
 * needs a session answers 401, whatever its body, query or path say; a 400 would describe the
 * operation's schema to someone not signed in. Every operation of openapi.yaml is tried, as the
 * security suite does. Public operations (sign-in, codes, devices, webhooks) are still validated.
 */
const { doc } = loadContract();
const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
  Object.entries(item as Record<string, OpenApiOperation>)
    .filter(([m]) => ['get', 'post', 'put', 'patch', 'delete'].includes(m))
    .map(([method, op]) => ({ path, method, op, name: `${method.toUpperCase()} ${path}` })),
);
const secured = operations.filter((o) => !Array.isArray(o.op.security));

/** Path parameters no schema accepts as an id, an unknown query parameter and a body of the wrong shape. */
const invalidUrl = (path: string) => `/api/v1${path.replace(/\{[^}]+\}/g, '-x-')}?parametro_desconocido=1`;
const INVALID_BODY = { campo_desconocido: [null], name: 12 };

/**
 * Issue 49: then who the caller is, before what they sent. The portal's operations take a
 * patient's token; every other secured one is the staff's. The operations a role may not call
 * list 403 in the contract; `consulta` may call only the reading and report ones among them.
 */
const PORTAL = new Set([
  'deleteSession',
  'getPatient',
  'listMeasurements',
  'getMeasurementsPdf',
  'listPatientAlarms',
  'confirmMedicationActivity',
]);
const CONSULTA_MAY = new Set([
  'listMeasurements',
  'getMeasurementsPdf',
  'reportClientMeasurements',
  'reportVitalSigns',
  'reportPatientStatusChanges',
  'reportClientOpenedAlerts',
  'getIndicators',
]);
const staffOnly = secured.filter((o) => !PORTAL.has(o.op.operationId!));
const notForConsulta = secured.filter(
  (o) => '403' in ((o.op as { responses?: object }).responses ?? {}) && !CONSULTA_MAY.has(o.op.operationId!),
);

let t: TestProduct;
let org: Org;
let patientToken: string;
beforeAll(async () => {
  t = await startTestProduct();
  org = await createOrg(t, 'Orden');
  const nid = '1049000001';
  const phone = '3004900001';
  expect(
    (
      await t.http
        .post('/api/v1/patients')
        .set(bearer(org.tokens.admin))
        .send(patientBody({ nid, cellphone: phone }))
    ).status,
  ).toBe(201);
  const challenge = await t.http.post('/api/v1/request_otp').send({ nid });
  for (let i = 0; i < 500 && !patientToken; i++) {
    const sms = await t.http.get(`/api/v1/sms_outbox?to=${phone}`).set(bearer(org.tokens.admin));
    if (sms.body.length) {
      const otp_code = sms.body[0].body.match(/\d{4,8}/)![0];
      patientToken = (await t.http.post('/api/v1/verify_otp').send({ nid, otp_code, challenge_id: challenge.body.challenge_id })).body
        .token;
    } else await new Promise((r) => setTimeout(r, 10));
  }
  expect(patientToken).toBeTruthy();
});
afterAll(async () => {
  await t?.stop();
});

describe('operations that need a session, called without one and with an invalid request', () => {
  it('the contract has secured operations of every method', () => {
    expect(secured.length).toBeGreaterThan(100);
    expect(new Set(secured.map((o) => o.method))).toEqual(new Set(['get', 'post', 'put', 'patch', 'delete']));
  });

  it.each(secured.map((o) => [o.name, o] as const))('%s answers 401 without a token', async (_name, o) => {
    const res = await requestFor(t, o.method, invalidUrl(o.path)).send(INVALID_BODY);
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ code: 'unauthorized' });
    expect(JSON.stringify(res.body)).not.toContain('campo_desconocido');
  });

  it.each(secured.map((o) => [o.name, o] as const))('%s answers 401 to a forged token', async (_name, o) => {
    const res = await requestFor(t, o.method, invalidUrl(o.path)).set('Authorization', 'Bearer no.es.valido').send(INVALID_BODY);
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ code: 'unauthorized' });
  });

  it('a malformed JSON body does not get ahead of the 401', async () => {
    const res = await t.http.post('/api/v1/patients').set('content-type', 'application/json').send('{"nid": ');
    expect(res.status).toBe(401);
  });
});

describe('operations called with a session of the wrong kind or role and an invalid request (issue 49)', () => {
  it.each([
    ['post', '/api/v1/me/factors/totp/confirm'],
    ['post', '/api/v1/me/factors/passkeys'],
    ['patch', '/api/v1/me/factors/passkeys/1'],
  ])('%s %s with an empty body answers 401 to a patient and to no token', async (method, url) => {
    for (const auth of [{}, bearer(patientToken)]) {
      const res = await requestFor(t, method, url).set(auth).send({});
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('unauthorized');
    }
  });

  it('a malformed JSON body answers 401 to a patient, 403 to consulta and 400 to an administrator', async () => {
    const send = (token: string) =>
      t.http.post('/api/v1/patients').set(bearer(token)).set('content-type', 'application/json').send('{"nid": ');
    expect((await send(patientToken)).status).toBe(401);
    expect((await send(org.tokens.consulta)).status).toBe(403);
    const admin = await send(org.tokens.admin);
    expect(admin.status).toBe(400);
  });

  it.each(staffOnly.map((o) => [o.name, o] as const))('%s answers 401 to a patient token', async (_name, o) => {
    const res = await requestFor(t, o.method, invalidUrl(o.path)).set(bearer(patientToken)).send(INVALID_BODY);
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ code: 'unauthorized' });
    expect(JSON.stringify(res.body)).not.toContain('campo_desconocido');
  });

  it.each(notForConsulta.map((o) => [o.name, o] as const))('%s answers 403 to the role consulta', async (_name, o) => {
    const res = await requestFor(t, o.method, invalidUrl(o.path)).set(bearer(org.tokens.consulta)).send(INVALID_BODY);
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 'forbidden' });
  });

  it.each(secured.map((o) => [o.name, o] as const))('%s still answers 400 to an administrator', async (_name, o) => {
    const res = await requestFor(t, o.method, invalidUrl(o.path)).set(bearer(org.tokens.admin)).send(INVALID_BODY);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_error');
  });
});

describe('public operations are still checked against the contract first', () => {
  it.each([
    ['POST', '/api/v1/sessions', {}, 'email'],
    ['POST', '/api/v1/request_otp', {}, 'nid'],
    ['POST', '/api/v1/devices/CARD-1/readings', { value: 'alto' }, 'value'],
  ])('%s %s %j answers 400 naming the field', async (method, url, body, field) => {
    const res = await requestFor(t, method.toLowerCase(), url).send(body);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_error');
    expect(JSON.stringify(res.body.errors)).toContain(field);
  });

  it('an unknown route answers 404 without a token', async () => {
    const res = await t.http.get('/api/v1/no_existe');
    expect(res.status).toBe(404);
  });
});
