import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { execute, select } from '../../api/src/db/sql';
import { startTestProduct, createOrg, bearer, patientBody, type TestProduct, type Org } from '../support/product';

let t: TestProduct;
let a: Org;
let b: Org;
const clock = new Date('2026-11-21T15:00:00Z');

const readings = (card: string, secret: string | null, body: unknown) => {
  const req = t.http.post(`/api/v1/devices/${card}/readings`);
  return (secret === null ? req : req.set('X-Device-Secret', secret)).send(body as object);
};
const register = (body: object, token = a.tokens.admin) => t.http.post('/api/v1/devices').set(bearer(token)).send(body);

async function newPatient(org: Org, nid: string, fields: Record<string, unknown> = {}): Promise<number> {
  const res = await t.http.post('/api/v1/patients').set(bearer(org.tokens.admin)).send(patientBody({ nid }));
  expect(res.status).toBe(201);
  const sets = Object.keys(fields)
    .map((k) => `${k} = :${k}`)
    .join(', ');
  if (sets) await execute(t.sequelize, `UPDATE patients SET ${sets} WHERE id = :id`, { ...fields, id: res.body.id });
  return res.body.id;
}

const countFor = async (patientId: number) =>
  Number((await select<{ n: number }>(t.sequelize, 'SELECT COUNT(*) AS n FROM measurements WHERE patient_id = :p', { p: patientId }))[0].n);

beforeAll(async () => {
  t = await startTestProduct({ now: () => clock });
  a = await createOrg(t, 'Clinica Pasarela');
  b = await createOrg(t, 'Clinica Otra');
  await execute(t.sequelize, 'UPDATE clients SET multipatient = :yes WHERE id = :id', { yes: true, id: a.clientId });
});
afterAll(() => t.stop());

describe('device registration (admin only)', () => {
  it('registers a device and shows its secret once; the list never shows it', async () => {
    const res = await register({ card_id: 'GW-0001', name: 'Pasarela sala 1' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      card_id: 'GW-0001',
      multipatient: false,
      name: 'Pasarela sala 1',
      last_seen_at: null,
      secret: expect.stringMatching(/^vgd_[\w-]{43}$/),
    });
    const list = await t.http.get('/api/v1/devices').set(bearer(a.tokens.admin));
    expect(list.body).toEqual([expect.not.objectContaining({ secret: expect.anything() })]);
    const [row] = await select<{ secret_hash: string }>(t.sequelize, 'SELECT secret_hash FROM devices WHERE id = :id', { id: res.body.id });
    expect(row.secret_hash).not.toContain(res.body.secret);
  });

  it.each(['medico', 'enfermeria', 'consulta'] as const)('refuses %s (403)', async (role) => {
    expect((await register({ card_id: `GW-${role}` }, a.tokens[role])).status).toBe(403);
    expect((await t.http.get('/api/v1/devices').set(bearer(a.tokens[role]))).status).toBe(403);
  });

  it.each([
    [{ card_id: '' }, 'card_id', 'El número de tarjeta solo admite letras, números y . _ : -'],
    [{ card_id: 'GW 01' }, 'card_id', 'El número de tarjeta solo admite letras, números y . _ : -'],
    [{}, 'card_id', '¡El campo es requerido!'],
  ])('refuses %j with 400 on %s', async (body, field, message) => {
    const res = await register(body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ field, message });
  });

  it('refuses a card number already registered (409) and a multi-patient card for a client without it', async () => {
    expect((await register({ card_id: 'GW-0001' })).status).toBe(409);
    const res = await register({ card_id: 'GW-MULTI-B', multipatient: true }, b.tokens.admin);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ field: 'multipatient', message: 'El cliente no tiene habilitada la tarjeta multipaciente.' });
  });

  it("rotates the secret: the old one stops working; another client's device is 404", async () => {
    const patient = await newPatient(a, '1060000001', { card_id: 'GW-ROT' });
    const dev = (await register({ card_id: 'GW-ROT' })).body;
    expect((await readings('GW-ROT', dev.secret, { clinical_element: 1, value: 70 })).status).toBe(201);
    expect((await t.http.post(`/api/v1/devices/${dev.id}/secret`).set(bearer(b.tokens.admin))).status).toBe(404);
    const rotated = await t.http.post(`/api/v1/devices/${dev.id}/secret`).set(bearer(a.tokens.admin));
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).not.toBe(dev.secret);
    expect((await readings('GW-ROT', dev.secret, { clinical_element: 1, value: 70 })).status).toBe(401);
    expect((await readings('GW-ROT', rotated.body.secret, { clinical_element: 1, value: 71 })).status).toBe(201);
    expect(await countFor(patient)).toBe(2);
  });
});

