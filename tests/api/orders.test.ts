import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { startTestProduct, createOrg, bearer, patientBody, type TestProduct, type Org } from '../support/product';
import { generateActivityTimes, medicationActivityCount, vitalSignActivityCount } from '@vigia/contract/rules/activities';

let t: TestProduct;
let a: Org;
let b: Org;
// 10:00 in Bogotá.
const clock = new Date('2026-11-21T15:00:00Z');
let patientId: number;
let otherPatientId: number;

const base = (id = patientId) => `/api/v1/patients/${id}/orders`;
const vital = { order_type: 0, clinical_element: 1, frequency_type: 0, hours: ['08:00', '20:00'], during: 3 };
const medication = { order_type: 1, medicine_id: 17, frecuency: 8, time_unit: 0, during: 2, amount: '1', medication_unit: 3 };

async function newPatient(org: Org, nid: string): Promise<number> {
  const res = await t.http
    .post('/api/v1/patients')
    .set(bearer(org.tokens.admin))
    .send(patientBody({ nid, cellphone: `300${nid.slice(-7)}` }));
  expect(res.status).toBe(201);
  return res.body.id;
}

beforeAll(async () => {
  t = await startTestProduct({ now: () => clock });
  a = await createOrg(t, 'Clinica Ordenes');
  b = await createOrg(t, 'Clinica Otra');
  patientId = await newPatient(a, '1022334455');
  otherPatientId = await newPatient(b, '1022334466');
});
afterAll(() => t.stop());

