import { describe, it, expect, beforeAll, afterAll, beforeEach } from 'vitest';
import { select, execute, insertReturningId } from '../../api/src/db/sql';
import { queueOutboundMessage } from '../../api/src/modules/messages/messages.outbox';
import { retryDelayMs } from '../../api/src/jobs/jobs.rules';
import { startTestProduct, createOrg, bearer, patientBody, type TestProduct, type Org } from '../support/product';
import { startFakeProvider, inboundBody, statusBody, signed, type FakeProvider } from '../support/messaging-peers';

const SECRET = 'secreto-del-webhook';
let clock = new Date('2026-03-02T15:00:00Z');
const later = (ms: number) => (clock = new Date(clock.getTime() + ms));
let provider: FakeProvider;
let t: TestProduct;
let org: Org;
let other: Org;

beforeAll(async () => {
  provider = await startFakeProvider();
  process.env.MESSAGING_URL = provider.url;
  process.env.MESSAGING_TOKEN = 'proveedor-token';
  process.env.MESSAGING_WEBHOOK_SECRET = SECRET;
  delete process.env.AI_BASE_URL;
  t = await startTestProduct({ now: () => clock });
  org = await createOrg(t, 'Clinica Mensajes');
  other = await createOrg(t, 'Clinica Otra');
});
afterAll(async () => {
  await t.stop();
  await provider.close();
  for (const k of ['MESSAGING_URL', 'MESSAGING_TOKEN', 'MESSAGING_WEBHOOK_SECRET']) delete process.env[k];
});

async function newPatient(overrides: Record<string, unknown> = {}) {
  const res = await t.http.post('/api/v1/patients').set(bearer(org.tokens.admin)).send(patientBody(overrides));
  expect(res.status).toBe(201);
  return res.body.id as number;
}
const page = (id: number, p = 1, token = org.tokens.enfermeria) =>
  t.http.get(`/api/v1/patients/${id}/messages?page=${p}&per_page=3`).set(bearer(token));
const post = (clientId: number, body: unknown, signature?: string) => {
  const s = signed(SECRET, body);
  return t.http
    .post(`/api/v1/messaging/webhook/${clientId}`)
    .set('content-type', 'application/json')
    .set('x-hub-signature-256', signature ?? s.signature)
    .send(s.raw);
};

describe('welcome message', () => {
  it('sends the welcome template once through the provider and shows it in the chat', async () => {
    const id = await newPatient({ cellphone: '3001112233' });
    const empty = await page(id);
    expect(empty.body).toEqual({ messages: [], page: 1, per_page: 3, total_count: 0, has_next: false });

    const res = await t.http.post(`/api/v1/patients/${id}/welcome`).set(bearer(org.tokens.enfermeria));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ notification: { message: 'Mensaje de bienvenida enviado exitosamente', type: 'success' } });
    const queued = (await page(id)).body.messages[0];
    expect(queued).toMatchObject({
      message_type: 'outgoing',
      template: 'bienvenida_vigia',
      status: 'queued',
      load: true,
      ai: false,
      author_human: false,
    });
    expect(queued.custom_message).toContain('Clinica Mensajes le da la bienvenida');

    await t.jobs.runDue({ now: clock });
    const call = provider.sent.find((s) => s.body.to === '573001112233');
    expect(call?.authorization).toBe('Bearer proveedor-token');
    expect(call?.body).toMatchObject({
      messaging_product: 'whatsapp',
      type: 'template',
      template: { name: 'bienvenida_vigia', language: { code: 'es' } },
    });
    expect(call?.body.template!.components[0].parameters.map((p: { text: string }) => p.text)).toEqual(['María', 'Clinica Mensajes']);
    expect((await page(id)).body.messages[0]).toMatchObject({ status: 'sent', load: false, error: null });

    const again = await t.http.post(`/api/v1/patients/${id}/welcome`).set(bearer(org.tokens.enfermeria));
    expect(again.status).toBe(409);
    expect(again.body.message).toMatch(/ya tiene mensajes/);
  });

  it('refuses consulta (403), another client (404) and a deceased patient', async () => {
    const id = await newPatient();
    expect((await t.http.post(`/api/v1/patients/${id}/welcome`).set(bearer(org.tokens.consulta))).status).toBe(403);
    expect((await t.http.post(`/api/v1/patients/${id}/messages`).set(bearer(org.tokens.consulta)).send({ text: 'hola' })).status).toBe(403);
    expect((await t.http.post(`/api/v1/patients/${id}/welcome`).set(bearer(other.tokens.admin))).status).toBe(404);
    expect((await t.http.get(`/api/v1/patients/${id}/messages`).set(bearer(other.tokens.admin))).status).toBe(404);
    expect((await t.http.get(`/api/v1/patients/${id}/sme_info`).set(bearer(other.tokens.admin))).status).toBe(404);
    await execute(t.sequelize, 'UPDATE patients SET status = 3 WHERE id = :id', { id });
    const dead = await t.http.post(`/api/v1/patients/${id}/welcome`).set(bearer(org.tokens.admin));
    expect(dead.status).toBe(403);
    expect(dead.body.message).toContain('fallecido');
    expect((await page(id)).body.total_count).toBe(0);
  });

  it('answers 400 with the field when the composer text is missing', async () => {
    const id = await newPatient();
    const res = await t.http.post(`/api/v1/patients/${id}/messages`).set(bearer(org.tokens.medico)).send({});
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('text');
  });
});