describe('POST /api/v1/devices/:card_id/readings', () => {
  let patient: number;
  let secret: string;
  beforeAll(async () => {
    patient = await newPatient(a, '1070000001', { card_id: 'GW-HOME' });
    secret = (await register({ card_id: 'GW-HOME' })).body.secret;
  });

  it('stores a reading for the patient of the card, marked as from the device', async () => {
    const res = await readings('GW-HOME', secret, { clinical_element: 2, value: 96, when: '2026-11-21T14:00:00Z' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ stored: 1, duplicates: 0, measurements: [expect.any(Number)] });
    const [row] = await select<{ source: string; patient_id: number; client_id: number }>(
      t.sequelize,
      'SELECT source, patient_id, client_id FROM measurements WHERE id = :id',
      { id: res.body.measurements[0] },
    );
    expect(row).toEqual({ source: 'device', patient_id: patient, client_id: a.clientId });
  });

  it('answers the same 401 for an unknown card, a wrong secret and no secret', async () => {
    const unknown = await readings('GW-NOPE', secret, { clinical_element: 1, value: 70 });
    const wrong = await readings('GW-HOME', `${secret}x`, { clinical_element: 1, value: 70 });
    const none = await readings('GW-HOME', null, { clinical_element: 1, value: 70 });
    for (const res of [unknown, wrong, none]) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ code: 'unauthorized', message: 'Dispositivo no autorizado.' });
    }
  });

  it('does not accept a staff token instead of the device secret', async () => {
    const res = await t.http.post('/api/v1/devices/GW-HOME/readings').set(bearer(a.tokens.admin)).send({ clinical_element: 1, value: 70 });
    expect(res.status).toBe(401);
  });

  it('stores a retried batch exactly once (reading_id), blood pressure included', async () => {
    const batch = {
      readings: [
        { reading_id: 'r-1', clinical_element: 1, value: 72, when: '2026-11-21T14:10:00Z' },
        { reading_id: 'r-2', systolic: 125, diastolic: 82, when: '2026-11-21T14:11:00Z' },
        { reading_id: 'r-3', clinical_element: 6, value: 105, when: '2026-11-21T14:12:00Z' },
      ],
    };
    const before = await countFor(patient);
    const first = await readings('GW-HOME', secret, batch);
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ stored: 3, duplicates: 0 });
    expect(first.body.measurements).toHaveLength(4);
    const retry = await readings('GW-HOME', secret, {
      readings: [...batch.readings, { reading_id: 'r-4', clinical_element: 7, value: 36.4 }],
    });
    expect(retry.status).toBe(201);
    expect(retry.body).toMatchObject({ stored: 1, duplicates: 3 });
    expect(await countFor(patient)).toBe(before + 5);
  });

  it.each([
    [
      {
        readings: [
          { clinical_element: 1, value: 72 },
          { clinical_element: 7, value: 50 },
        ],
      },
      'readings.1.value',
      'El valor debe estar entre 30 y 45 °C',
    ],
    [
      {
        readings: [
          { reading_id: 'x', clinical_element: 1, value: 72 },
          { reading_id: 'x', clinical_element: 1, value: 73 },
        ],
      },
      'readings.1.reading_id',
      'El identificador de lectura está repetido en el lote.',
    ],
    [{ clinical_element: 1, value: 72, patient_nid: '99999999' }, 'patient_nid', 'El paciente no está asociado a esta tarjeta.'],
    [{ clinical_element: 4, value: 80 }, 'diastolic', 'La presión arterial se registra con sistólica y diastólica juntas.'],
  ])('refuses %j with 400 on %s and stores nothing', async (body, field, message) => {
    const before = await countFor(patient);
    const res = await readings('GW-HOME', secret, body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ field, message });
    expect(await countFor(patient)).toBe(before);
  });

  it('refuses readings for an inactive patient (409) and for a card assigned to nobody', async () => {
    const id = await newPatient(a, '1070000002', { card_id: 'GW-INACT', status: 0 });
    const s = (await register({ card_id: 'GW-INACT' })).body.secret;
    const res = await readings('GW-INACT', s, { clinical_element: 1, value: 70 });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('El paciente está inactivo y no puede enviar mediciones. Actívelo para registrarlas.');
    expect(await countFor(id)).toBe(0);
    const lonely = (await register({ card_id: 'GW-LONELY' })).body.secret;
    expect((await readings('GW-LONELY', lonely, { clinical_element: 1, value: 70 })).body.message).toBe(
      'La tarjeta no está asignada a ningún paciente.',
    );
  });
});