describe('single orders (02 §2.3, §2.5)', () => {
  it('creates a vital-sign order No Gestionada, then schedules it: start_at + POST activities', async () => {
    const created = await t.http.post(base()).set(bearer(a.tokens.medico)).send({ order: vital });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      order_type: 0,
      order_type_name: 'Signos Vitales',
      status: 0,
      status_name: 'No Gestionada',
      notify: true,
      permanent: false,
      clinical_element_name: 'Frecuencia cardiaca',
      days: [0, 1, 2, 3, 4, 5, 6],
      hours: ['08:00', '20:00'],
      programmable: true,
      to_human: 'Medir Frecuencia cardiaca todos los días a las 08:00, 20:00 durante 3 días',
      description: 'Medir Frecuencia cardiaca todos los días a las 08:00, 20:00 durante 3 días.',
      user: { name: 'Usuario Medico' },
      time_zone_patient: 'America/Bogota',
    });
    const id = created.body.id;
    // Notifications can only be toggled once programmed.
    expect((await t.http.put(`${base()}/${id}`).set(bearer(a.tokens.medico)).send({ notify: false })).status).toBe(409);
    const noStart = await t.http.post(`${base()}/${id}/activities`).set(bearer(a.tokens.medico));
    expect(noStart.status).toBe(400);
    expect(noStart.body.field).toBe('start_at');
    const past = await t.http.put(`${base()}/${id}`).set(bearer(a.tokens.medico)).send({ start_at: '2026-11-19T13:00:00Z' });
    expect(past.body).toMatchObject({ field: 'start_at', message: 'La fecha de inicio no puede ser anterior a hoy.' });
    // Tomorrow 07:00 in Bogotá.
    const start = await t.http
      .put(`${base()}/${id}`)
      .set(bearer(a.tokens.medico))
      .send({ order: { start_at: '2026-11-22T12:00:00Z' } });
    expect(start.status).toBe(200);
    expect(start.body.start_at).toBe('2026-11-22T12:00:00.000Z');
    const gen = await t.http.post(`${base()}/${id}/activities`).set(bearer(a.tokens.enfermeria));
    expect(gen.status).toBe(201);
    expect(gen.body.total_activities).toBe(vitalSignActivityCount({ ...vital, days: [] }));
    expect(gen.body.order).toMatchObject({ status: 1, status_name: 'Programada', activities_count: 6, programmable: false, progress: 0 });
    expect((await t.http.post(`${base()}/${id}/activities`).set(bearer(a.tokens.medico))).status).toBe(409);
    const acts = await t.http.get(`${base()}/${id}/activities`).set(bearer(a.tokens.consulta));
    expect(acts.body.map((x: { programmed_at: string }) => x.programmed_at)).toEqual([
      '2026-11-22T13:00:00.000Z',
      '2026-11-23T01:00:00.000Z',
      '2026-11-23T13:00:00.000Z',
      '2026-11-24T01:00:00.000Z',
      '2026-11-24T13:00:00.000Z',
      '2026-11-25T01:00:00.000Z',
    ]);
    expect(acts.body[0]).toMatchObject({ status: 0, status_name: 'Programada', order_id: id, order_description: created.body.description });
    // Editing is for No Gestionada orders only.
    expect((await t.http.put(`${base()}/${id}`).set(bearer(a.tokens.medico)).send({ during: 5 })).status).toBe(409);
    // The notification toggle works in Programada.
    const paused = await t.http.patch(`${base()}/${id}`).set(bearer(a.tokens.enfermeria)).send({ notify: false });
    expect(paused.body.notify).toBe(false);
  });

  it('creates a medication order with the 02 §9 defaults and edits it while No Gestionada', async () => {
    const res = await t.http.post(base()).set(bearer(a.tokens.admin)).send({ order_type: 1, medicine_id: 17 });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      frecuency: 1,
      time_unit: 0,
      dose: 1,
      during: 1,
      amount: '1',
      medication_unit: 3,
      medication_unit_name: 'tableta(s)',
      notify: true,
      medicine_id: 17,
      order_type_name: 'Medicamentos',
    });
    expect(res.body.medicine_name).toMatch(/^Losartán/);
    const edited = await t.http
      .put(`${base()}/${res.body.id}`)
      .set(bearer(a.tokens.medico))
      .send({ frecuency: 12, during: 30, amount: '1/2', permanent: true });
    expect(edited.status).toBe(200);
    expect(edited.body.to_human).toBe(`Tomar 1/2 de tableta(s) de ${res.body.medicine_name} cada 12 horas durante 30 días`);
    expect(edited.body.description).toBe(`Tomar 1/2 de tableta(s) de ${res.body.medicine_name} cada 12 horas, por tiempo indefinido.`);
  });

  it.each([
    [{ order_type: 1 }, 'medicine_id', '¡El campo es requerido!'],
    [{ order_type: 0 }, 'clinical_element', '¡El campo es requerido!'],
    [{ order_type: 0, clinical_element: 1, hours: [] }, 'hours', 'Seleccione al menos una hora de toma'],
    [
      { order_type: 0, clinical_element: 1, hours: ['08:00'], frequency_type: 1, days: [] },
      'days',
      'Seleccione al menos un día de la semana',
    ],
    [
      { order_type: 1, medicine_id: 5, frecuency: 72, time_unit: 0, during: 1 },
      'frecuency',
      'La frecuencia no genera ninguna actividad en la duración indicada',
    ],
    [{ order_type: 1, medicine_id: 9999 }, 'medicine_id', 'Seleccione un medicamento del catálogo'],
    [{ order_type: 1, medicine_id: 5, amount: '3/4' }, 'amount', 'Cantidad no válida'],
    [{ order_type: 0, clinical_element: 1, hours: ['8:00'] }, 'hours.0', 'La hora debe tener el formato HH:MM'],
    [{ order_type: 0, clinical_element: 9, hours: ['08:00'] }, 'clinical_element', 'Elemento clínico no válido'],
    [{ order_type: 1, medicine_id: 5, during: 0 }, 'during', 'La duración debe estar entre 1 y 365'],
    [{ order_type: 2 }, 'order_type', 'Tipo de orden no válido'],
    [{ order_type: 1, medicine_id: 5, color: 'red' }, 'color', "El campo 'color' no está permitido."],
  ])('refuses %j with 400 on %s', async (body, field, message) => {
    const res = await t.http.post(base()).set(bearer(a.tokens.medico)).send(body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ field, message });
  });

  it.each(['enfermeria', 'consulta'] as const)('refuses order creation by %s (P1) with 403', async (role) => {
    expect((await t.http.post(base()).set(bearer(a.tokens[role])).send(vital)).status).toBe(403);
    expect(
      (
        await t.http
          .post(`${base()}/bulk`)
          .set(bearer(a.tokens[role]))
          .send({ orders: [{ ...vital, start_at: '2026-11-22T00:00:00Z' }] })
      ).status,
    ).toBe(403);
  });

  it('consulta reads but cannot schedule, cancel or toggle notifications', async () => {
    const o = (await t.http.post(base()).set(bearer(a.tokens.medico)).send(vital)).body;
    expect((await t.http.get(`${base()}/${o.id}`).set(bearer(a.tokens.consulta))).status).toBe(200);
    expect((await t.http.put(`${base()}/${o.id}`).set(bearer(a.tokens.consulta)).send({ start_at: '2026-11-22T12:00:00Z' })).status).toBe(
      403,
    );
    expect((await t.http.post(`${base()}/${o.id}/activities`).set(bearer(a.tokens.consulta))).status).toBe(403);
    expect((await t.http.put(`${base()}/${o.id}`).set(bearer(a.tokens.consulta)).send({ status: 3 })).status).toBe(403);
    expect((await t.http.get(`${base()}/${o.id}`).set(bearer(a.tokens.consulta))).body.status).toBe(0);
  });

  it('answers 404 across clients for patients, orders and activities', async () => {
    const o = (await t.http.post(base()).set(bearer(a.tokens.medico)).send(vital)).body;
    for (const path of [
      `${base()}/${o.id}`,
      `${base()}/${o.id}/activities`,
      `${base()}`,
      '/api/v1/patients/' + patientId + '/activities',
    ]) {
      expect((await t.http.get(path).set(bearer(b.tokens.admin))).status).toBe(404);
    }
    expect((await t.http.put(`${base()}/${o.id}`).set(bearer(b.tokens.admin)).send({ status: 3 })).status).toBe(404);
    expect((await t.http.post(base(otherPatientId)).set(bearer(a.tokens.admin)).send(vital)).status).toBe(404);
    // Another patient's order id under this patient: 404 too.
    const mine = await newPatient(a, '1022334477');
    expect((await t.http.get(`${base(mine)}/${o.id}`).set(bearer(a.tokens.admin))).status).toBe(404);
    const list = await t.http.get('/api/v1/orders').set(bearer(b.tokens.admin));
    expect(list.body.find((x: { id: number }) => x.id === o.id)).toBeUndefined();
  });

  it('cancels an order and its pending activities (status 3); a closed order is view-only', async () => {
    const o = (await t.http.post(base()).set(bearer(a.tokens.medico)).send(vital)).body;
    await t.http.put(`${base()}/${o.id}`).set(bearer(a.tokens.medico)).send({ start_at: '2026-11-22T12:00:00Z' });
    await t.http.post(`${base()}/${o.id}/activities`).set(bearer(a.tokens.medico));
    const cancelled = await t.http
      .put(`${base()}/${o.id}`)
      .set(bearer(a.tokens.enfermeria))
      .send({ order: { status: 3 } });
    expect(cancelled.body).toMatchObject({ status: 3, status_name: 'Cancelada' });
    const acts = (await t.http.get(`${base()}/${o.id}/activities`).set(bearer(a.tokens.admin))).body;
    expect(acts.every((x: { status: number }) => x.status === 3)).toBe(true);
    const again = await t.http.put(`${base()}/${o.id}`).set(bearer(a.tokens.admin)).send({ notify: false });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('La orden está cerrada: solo se puede consultar.');
    const badStatus = await t.http.put(`${base()}/${o.id}`).set(bearer(a.tokens.admin)).send({ status: 4 });
    expect(badStatus.body).toMatchObject({ field: 'status', message: 'Solo se puede cambiar el estado a Cancelada (3)' });
  });
});

