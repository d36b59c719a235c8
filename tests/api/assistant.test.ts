import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { select, execute, insertReturningId } from '../../api/src/db/sql';
import { startTestProduct, createOrg, bearer, patientBody, type TestProduct, type Org } from '../support/product';
import { startFakeProvider, startFakeModel, inboundBody, signed, type FakeProvider, type FakeModel } from '../support/messaging-peers';

const SECRET = 'secreto-asistente';
let clock = new Date('2026-03-02T15:00:00Z');
const later = (ms: number) => (clock = new Date(clock.getTime() + ms));
let provider: FakeProvider;
let model: FakeModel;
let t: TestProduct;
let org: Org;

beforeAll(async () => {
  provider = await startFakeProvider();
  model = await startFakeModel();
  Object.assign(process.env, {
    MESSAGING_URL: provider.url,
    MESSAGING_TOKEN: 'proveedor-token',
    MESSAGING_WEBHOOK_SECRET: SECRET,
    AI_BASE_URL: `${model.url}/v1`,
    AI_MODEL: 'modelo-prueba',
    AI_API_KEY: 'clave-ia',
  });
  t = await startTestProduct({ now: () => clock });
  org = await createOrg(t, 'Clinica Asistente');
});
afterAll(async () => {
  await t.stop();
  await provider.close();
  await model.close();
  for (const k of ['MESSAGING_URL', 'MESSAGING_TOKEN', 'MESSAGING_WEBHOOK_SECRET', 'AI_BASE_URL', 'AI_MODEL', 'AI_API_KEY'])
    delete process.env[k];
});

async function tableExists(name: string): Promise<boolean> {
  const sql =
    t.sequelize.getDialect() === 'postgres'
      ? 'SELECT COUNT(*) AS n FROM information_schema.tables WHERE table_name = :name'
      : "SELECT COUNT(*) AS n FROM sqlite_master WHERE type = 'table' AND name = :name";
  return Number((await select<{ n: number }>(t.sequelize, sql, { name }))[0].n) > 0;
}

let seq = 0;
async function patientWithPhone() {
  const cellphone = `310${String(1000000 + ++seq)}`;
  const res = await t.http.post('/api/v1/patients').set(bearer(org.tokens.admin)).send(patientBody({ cellphone }));
  expect(res.status).toBe(201);
  return { id: res.body.id as number, waId: `57${cellphone}` };
}
function say(from: string, text: string) {
  const s = signed(SECRET, inboundBody(from, `wamid.${from}.${++seq}`, { type: 'text', text: { body: text } }));
  return t.http
    .post(`/api/v1/messaging/webhook/${org.clientId}`)
    .set('content-type', 'application/json')
    .set('x-hub-signature-256', s.signature)
    .send(s.raw);
}
const chat = async (id: number) =>
  (await t.http.get(`/api/v1/patients/${id}/messages?per_page=10`).set(bearer(org.tokens.admin))).body.messages;

async function addPrompt(ownerType: string, ownerId: number, text: string, status = 1) {
  await insertReturningId(
    t.sequelize,
    'INSERT INTO prompts (client_id, owner_type, owner_id, text, status, created_at, updated_at) VALUES (:c, :type, :owner, :text, :status, :now, :now) RETURNING id',
    { c: org.clientId, type: ownerType, owner: ownerId, text, status, now: clock },
  );
}

