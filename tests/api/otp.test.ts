import { describe, it, expect, beforeAll, afterAll, beforeEach } from 'vitest';
import { startTestProduct, createOrg, bearer, patientBody, PASSWORD, type TestProduct, type Org } from '../support/product';

let t: TestProduct;
let org: Org;
let patientId: number;
let clock = new Date('2026-11-21T15:00:00Z');
const advance = (ms: number) => {
  clock = new Date(clock.getTime() + ms);
};

beforeAll(async () => {
  t = await startTestProduct({ now: () => clock });
  org = await createOrg(t, 'Clinica Portal');
  patientId = (
    await t.http
      .post('/api/v1/patients')
      .set(bearer(await adminToken()))
      .send(patientBody({ nid: '1020304050', cellphone: '3001112233' }))
  ).body.id;
  await t.http
    .post('/api/v1/patients')
    .set(bearer(await adminToken()))
    .send(patientBody({ nid: '1020304051', cellphone: '3001112244' }));
});
afterAll(() => t.stop());
// Each scenario starts outside every rate window.
beforeEach(() => advance(25 * 3600_000));

const request = (nid: string, ip = '10.0.0.1') => t.http.post('/api/v1/request_otp').set('X-Forwarded-For', ip).send({ nid });
const verify = (nid: string, otp_code: string, challenge_id: string) =>
  t.http.post('/api/v1/verify_otp').send({ nid, otp_code, challenge_id });

/** The test clock jumps days ahead, so staff sign in again rather than reuse an expired token. */
async function adminToken(): Promise<string> {
  return (await t.http.post('/api/v1/sessions').send({ email: org.users.admin.email, password: PASSWORD })).body.token;
}