describe('bulk orders (02 §2.4)', () => {
  it('creates one medication and one vital-sign order with the activities the shared generator counts', async () => {
    const items = [
      { ...medication, start_at: '2026-11-22T00:00:00Z' },
      {
        order_type: 0,
        clinical_element: 3,
        frequency_type: 1,
        days: [5, 1],
        hours: ['07:00'],
        during: 2,
        notify: false,
        start_at: '2026-11-22T00:00:00Z',
      },
    ];
    const res = await t.http.post(`${base()}/bulk`).set(bearer(a.tokens.medico)).send({ orders: items });
    expect(res.status).toBe(201);
    const expected =
      medicationActivityCount(medication) + vitalSignActivityCount({ frequency_type: 1, days: [1, 5], hours: ['07:00'], during: 2 });
    expect(res.body).toMatchObject({ total_orders: 2, total_activities: expected });
    expect(expected).toBe(6 + 4);
    const [medId, vitalId] = res.body.order_ids;
    const med = (await t.http.get(`${base()}/${medId}`).set(bearer(a.tokens.admin))).body;
    expect(med).toMatchObject({ status: 1, activities_count: 6, start_at: '2026-11-22T13:00:00.000Z' });
    const v = (await t.http.get(`${base()}/${vitalId}`).set(bearer(a.tokens.admin))).body;
    expect(v).toMatchObject({ status: 1, days: [1, 5], notify: false, clinical_element_name: 'Presión arterial' });
    const acts = (await t.http.get(`${base()}/${vitalId}/activities`).set(bearer(a.tokens.admin))).body;
    const times = generateActivityTimes(
      { order_type: 0, frequency_type: 1, days: [1, 5], hours: ['07:00'], during: 2 },
      { date: '2026-11-22', time: '08:00' },
      'America/Bogota',
    );
    expect(acts.map((x: { programmed_at: string }) => x.programmed_at)).toEqual(times.map((d) => d.toISOString()));
  });

  it('replaces a past start date by today and leaves out the hours already past', async () => {
    const res = await t.http
      .post(`${base()}/bulk`)
      .set(bearer(a.tokens.medico))
      .send({
        orders: [
          { order_type: 0, clinical_element: 6, frequency_type: 0, hours: ['08:00', '18:00'], during: 1, start_at: '2026-11-01T00:00:00Z' },
        ],
      });
    // Today 08:00 has passed at 10:00; 18:00 has not.
    expect(res.body.total_activities).toBe(1);
  });

  it.each([
    [{ orders: [] }, 'orders', 'No hay órdenes válidas para crear'],
    [
      { orders: [{ ...medication, medicine_id: undefined, start_at: '2026-11-22T00:00:00Z' }] },
      'orders.0.medicine_id',
      '¡El campo es requerido!',
    ],
    [
      {
        orders: [
          { ...vital, start_at: '2026-11-22T00:00:00Z' },
          { ...vital, frequency_type: 1, days: [], start_at: '2026-11-22T00:00:00Z' },
        ],
      },
      'orders.1.days',
      'Seleccione al menos un día de la semana',
    ],
    [{ orders: [{ ...vital }] }, 'orders.0.start_at', '¡El campo es requerido!'],
    [{ orders: [{ ...vital, start_at: null }] }, 'orders.0.start_at', 'La fecha no es válida'],
  ])('refuses %j with 400 and creates nothing', async (body, field, message) => {
    const before = Number((await t.http.get('/api/v1/orders').set(bearer(a.tokens.admin))).headers['x-total-count']);
    const res = await t.http.post(`${base()}/bulk`).set(bearer(a.tokens.medico)).send(body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ field, message });
    expect(Number((await t.http.get('/api/v1/orders').set(bearer(a.tokens.admin))).headers['x-total-count'])).toBe(before);
  });
});