describe('assistant replies', () => {
  it('answers a patient message with the composed instructions, marked as AI, through the channel', async () => {
    const p = await patientWithPhone();
    const tag = (await t.http.post('/api/v1/tags').set(bearer(org.tokens.admin)).send({ name: 'cardiología', color: 'red' })).body;
    await t.http
      .put(`/api/v1/patients/${p.id}`)
      .set(bearer(org.tokens.admin))
      .send({ tag_ids: [tag.id] });
    const prompts = await tableExists('prompts');
    if (prompts) {
      await addPrompt('client', org.clientId, 'Trata al paciente de usted.');
      await addPrompt('tag', tag.id, 'Pregunta por dolor en el pecho.');
      await addPrompt('patient', p.id, 'Vive solo; sugiérele llamar a su hija.');
      await addPrompt('patient', p.id, 'Instrucción antigua inactiva.', 0);
    }
    model.script.push({ content: 'Buenos días, ¿cómo se siente hoy?' });
    expect((await say(p.waId, 'Hola, buenos días')).status).toBe(200);
    await t.jobs.runDue({ now: clock });
    await t.jobs.runDue({ now: clock });

    const req = model.requests.at(-1)!;
    expect(req.model).toBe('modelo-prueba');
    expect(req.authorization).toBe('Bearer clave-ia');
    expect(req.tools.map((x: { function: { name: string } }) => x.function.name)).toEqual([
      'registrar_medicion',
      'crear_alerta',
      'guardar_resumen',
    ]);
    const system: string = req.messages[0].content;
    expect(system).toContain('Clinica Asistente');
    if (prompts) {
      const order = ['Trata al paciente de usted.', 'Pregunta por dolor en el pecho.', 'Vive solo; sugiérele llamar a su hija.'].map((s) =>
        system.indexOf(s),
      );
      expect(order.every((i) => i > 0)).toBe(true);
      expect([...order].sort((a, b) => a - b)).toEqual(order);
      expect(system).not.toContain('Instrucción antigua inactiva.');
      expect(system).toContain('etiqueta CARDIOLOGÍA');
    }
    expect(req.messages.at(-1)).toEqual({ role: 'user', content: 'Hola, buenos días' });

    const [reply] = await chat(p.id);
    expect(reply).toMatchObject({
      message_type: 'outgoing',
      ai: true,
      author_human: false,
      reason: 'assistant',
      custom_message: 'Buenos días, ¿cómo se siente hoy?',
      status: 'sent',
    });
    expect(provider.sent.at(-1)?.body).toMatchObject({ to: p.waId, type: 'text', text: { body: 'Buenos días, ¿cómo se siente hoy?' } });
  });

  it('retries after the model answered 503 and replies once', async () => {
    const p = await patientWithPhone();
    model.script.push(503, { content: 'Aquí estoy.' });
    await say(p.waId, '¿Hay alguien?');
    await t.jobs.runDue({ now: clock });
    expect((await chat(p.id)).length).toBe(1);
    const [job] = await select<{ status: string; last_error: string }>(
      t.sequelize,
      "SELECT status, last_error FROM jobs WHERE kind = 'assistant.reply' ORDER BY id DESC LIMIT 1",
    );
    expect(job.status).toBe('pending');
    expect(job.last_error).toMatch(/503/);
    later(60_000);
    await t.jobs.runDue({ now: clock });
    await t.jobs.runDue({ now: clock });
    const messages = await chat(p.id);
    expect(messages.map((m: { custom_message: string }) => m.custom_message)).toEqual(['Aquí estoy.', '¿Hay alguien?']);
    expect(messages[0]).toMatchObject({ ai: true, status: 'sent' });
  });
});

describe('conversation order (P148)', () => {
  it('answers a message that arrives late, written before the welcome went out: its last user turn is that message', async () => {
    const p = await patientWithPhone();
    expect((await t.http.post(`/api/v1/patients/${p.id}/welcome`).set(bearer(org.tokens.admin))).status).toBe(200);
    await t.jobs.runDue({ now: clock });
    later(60_000);
    // The phone stamped it six minutes ago, five before the welcome was sent; it reaches us now.
    const written = String(Math.floor((clock.getTime() - 6 * 60_000) / 1000));
    const s = signed(
      SECRET,
      inboundBody(p.waId, `wamid.late.${++seq}`, { timestamp: written, type: 'text', text: { body: 'Hola, me siento mareado' } }),
    );
    const res = await t.http
      .post(`/api/v1/messaging/webhook/${org.clientId}`)
      .set('content-type', 'application/json')
      .set('x-hub-signature-256', s.signature)
      .send(s.raw);
    expect(res.body).toEqual({ received: 1, stored: 1 });
    model.script.push({ content: 'Siéntese y cuénteme cómo está.' });
    await t.jobs.runDue({ now: clock });
    await t.jobs.runDue({ now: clock });

    const req = model.requests.at(-1)!;
    expect(req.messages.slice(1).map((m) => m.role)).toEqual(['assistant', 'user']);
    expect(req.messages[1].content).toContain('le da la bienvenida');
    expect(req.messages.at(-1)).toEqual({ role: 'user', content: 'Hola, me siento mareado' });
    // The chat shows it as received: after the welcome, answered by the reply.
    expect((await chat(p.id)).map((m: { reason: string }) => m.reason)).toEqual(['assistant', 'patient', 'welcome']);
    const [incoming] = await select<{ id: number }>(
      t.sequelize,
      "SELECT id FROM messages WHERE patient_id = :p AND message_type = 'incoming'",
      {
        p: p.id,
      },
    );
    const [reply] = await select<{ reply_to_id: number; body: string }>(
      t.sequelize,
      "SELECT reply_to_id, body FROM messages WHERE patient_id = :p AND reason = 'assistant'",
      { p: p.id },
    );
    expect(reply).toEqual({ reply_to_id: incoming.id, body: 'Siéntese y cuénteme cómo está.' });
  });
});