async function lastCodeFor(phone: string): Promise<string> {
  // SMS go out after the answer; wait for the outbox row.
  const token = await adminToken();
  // Up to 10 s: on a loaded CI machine the fire-and-forget SMS insert can lag the answer.
  for (let i = 0; i < 1000; i++) {
    const res = await t.http.get(`/api/v1/sms_outbox?to=${phone}`).set(bearer(token));
    if (res.body.length && new Date(res.body[0].created_at).getTime() === clock.getTime()) return res.body[0].body.match(/\d{4,8}/)![0];
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('no SMS');
}

describe('patient one-time code (D17)', () => {
  it('sends a 4-digit code by SMS and exchanges it once for a patient token', async () => {
    const req = await request('1020304050');
    expect(req.status).toBe(200);
    expect(req.body).toMatchObject({ code_length: 4, challenge_id: expect.any(String) });
    const code = await lastCodeFor('3001112233');
    expect(code).toMatch(/^\d{4}$/);
    const ok = await verify('1020304050', code, req.body.challenge_id);
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ id: patientId, token: expect.any(String) });
    // Single use.
    const again = await verify('1020304050', code, req.body.challenge_id);
    expect(again.status).toBe(401);
    expect(again.body.message).toBe('Número de documento o código erróneos');

    const own = await t.http.get(`/api/v1/patients/${patientId}`).set(bearer(ok.body.token));
    expect(own.status).toBe(200);
    expect(own.body.permissions.edit).toBe(false);
  });

  it('gives a patient token nothing beyond its own record', async () => {
    const req = await request('1020304050');
    const token = (await verify('1020304050', await lastCodeFor('3001112233'), req.body.challenge_id)).body.token;
    const other = (await t.http.get('/api/v1/patients?q=1020304051').set(bearer(await adminToken()))).body[0].id;
    expect((await t.http.get(`/api/v1/patients/${other}`).set(bearer(token))).status).toBe(404);
    expect((await t.http.get('/api/v1/patients').set(bearer(token))).status).toBe(401);
    expect((await t.http.put(`/api/v1/patients/${patientId}`).set(bearer(token)).send({ email: 'a@b.co' })).status).toBe(401);
    expect((await t.http.get('/api/v1/me').set(bearer(token))).status).toBe(401);
    expect((await t.http.get('/api/v1/sms_outbox').set(bearer(token))).status).toBe(401);
    expect((await t.http.delete('/api/v1/sessions').set(bearer(token))).status).toBe(204);
    expect((await t.http.get(`/api/v1/patients/${patientId}`).set(bearer(token))).status).toBe(401);
  });

  it('answers an unknown document exactly like a known one, and sends nothing', async () => {
    const before = (await t.http.get('/api/v1/sms_outbox').set(bearer(await adminToken()))).headers['x-total-count'];
    const unknown = await request('99999999');
    const known = await request('1020304051');
    expect(unknown.status).toBe(known.status);
    expect(Object.keys(unknown.body).sort()).toEqual(Object.keys(known.body).sort());
    expect(unknown.body.message).toBe(known.body.message);
    await lastCodeFor('3001112244');
    const after = (await t.http.get('/api/v1/sms_outbox').set(bearer(await adminToken()))).headers['x-total-count'];
    expect(Number(after) - Number(before)).toBe(1);
  });

  it('expires a code after 5 minutes', async () => {
    const req = await request('1020304050');
    const code = await lastCodeFor('3001112233');
    advance(5 * 60_000 + 1);
    expect((await verify('1020304050', code, req.body.challenge_id)).status).toBe(401);
  });

  it('binds the code to its request and its document', async () => {
    const first = await request('1020304050');
    const code = await lastCodeFor('3001112233');
    advance(1000);
    const second = await request('1020304050');
    await lastCodeFor('3001112233');
    expect((await verify('1020304051', code, first.body.challenge_id)).status).toBe(401);
    expect((await verify('1020304050', code, second.body.challenge_id)).status).toBe(401);
  });

  it('ends an earlier code when a newer one is sent: only the latest signs in', async () => {
    const first = await request('1020304050');
    const firstCode = await lastCodeFor('3001112233');
    advance(1000);
    const second = await request('1020304050');
    const secondCode = await lastCodeFor('3001112233');
    expect((await verify('1020304050', firstCode, first.body.challenge_id)).status).toBe(401);
    expect((await verify('1020304050', secondCode, second.body.challenge_id)).status).toBe(200);
  });

  it('allows at most 5 tries per code, even the right one after that', async () => {
    const req = await request('1020304050');
    const code = await lastCodeFor('3001112233');
    const wrong = code === '0000' ? '1111' : '0000';
    for (let i = 0; i < 5; i++) expect((await verify('1020304050', wrong, req.body.challenge_id)).status).toBe(401);
    expect((await verify('1020304050', code, req.body.challenge_id)).status).toBe(401);
  });

  it('limits requests per document: the fourth in 15 minutes gets 429 with Retry-After', async () => {
    for (let i = 0; i < 3; i++) expect((await request('1020304051')).status).toBe(200);
    const res = await request('1020304051');
    expect(res.status).toBe(429);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(res.body.message).toBe('Ha solicitado demasiados códigos. Espere unos minutos e intente de nuevo.');
  });

  it('limits requests per address', async () => {
    for (let i = 0; i < 20; i++) expect((await request(`5000${1000 + i}`, '10.9.9.9')).status).toBe(200);
    expect((await request('50009999', '10.9.9.9')).status).toBe(429);
    expect((await request('50009999', '10.9.9.8')).status).toBe(200);
  });

  it('locks a document for 24 hours after 10 failures, for known and unknown documents alike', async () => {
    for (const nid of ['1020304050', '77777777']) {
      for (let round = 0; round < 4; round++) {
        const req = await request(nid);
        expect(req.status).toBe(200);
        for (let i = 0; i < (round < 3 ? 3 : 1); i++) await verify(nid, '0000', req.body.challenge_id);
        advance(16 * 60_000);
      }
      const locked = await request(nid);
      expect(locked.status).toBe(429);
      expect(locked.body.message).toBe(
        'El acceso al portal está bloqueado temporalmente para este documento. Comuníquese con su institución.',
      );
    }
    advance(24 * 3600_000);
    expect((await request('1020304050')).status).toBe(200);
  });

  it('shows the lock on the patient record, and lets staff lift it before the 24 hours pass', async () => {
    for (let round = 0; round < 4; round++) {
      const req = await request('1020304051');
      for (let i = 0; i < (round < 3 ? 3 : 1); i++) await verify('1020304051', '0000', req.body.challenge_id);
      advance(16 * 60_000);
    }
    expect((await request('1020304051')).status).toBe(429);
    const other = (await t.http.get('/api/v1/patients?q=1020304051').set(bearer(await adminToken()))).body[0].id;
    const record = await t.http.get(`/api/v1/patients/${other}`).set(bearer(await adminToken()));
    expect(record.body.portal_locked_until).toEqual(expect.any(String));

    const consulta = (await t.http.post('/api/v1/sessions').send({ email: org.users.consulta.email, password: PASSWORD })).body.token;
    expect((await t.http.delete(`/api/v1/patients/${other}/portal_lock`).set(bearer(consulta))).status).toBe(403);
    const enfermeria = (await t.http.post('/api/v1/sessions').send({ email: org.users.enfermeria.email, password: PASSWORD })).body.token;
    const unlock = await t.http.delete(`/api/v1/patients/${other}/portal_lock`).set(bearer(enfermeria));
    expect(unlock.status).toBe(200);
    expect(unlock.body.type).toBe('success');
    expect((await t.http.get(`/api/v1/patients/${other}`).set(bearer(enfermeria))).body.portal_locked_until).toBeNull();
    expect((await request('1020304051')).status).toBe(200);
  });

  it('refuses malformed input with 400', async () => {
    const res = await t.http.post('/api/v1/verify_otp').send({ nid: '1020304050', otp_code: 'abcd', challenge_id: 'x' });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Número de documento o código erróneos');
    expect((await t.http.post('/api/v1/request_otp').send({})).body).toMatchObject({ field: 'nid', message: '¡El campo es requerido!' });
  });
});