describe('lists', () => {
  it("patient orders: filter '0' to manage, '3' history, type filter, simple-rest paging", async () => {
    const toManage = await t.http.get(`${base()}?filter=0`).set(bearer(a.tokens.consulta));
    expect(toManage.status).toBe(200);
    expect(toManage.body.length).toBeGreaterThan(0);
    expect(toManage.body.every((o: { status: number }) => o.status === 0)).toBe(true);
    const history = await t.http.get(`${base()}?filter=3&type=1&_start=0&_end=5`).set(bearer(a.tokens.consulta));
    expect(history.body.every((o: { status: number; order_type: number }) => o.status >= 1 && o.order_type === 1)).toBe(true);
    expect(Number(history.headers['x-total-count'])).toBeGreaterThanOrEqual(history.body.length);
    expect((await t.http.get(`${base()}?filter=2`).set(bearer(a.tokens.consulta))).status).toBe(400);
  });

  it("'Gestión de órdenes' tabs (D7): 0 No Gestionadas, 1 Programadas (1, 2), 2 Cerradas (3, 4)", async () => {
    const tab = async (filter: string) =>
      (await t.http.get(`/api/v1/orders?filter=${filter}&_start=0&_end=100`).set(bearer(a.tokens.consulta))).body as Array<{
        status: number;
        patient: { full_name: string };
      }>;
    expect((await tab('0')).every((o) => o.status === 0)).toBe(true);
    expect((await tab('1')).every((o) => o.status === 1 || o.status === 2)).toBe(true);
    const closed = await tab('2');
    expect(closed.length).toBeGreaterThan(0);
    expect(closed.every((o) => o.status >= 3)).toBe(true);
    expect(closed[0].patient.full_name).toBe('María José Pérez Gómez');
  });

  it('medicines: search and detail', async () => {
    const res = await t.http.get('/api/v1/medicines?q=losartan').set(bearer(a.tokens.consulta));
    expect(res.body.map((m: { name: string }) => m.name)).toEqual(['Losartán', 'Losartán']);
    expect(Number((await t.http.get('/api/v1/medicines').set(bearer(a.tokens.consulta))).headers['x-total-count'])).toBeGreaterThanOrEqual(
      100,
    );
    expect((await t.http.get('/api/v1/medicines/17').set(bearer(a.tokens.consulta))).body).toEqual({
      id: 17,
      name: 'Losartán',
      presentation: 'Tableta 50 mg',
    });
    expect((await t.http.get('/api/v1/medicines/9999').set(bearer(a.tokens.consulta))).status).toBe(404);
  });
});