describe('assistant tools', () => {
  it('raises an AI alert (type 3) with the description', async () => {
    const p = await patientWithPhone();
    model.script.push(
      { tool_calls: [{ name: 'crear_alerta', arguments: { description: 'Refiere dolor en el pecho desde anoche', priority: 1 } }] },
      { content: 'Avisé a su equipo.' },
    );
    await say(p.waId, 'Me duele el pecho');
    await t.jobs.runDue({ now: clock });
    const alerts = await select<{ alert_type: number; status: number; priority: number; description: string }>(
      t.sequelize,
      'SELECT alert_type, status, priority, description FROM alerts WHERE patient_id = :p',
      { p: p.id },
    );
    expect(alerts.map((a) => ({ ...a, alert_type: Number(a.alert_type), status: Number(a.status), priority: Number(a.priority) }))).toEqual(
      [{ alert_type: 3, status: 1, priority: 1, description: 'Refiere dolor en el pecho desde anoche' }],
    );
    // The model was told the tool's result, and the final text went to the patient.
    expect(model.requests.at(-1)!.messages.at(-1)).toMatchObject({ role: 'tool', content: expect.stringContaining('Alerta creada') });
    expect((await chat(p.id))[0]).toMatchObject({ custom_message: 'Avisé a su equipo.', ai: true });
  });

  it('writes a conversation summary note (type 5)', async () => {
    const p = await patientWithPhone();
    model.script.push(
      { tool_calls: [{ name: 'guardar_resumen', arguments: { summary: 'Paciente estable, tomó su medicación.' } }] },
      { content: 'Gracias por contarme.' },
    );
    await say(p.waId, 'Ya tomé la pastilla');
    await t.jobs.runDue({ now: clock });
    const notes = await select<{ observation_type: number; value_text: string; user_name: string }>(
      t.sequelize,
      'SELECT observation_type, value_text, user_name FROM observations WHERE patient_id = :p',
      { p: p.id },
    );
    expect(notes.map((n) => ({ ...n, observation_type: Number(n.observation_type) }))).toEqual([
      { observation_type: 5, value_text: 'Paciente estable, tomó su medicación.', user_name: 'Asistente IA' },
    ]);
  });

  it('records a measurement the patient reports through ingestion, so an alarm fires; the ia_alarm rule messages the patient', async () => {
    const p = await patientWithPhone();
    const alarmId = await insertReturningId(
      t.sequelize,
      `INSERT INTO alarms (client_id, name, type, clinical_element, priority, minimum_condition, maximum_condition, ia_alarm, ia_script, prompt_ia,
                           request_repeat_measurement, alarm_default_new_patients, status, created_at, updated_at)
       VALUES (:c, 'Hipertensión sistólica', 1, 3, 1, 90, 140, :yes, 'repetir_medicion', 'Pide repetir la medición con calma.', :no, :no, 1, :now, :now) RETURNING id`,
      { c: org.clientId, yes: true, no: false, now: clock },
    );
    await execute(t.sequelize, 'INSERT INTO patient_alarms (patient_id, alarm_id) VALUES (:p, :a)', { p: p.id, a: alarmId });
    model.script.push(
      { tool_calls: [{ name: 'registrar_medicion', arguments: { clinical_element: 3, value: 182, diastolic: 101 } }] },
      { content: 'Registré su presión de 182/101.' },
      { content: 'Su presión salió alta. Repita la medición en 10 minutos, en reposo.' },
    );
    await say(p.waId, 'Me tomé la presión: 182/101');
    await t.jobs.runDue({ now: clock });
    await t.jobs.runDue({ now: clock });
    await t.jobs.runDue({ now: clock });

    const readings = await select<{ clinical_element: number; value: number; source: string }>(
      t.sequelize,
      'SELECT clinical_element, value, source FROM measurements WHERE patient_id = :p ORDER BY clinical_element',
      { p: p.id },
    );
    expect(readings.map((r) => [Number(r.clinical_element), Number(r.value), r.source])).toEqual([
      [3, 182, 'assistant'],
      [4, 101, 'assistant'],
    ]);
    const alerts = await select<{ alert_type: number; alarm_id: number }>(
      t.sequelize,
      'SELECT alert_type, alarm_id FROM alerts WHERE patient_id = :p',
      { p: p.id },
    );
    expect(alerts.map((a) => [Number(a.alert_type), Number(a.alarm_id)])).toEqual([[0, alarmId]]);

    const messages = await chat(p.id);
    const alarmMessage = messages.find((m: { reason: string }) => m.reason === 'alarm');
    expect(alarmMessage).toMatchObject({ ai: true, custom_message: 'Su presión salió alta. Repita la medición en 10 minutos, en reposo.' });
    const alarmPrompt = model.requests.find((r) => r.messages.at(-1)!.content.includes('Hipertensión sistólica'))!;
    expect(alarmPrompt.messages.at(-1)!.content).toContain('Pide repetir la medición con calma.');
    expect(alarmPrompt.messages.at(-1)!.content).toContain('182 mmHg');
    expect(messages.find((m: { custom_message: string }) => m.custom_message === 'Registré su presión de 182/101.')).toMatchObject({
      ai: true,
    });
    // A retried reply does not record the reading twice.
    expect(
      (await select(t.sequelize, 'SELECT id FROM assistant_actions WHERE client_id = :c', { c: org.clientId })).length,
    ).toBeGreaterThan(0);
  });

  it('does not answer patients whose messaging is turned off', async () => {
    const p = await patientWithPhone();
    const off = await t.http.put(`/api/v1/patients/${p.id}/sme_info`).set(bearer(org.tokens.enfermeria)).send({ sme_enabled: false });
    expect(off.status).toBe(200);
    expect(off.body.sme_enabled).toBe(false);
    const before = model.requests.length;
    await say(p.waId, 'Hola');
    await t.jobs.runDue({ now: clock });
    expect(model.requests.length).toBe(before);
    expect((await chat(p.id)).length).toBe(1);
  });
});