describe('multi-patient card: each reading names its patient by document', () => {
  let ana: number;
  let luis: number;
  let secret: string;
  beforeAll(async () => {
    ana = await newPatient(a, '1080000001', { multipatient_card_id: 'GW-RES' });
    luis = await newPatient(a, '1080000002', { multipatient_card_id: 'GW-RES' });
    // Same document in another client: never reachable through this client's card.
    await newPatient(b, '1080000003', { multipatient_card_id: 'GW-RES' });
    const res = await register({ card_id: 'GW-RES', multipatient: true });
    expect(res.status).toBe(201);
    secret = res.body.secret;
  });

  it('stores each reading for the patient it names', async () => {
    const res = await readings('GW-RES', secret, {
      readings: [
        { patient_nid: '1080000001', clinical_element: 1, value: 66 },
        { patient_nid: '1080000002', systolic: 140, diastolic: 90 },
      ],
    });
    expect(res.status).toBe(201);
    expect(await countFor(ana)).toBe(1);
    expect(await countFor(luis)).toBe(2);
  });

  it('refuses a reading without a document, or naming a patient not on the card', async () => {
    const missing = await readings('GW-RES', secret, { clinical_element: 1, value: 66 });
    expect(missing.body).toMatchObject({
      field: 'patient_nid',
      message: 'Una tarjeta multipaciente debe indicar el documento del paciente en cada lectura.',
    });
    const foreign = await readings('GW-RES', secret, { readings: [{ patient_nid: '1080000003', clinical_element: 1, value: 66 }] });
    expect(foreign.status).toBe(400);
    expect(foreign.body).toMatchObject({ field: 'readings.0.patient_nid', message: 'El paciente no está asociado a esta tarjeta.' });
  });
});

describe('card numbers are unique per client (P147)', () => {
  const card = 'GW-SHARED';
  const devicesOf = async (org: Org) => (await t.http.get('/api/v1/devices').set(bearer(org.tokens.admin))).body as Array<{ id: number }>;
  const rowsOf = (patientId: number) =>
    select<{ device_id: number; client_id: number; value: number }>(
      t.sequelize,
      'SELECT device_id, client_id, value FROM measurements WHERE patient_id = :p ORDER BY id',
      { p: patientId },
    );
  let inA: number;
  let inB: number;
  let devA: { id: number; secret: string };
  let devB: { id: number; secret: string };
  beforeAll(async () => {
    inA = await newPatient(a, '1090000001', { card_id: card });
    inB = await newPatient(b, '1090000002', { card_id: card });
  });

  it("registers a number another client uses, and the answer says nothing of the other client's device", async () => {
    const first = await register({ card_id: card, name: 'Pasarela A' });
    expect(first.status).toBe(201);
    devA = first.body;
    // The first device has been seen: nothing of it may show in the second client's answer.
    expect((await readings(card, devA.secret, { clinical_element: 1, value: 61 })).status).toBe(201);
    const second = await register({ card_id: card }, b.tokens.admin);
    expect(second.status, JSON.stringify(second.body)).toBe(201);
    devB = second.body;
    expect(second.body).toEqual({
      id: expect.any(Number),
      card_id: card,
      multipatient: false,
      name: null,
      secret_rotated_at: clock.toISOString(),
      last_seen_at: null,
      created_at: clock.toISOString(),
      secret: expect.stringMatching(/^vgd_[\w-]{43}$/),
    });
    expect(devB.id).not.toBe(devA.id);
    expect(devB.secret).not.toBe(devA.secret);
  });

  it("sends each device's readings to its own client's patient", async () => {
    expect((await readings(card, devB.secret, { clinical_element: 1, value: 62 })).status).toBe(201);
    expect((await readings(card, devA.secret, { clinical_element: 1, value: 63 })).status).toBe(201);
    expect(await rowsOf(inA)).toEqual([
      { device_id: devA.id, client_id: a.clientId, value: 61 },
      { device_id: devA.id, client_id: a.clientId, value: 63 },
    ]);
    expect(await rowsOf(inB)).toEqual([{ device_id: devB.id, client_id: b.clientId, value: 62 }]);
  });

  it('answers the shared number with a wrong secret like an unknown card', async () => {
    const wrong = await readings(card, `${devA.secret.slice(0, -1)}x`, { clinical_element: 1, value: 70 });
    const unknown = await readings('GW-NADIE', devA.secret, { clinical_element: 1, value: 70 });
    for (const res of [wrong, unknown]) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ code: 'unauthorized', message: 'Dispositivo no autorizado.' });
    }
    expect((await rowsOf(inA)).length + (await rowsOf(inB)).length).toBe(3);
  });

  it("lists each client's own device only", async () => {
    const listA = await devicesOf(a);
    const listB = await devicesOf(b);
    expect(listA.map((d) => d.id)).toContain(devA.id);
    expect(listA.map((d) => d.id)).not.toContain(devB.id);
    expect(listB).toEqual([expect.objectContaining({ id: devB.id, card_id: card, last_seen_at: clock.toISOString() })]);
  });

  it('answers a conflict only within one client, and a rotation in one client leaves the other alone', async () => {
    for (const org of [a, b]) {
      const again = await register({ card_id: card }, org.tokens.admin);
      expect(again.status).toBe(409);
      expect(again.body).toMatchObject({ field: 'card_id', message: 'Ya existe un dispositivo con ese número de tarjeta.' });
    }
    expect((await t.http.post(`/api/v1/devices/${devB.id}/secret`).set(bearer(b.tokens.admin))).status).toBe(200);
    expect((await readings(card, devB.secret, { clinical_element: 1, value: 64 })).status).toBe(401);
    expect((await readings(card, devA.secret, { clinical_element: 1, value: 65 })).status).toBe(201);
    expect((await t.http.delete(`/api/v1/devices/${devA.id}`).set(bearer(b.tokens.admin))).status).toBe(404);
  });
});