describe('patient status (D9, P2)', () => {
  it('an inactive patient gets no orders; a deceased one neither, and its orders are cancelled', async () => {
    const id = await newPatient(a, '1022334488');
    const o = (await t.http.post(base(id)).set(bearer(a.tokens.medico)).send(vital)).body;
    expect((await t.http.put(`/api/v1/patients/${id}`).set(bearer(a.tokens.medico)).send({ status: 0 })).status).toBe(200);
    const inactive = await t.http.post(base(id)).set(bearer(a.tokens.medico)).send(vital);
    expect(inactive.status).toBe(403);
    expect(inactive.body.message).toBe('El paciente está inactivo: actívelo antes de gestionar sus órdenes y actividades.');
    await t.http.put(`/api/v1/patients/${id}`).set(bearer(a.tokens.medico)).send({ status: 1 });
    expect((await t.http.put(`/api/v1/patients/${id}`).set(bearer(a.tokens.medico)).send({ status: 3 })).status).toBe(200);
    expect((await t.http.get(`${base(id)}/${o.id}`).set(bearer(a.tokens.medico))).body.status).toBe(3);
    const dead = await t.http.post(base(id)).set(bearer(a.tokens.admin)).send(vital);
    expect(dead.status).toBe(403);
    expect(
      (
        await t.http
          .post(`${base(id)}/bulk`)
          .set(bearer(a.tokens.admin))
          .send({ orders: [{ ...vital, start_at: '2026-11-22T00:00:00Z' }] })
      ).status,
    ).toBe(403);
  });
});
