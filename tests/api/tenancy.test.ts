import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { startTestProduct, createOrg, bearer, patientBody, type TestProduct, type Org } from '../support/product';

let t: TestProduct;
let a: Org;
let b: Org;
let patientA: number;
let tagA: number;

beforeAll(async () => {
  t = await startTestProduct();
  a = await createOrg(t, 'Clinica Uno');
  b = await createOrg(t, 'Clinica Dos');
  tagA = (await t.http.post('/api/v1/tags?owner=client').set(bearer(a.tokens.admin)).send({ name: 'Diabetes', color: 'red' })).body.id;
  patientA = (
    await t.http
      .post('/api/v1/patients')
      .set(bearer(a.tokens.admin))
      .send(patientBody({ nid: '1020304050', tag_ids: [tagA] }))
  ).body.id;
});
afterAll(() => t.stop());

describe('tenancy (D14): client B never sees or changes client A', () => {
  it.each([
    ['GET', () => `/api/v1/patients/${patientA}`, undefined],
    ['PUT', () => `/api/v1/patients/${patientA}`, { first_name: 'intruso' }],
    ['PATCH', () => `/api/v1/patients/${patientA}`, { status: 0 }],
    ['GET', () => `/api/v1/tags/${tagA}`, undefined],
    ['PUT', () => `/api/v1/tags/${tagA}`, { name: 'robada' }],
    ['DELETE', () => `/api/v1/tags/${tagA}`, undefined],
    ['GET', () => `/api/v1/clients/${a.clientId}`, undefined],
  ])('%s %s answers 404 like a missing record', async (method, path, body) => {
    const req = t.http[method.toLowerCase() as 'get'](path()).set(bearer(b.tokens.admin));
    const res = body ? await req.send(body) : await req;
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('not_found');
    const missing = t.http[method.toLowerCase() as 'get'](path().replace(/\/\d+$/, '/999999')).set(bearer(b.tokens.admin));
    expect((body ? await missing.send(body) : await missing).body).toEqual(res.body);
  });

  it("leaves client A's rows unchanged after B's attempts", async () => {
    const p = await t.http.get(`/api/v1/patients/${patientA}`).set(bearer(a.tokens.admin));
    expect(p.status).toBe(200);
    expect(p.body).toMatchObject({ first_name: 'MARÍA JOSÉ', status: 1, tag_ids: [tagA] });
    const tag = await t.http.get(`/api/v1/tags/${tagA}`).set(bearer(a.tokens.admin));
    expect(tag.body).toMatchObject({ name: 'DIABETES', patients_count: 1 });
  });

  it("never lists another client's rows", async () => {
    const patients = await t.http.get('/api/v1/patients').set(bearer(b.tokens.admin));
    expect(patients.status).toBe(200);
    expect(patients.body).toEqual([]);
    expect(patients.headers['x-total-count']).toBe('0');
    const search = await t.http.get('/api/v1/patients?q=1020304050').set(bearer(b.tokens.admin));
    expect(search.body).toEqual([]);
    const tags = await t.http.get('/api/v1/tags').set(bearer(b.tokens.admin));
    expect(tags.body).toEqual([]);
    const listing = await t.http.get('/api/v1/listings/tags').set(bearer(b.tokens.admin));
    expect(listing.body).toEqual({ data: {} });
  });

  it("refuses to attach another client's tag to a patient", async () => {
    const res = await t.http
      .post('/api/v1/patients')
      .set(bearer(b.tokens.admin))
      .send(patientBody({ tag_ids: [tagA] }));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ field: 'tag_ids', message: 'Una de las etiquetas no existe.' });
  });

  it('lets the same document exist in two clients', async () => {
    const res = await t.http
      .post('/api/v1/patients')
      .set(bearer(b.tokens.admin))
      .send(patientBody({ nid: '1020304050' }));
    expect(res.status).toBe(201);
    const check = await t.http.post('/api/v1/patients/validate').set(bearer(a.tokens.medico)).send({ id_type: 1, nid: '1020304050' });
    expect(check.body.id).toBe(patientA);
  });
});