describe('chat pages (01 §7)', () => {
  it('pages by 3, newest first, with has_next and total_count', async () => {
    const id = await newPatient();
    for (let i = 1; i <= 7; i++) {
      later(60_000);
      const res = await t.http
        .post(`/api/v1/patients/${id}/messages`)
        .set(bearer(org.tokens.enfermeria))
        .send({ text: `mensaje ${i}` });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ author_human: true, ai: false, author_name: 'USUARIO ENFERMERIA', custom_message: `mensaje ${i}` });
    }
    const p1 = (await page(id, 1)).body;
    expect(p1).toMatchObject({ total_count: 7, has_next: true, page: 1 });
    expect(p1.messages.map((m: { custom_message: string }) => m.custom_message)).toEqual(['mensaje 7', 'mensaje 6', 'mensaje 5']);
    const p3 = (await page(id, 3)).body;
    expect(p3).toMatchObject({ total_count: 7, has_next: false });
    expect(p3.messages.map((m: { custom_message: string }) => m.custom_message)).toEqual(['mensaje 1']);
  });
});

describe('inbound webhook', () => {
  it('refuses a bad signature with 401 and stores nothing', async () => {
    const before = await select<{ n: number }>(t.sequelize, 'SELECT COUNT(*) AS n FROM messages');
    const body = inboundBody('573009990000', 'wamid.bad', { type: 'text', text: { body: 'hola' } });
    const res = await post(org.clientId, body, 'sha256=' + '0'.repeat(64));
    expect(res.status).toBe(401);
    expect(res.body.message).toBe('La firma del proveedor de mensajería no es válida.');
    expect(
      (await t.http.post(`/api/v1/messaging/webhook/${org.clientId}`).set('content-type', 'application/json').send(JSON.stringify(body)))
        .status,
    ).toBe(401);
    // Signed with another secret: refused too.
    expect((await post(org.clientId, body, signed('otro', body).signature)).status).toBe(401);
    const after = await select<{ n: number }>(t.sequelize, 'SELECT COUNT(*) AS n FROM messages');
    expect(Number(after[0].n)).toBe(Number(before[0].n));
  });

  it("stores a patient's text, image and audio, fetches the attachments and serves them by signed link", async () => {
    const id = await newPatient({ cellphone: '3104445566' });
    provider.media.set('media-img-1', { bytes: Buffer.from('\x89PNG fake image bytes'), mime: 'image/png' });
    provider.media.set('media-aud-1', { bytes: Buffer.alloc(12_345, 1), mime: 'audio/ogg' });
    expect(
      (await post(org.clientId, inboundBody('573104445566', 'wamid.in.1', { type: 'text', text: { body: 'Buenos días' } }))).body,
    ).toEqual({ received: 1, stored: 1 });
    later(1000);
    await post(
      org.clientId,
      inboundBody('573104445566', 'wamid.in.2', { type: 'image', image: { id: 'media-img-1', mime_type: 'image/png', caption: 'mi pie' } }),
    );
    later(1000);
    await post(
      org.clientId,
      inboundBody('573104445566', 'wamid.in.3', {
        type: 'audio',
        audio: { id: 'media-aud-1', mime_type: 'audio/ogg', filename: 'nota-de-voz-del-paciente.ogg', transcription: 'me siento mejor' },
      }),
    );
    // The same delivery again (providers retry): stored once.
    expect(
      (await post(org.clientId, inboundBody('573104445566', 'wamid.in.1', { type: 'text', text: { body: 'Buenos días' } }))).body.stored,
    ).toBe(0);

    await t.jobs.runDue({ now: clock });
    const { messages, total_count } = (await page(id)).body;
    expect(total_count).toBe(3);
    const [audio, image, text] = messages;
    expect(text).toMatchObject({ message_type: 'incoming', author_human: true, custom_message: 'Buenos días', status: 'received' });
    expect(image.attachments.image.url).toMatch(/^\/api\/v1\/downloads\/[\w-]+\.[\w-]+$/);
    expect(image.custom_message).toBe('mi pie');
    expect(audio.attachments.audio).toMatchObject({
      filename: 'nota-de-voz-del-paciente.ogg',
      byte_size: 12_345,
      transcription: 'me siento mejor',
    });

    const img = await t.http.get(image.attachments.image.url).buffer(true);
    expect(img.status).toBe(200);
    expect(img.headers['content-type']).toBe('image/png');
    expect(Buffer.from(img.body).toString()).toContain('fake image bytes');
    expect((await t.http.get(audio.attachments.audio.url)).status).toBe(200);
    expect((await t.http.get(`${image.attachments.image.url.split('.')[0]}.falsa`)).status).toBe(404);
    // Links last 5 minutes.
    later(6 * 60_000);
    expect((await t.http.get(image.attachments.image.url)).status).toBe(410);

    const info = await t.http.get(`/api/v1/patients/${id}/sme_info`).set(bearer(org.tokens.consulta));
    expect(info.body).toMatchObject({
      sme_enabled: true,
      sme_id: '573104445566',
      sme_metadata: { profile_name: 'Paciente', channel: 'whatsapp' },
    });
  });

  it('stores a message with control characters without them (issue 18): PostgreSQL cannot store NUL, and the message is not refused', async () => {
    const id = await newPatient({ cellphone: '3104445599' });
    const res = await post(
      org.clientId,
      inboundBody('573104445599', 'wamid.nul.1', { type: 'text', text: { body: 'Me\u0000 duele\u001b la cabeza' } }),
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ received: 1, stored: 1 });
    const [message] = (await page(id)).body.messages;
    expect(message).toMatchObject({ message_type: 'incoming', custom_message: 'Me duele la cabeza' });
  });

  it('records messages from unknown numbers without a patient, scoped to the client', async () => {
    await post(org.clientId, inboundBody('573220000001', 'wamid.unknown.1', { type: 'text', text: { body: '¿Quién es?' } }, 'Desconocido'));
    const res = await t.http.get('/api/v1/messaging/unknown_messages').set(bearer(org.tokens.admin));
    expect(res.status).toBe(200);
    expect(res.body.find((m: { custom_message: string }) => m.custom_message === '¿Quién es?')).toMatchObject({
      phone: '573220000001',
      message_type: 'incoming',
    });
    const theirs = await t.http.get('/api/v1/messaging/unknown_messages').set(bearer(other.tokens.admin));
    expect(theirs.body).toEqual([]);
    expect((await t.http.get('/api/v1/messaging/unknown_messages').set(bearer(org.tokens.enfermeria))).status).toBe(403);
  });

  it("answers a staff message with its author's name, as the conversation's reads give it (issue 19)", async () => {
    const id = await newPatient({ cellphone: '3157778810' });
    const sent = await t.http.post(`/api/v1/patients/${id}/messages`).set(bearer(org.tokens.enfermeria)).send({ text: 'Buenos días' });
    expect(sent.status).toBe(201);
    expect(sent.body.author_name).toBe('USUARIO ENFERMERIA');
    expect((await page(id)).body.messages[0]).toMatchObject({ id: sent.body.id, author_name: sent.body.author_name });
  });

  it('moves an outgoing message to delivered and read from status callbacks', async () => {
    const id = await newPatient({ cellphone: '3157778899' });
    await t.http.post(`/api/v1/patients/${id}/messages`).set(bearer(org.tokens.enfermeria)).send({ text: 'Recuerde su cita' });
    await t.jobs.runDue({ now: clock });
    const [m] = await select<{ provider_id: string }>(t.sequelize, "SELECT provider_id FROM messages WHERE body = 'Recuerde su cita'");
    await post(org.clientId, statusBody(m.provider_id, 'read'));
    await post(org.clientId, statusBody(m.provider_id, 'delivered'));
    expect((await page(id)).body.messages[0].status).toBe('read');
  });
});

