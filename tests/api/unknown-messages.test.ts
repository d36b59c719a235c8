import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { startTestProduct, createOrg, bearer, patientBody, type TestProduct, type Org } from '../support/product';
import { inboundBody, signed } from '../support/messaging-peers';

/** 'Mensajes de números desconocidos' (P91): the admin list, its search (text or number) and paging. */
const SECRET = 'secreto-desconocidos';
let t: TestProduct;
let org: Org;
let other: Org;

const receive = (clientId: number, from: string, id: string, text: string) => {
  const s = signed(SECRET, inboundBody(from, id, { type: 'text', text: { body: text } }, 'Desconocido'));
  return t.http
    .post(`/api/v1/messaging/webhook/${clientId}`)
    .set('content-type', 'application/json')
    .set('x-hub-signature-256', s.signature)
    .send(s.raw);
};
const list = (query: string, token = org.tokens.admin) => t.http.get(`/api/v1/messaging/unknown_messages${query}`).set(bearer(token));

beforeAll(async () => {
  delete process.env.MESSAGING_URL;
  delete process.env.AI_BASE_URL;
  process.env.MESSAGING_WEBHOOK_SECRET = SECRET;
  t = await startTestProduct();
  org = await createOrg(t, 'Clinica Desconocidos');
  other = await createOrg(t, 'Clinica Ajena');
  // A known patient: their messages never show in the list.
  expect(
    (
      await t.http
        .post('/api/v1/patients')
        .set(bearer(org.tokens.admin))
        .send(patientBody({ cellphone: '3005550000' }))
    ).status,
  ).toBe(201);
  for (const [from, id, text] of [
    ['573220000001', 'wamid.u.1', '¿Quién es? Me llegó un mensaje'],
    ['573220000002', 'wamid.u.2', 'Quiero AGENDAR una cita'],
    ['573220000001', 'wamid.u.3', 'Hola de nuevo'],
    ['573005550000', 'wamid.k.1', 'Soy paciente, quiero agendar'],
  ])
    expect((await receive(org.clientId, from, id, text)).status).toBe(200);
  expect((await receive(other.clientId, '573220000009', 'wamid.o.1', 'Agendar en la otra clínica')).status).toBe(200);
});
afterAll(async () => {
  await t.stop();
  delete process.env.MESSAGING_WEBHOOK_SECRET;
});

describe('GET /messaging/unknown_messages', () => {
  it("lists only this client's messages with no patient, newest first, with number and total", async () => {
    const res = await list('');
    expect(res.status).toBe(200);
    expect(res.headers['x-total-count']).toBe('3');
    expect(res.body.map((m: { custom_message: string; phone: string }) => [m.phone, m.custom_message])).toEqual([
      ['573220000001', 'Hola de nuevo'],
      ['573220000002', 'Quiero AGENDAR una cita'],
      ['573220000001', '¿Quién es? Me llegó un mensaje'],
    ]);
    expect(res.body[0]).toMatchObject({ message_type: 'incoming', status: 'received' });
  });

  it.each([
    ['?q=agendar', ['Quiero AGENDAR una cita']],
    ['?q=%2B57%20322%20000%200001', ['Hola de nuevo', '¿Quién es? Me llegó un mensaje']],
    ['?q=0002', ['Quiero AGENDAR una cita']],
    ['?q=100%25', []],
    ['?q=nada+parecido', []],
  ])('searches text (any case) or number digits: %s', async (query, texts) => {
    const res = await list(query);
    expect(res.status).toBe(200);
    expect(res.body.map((m: { custom_message: string }) => m.custom_message)).toEqual(texts);
    expect(res.headers['x-total-count']).toBe(String(texts.length));
  });

  it('pages with _start/_end and keeps the total', async () => {
    const res = await list('?_start=1&_end=2');
    expect(res.body.map((m: { custom_message: string }) => m.custom_message)).toEqual(['Quiero AGENDAR una cita']);
    expect(res.headers['x-total-count']).toBe('3');
  });

  it('is for admins of the client only (403 for other roles; another client sees only its own)', async () => {
    expect((await list('', org.tokens.enfermeria)).status).toBe(403);
    expect((await list('', org.tokens.consulta)).status).toBe(403);
    const theirs = await list('?q=agendar', other.tokens.admin);
    expect(theirs.body.map((m: { phone: string }) => m.phone)).toEqual(['573220000009']);
  });
});