describe('delivery failures', () => {
  it('shows the provider error on the message while retrying and marks it failed at the end', async () => {
    const id = await newPatient({ cellphone: '3011231234' });
    provider.failNext.push(503, 503, 503, 503, 503, 503);
    await t.http.post(`/api/v1/patients/${id}/messages`).set(bearer(org.tokens.enfermeria)).send({ text: 'No llegará' });
    await t.jobs.runDue({ now: clock });
    let m = (await page(id)).body.messages[0];
    expect(m).toMatchObject({ status: 'queued', load: true });
    // Spanish, never the provider's own text ('Service Unavailable').
    expect(m.error).toBe('El proveedor de mensajería no está disponible (código 503); se reintentará.');
    for (let attempt = 1; attempt < 6; attempt++) {
      later(retryDelayMs(attempt) + 1000);
      await t.jobs.runDue({ now: clock });
    }
    m = (await page(id)).body.messages[0];
    expect(m.status).toBe('failed');
    expect(m.error).toBe('El proveedor de mensajería no está disponible (código 503).');
    expect(provider.failNext).toEqual([]);
  });

  it('makes the activity of a reminder that could not be delivered Fallida (D11)', async () => {
    const id = await newPatient({ cellphone: '3021231234' });
    const activityId = await insertActivity(id);
    provider.failNext.push(400);
    await queueOutboundMessage(
      { sequelize: t.sequelize, now: clock, jobs: t.jobs },
      {
        client_id: org.clientId,
        patient_id: id,
        kind: 'text',
        body: 'Recordatorio: tome su medicamento',
        reason: 'reminder',
        activity_id: activityId,
      },
    );
    await t.jobs.runDue({ now: clock });
    const [a] = await select<{ status: number }>(t.sequelize, 'SELECT status FROM activities WHERE id = :id', { id: activityId });
    expect(Number(a.status)).toBe(4);
    const [m] = (await page(id)).body.messages;
    expect(m).toMatchObject({ status: 'failed', reason: 'reminder' });
    expect(m.error).toBe('El proveedor de mensajería rechazó el mensaje (código 400).');
  });
});

describe('a message the provider accepted (P148)', () => {
  // Each test runs the jobs over half an hour of retries: a new client keeps its tokens valid.
  let n = 0;
  beforeEach(async () => {
    org = await createOrg(t, `Clinica Envios ${'abc'[n++]}`);
  });
  const sentTexts = (to: string, text: string) => provider.sent.filter((s) => s.body.to === to && s.body.text?.body === text).length;
  /** Runs the jobs over the whole retry window of a send (30 s, 1, 2, 4, 8 min back-off). */
  async function runRetryWindow() {
    for (let attempt = 1; attempt <= 6; attempt++) {
      later(retryDelayMs(attempt) + 1000);
      await t.jobs.runDue({ now: clock });
    }
  }
  const write = (id: number, text: string) =>
    t.http.post(`/api/v1/patients/${id}/messages`).set(bearer(org.tokens.enfermeria)).send({ text });

  it('is sent once when the provider answers an id another message already has: it stays sent, with a Spanish note', async () => {
    const id = await newPatient({ cellphone: '3041231234' });
    provider.idsNext.push('wamid.reused', 'wamid.reused');
    expect((await write(id, 'Primero')).status).toBe(201);
    await t.jobs.runDue({ now: clock });
    later(1000);
    expect((await write(id, 'Segundo')).status).toBe(201);
    await t.jobs.runDue({ now: clock });
    await runRetryWindow();

    expect(sentTexts('573041231234', 'Primero')).toBe(1);
    expect(sentTexts('573041231234', 'Segundo')).toBe(1);
    const [second, first] = (await page(id)).body.messages;
    expect(first).toMatchObject({ custom_message: 'Primero', status: 'sent', error: null });
    expect(second).toMatchObject({ custom_message: 'Segundo', status: 'sent', load: false });
    expect(second.error).toBe(
      'Enviado: el proveedor indicó el identificador wamid.reused, que ya tenía otro mensaje; los avisos de entrega y lectura de este mensaje no se podrán seguir.',
    );
    // The first message keeps the id and its receipts.
    await post(org.clientId, statusBody('wamid.reused', 'read'));
    const [after2, after1] = (await page(id)).body.messages;
    expect([after1.status, after2.status]).toEqual(['read', 'sent']);
    const [job] = await select<{ status: string }>(t.sequelize, 'SELECT status FROM jobs WHERE key = :key', {
      key: `messaging.send:${second.id}`,
    });
    expect(job.status).toBe('done');
  });

  it('is sent once when the provider accepts it without saying its id', async () => {
    const id = await newPatient({ cellphone: '3051231234' });
    provider.idsNext.push(null);
    await write(id, 'Sin identificador');
    await t.jobs.runDue({ now: clock });
    await runRetryWindow();
    expect(sentTexts('573051231234', 'Sin identificador')).toBe(1);
    const [m] = (await page(id)).body.messages;
    expect(m).toMatchObject({ status: 'sent', load: false });
    expect(m.error).toMatch(/^Enviado: el proveedor no indicó su identificador;/);
  });

  it('shows a failed delivery the provider reports in Spanish, with its code, not its English title', async () => {
    const id = await newPatient({ cellphone: '3061231234' });
    await write(id, 'No se entregará');
    await t.jobs.runDue({ now: clock });
    const [row] = await select<{ provider_id: string }>(t.sequelize, "SELECT provider_id FROM messages WHERE body = 'No se entregará'");
    const body = statusBody(row.provider_id, 'failed');
    (body.entry[0].changes[0].value.statuses[0] as Record<string, unknown>).errors = [
      { code: 131026, title: 'Message undeliverable', message: 'Message undeliverable' },
    ];
    expect((await post(org.clientId, body)).status).toBe(200);
    const [m] = (await page(id)).body.messages;
    expect(m).toMatchObject({ status: 'failed', error: 'El proveedor de mensajería no pudo entregar el mensaje (código 131026).' });
  });
});

/** A medication order with one scheduled activity (tables of 0006-orders-activities). */
async function insertActivity(patientId: number): Promise<number> {
  const orderId = await insertReturningId(
    t.sequelize,
    `INSERT INTO orders (client_id, patient_id, order_type, status, notify, permanent, during, days, hours, created_at, updated_at)
     VALUES (:c, :p, 2, 1, :yes, :no, 7, '[]', '[]', :now, :now) RETURNING id`,
    { c: org.clientId, p: patientId, yes: true, no: false, now: clock },
  );
  return insertReturningId(
    t.sequelize,
    `INSERT INTO activities (client_id, patient_id, order_id, slot_at, programmed_at, status, created_at, updated_at)
     VALUES (:c, :p, :o, :now, :now, 0, :now, :now) RETURNING id`,
    { c: org.clientId, p: patientId, o: orderId, now: clock },
  );
}

describe('local channel (no provider configured)', () => {
  it('marks outbound messages sent locally so the chat works out of the box', async () => {
    const saved = process.env.MESSAGING_URL;
    delete process.env.MESSAGING_URL;
    const local = await startTestProduct({ now: () => clock });
    process.env.MESSAGING_URL = saved;
    try {
      const o = await createOrg(local, 'Clinica Local');
      const id = (await local.http.post('/api/v1/patients').set(bearer(o.tokens.admin)).send(patientBody())).body.id;
      expect((await local.http.post(`/api/v1/patients/${id}/welcome`).set(bearer(o.tokens.admin))).status).toBe(200);
      await local.jobs.runDue({ now: clock });
      const res = await local.http.get(`/api/v1/patients/${id}/messages`).set(bearer(o.tokens.admin));
      expect(res.body.messages[0]).toMatchObject({ status: 'sent', template: 'bienvenida_vigia' });
      const info = await local.http.get(`/api/v1/patients/${id}/sme_info`).set(bearer(o.tokens.admin));
      expect(info.body).toMatchObject({ sme_enabled: true, sme_metadata: { channel: 'local', assistant: false } });
    } finally {
      await local.stop();
    }
  });
});
