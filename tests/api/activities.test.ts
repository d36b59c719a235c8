import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { select } from '../../api/src/db/sql';
import { runLifecycle } from '../../api/src/modules/orders/orders.lifecycle';
import { startTestProduct, createOrg, bearer, patientBody, PASSWORD, type TestProduct, type Org } from '../support/product';

let t: TestProduct;
let a: Org;
let b: Org;
// 10:00 in Bogotá (UTC-5).
let clock = new Date('2026-11-21T15:00:00Z');
const TOMORROW = '2026-11-22T00:00:00Z';

async function newPatient(org: Org, nid: string): Promise<number> {
  const res = await t.http
    .post('/api/v1/patients')
    .set(bearer(org.tokens.admin))
    .send(patientBody({ nid, cellphone: `300${nid.slice(-7)}` }));
  expect(res.status).toBe(201);
  return res.body.id;
}

async function patientToken(nid: string, phone: string): Promise<string> {
  const req = await t.http.post('/api/v1/request_otp').send({ nid });
  for (let i = 0; i < 500; i++) {
    const sms = await t.http.get(`/api/v1/sms_outbox?to=${phone}`).set(bearer(a.tokens.admin));
    if (sms.body.length) {
      const code = sms.body[0].body.match(/\d{4,8}/)![0];
      const ok = await t.http.post('/api/v1/verify_otp').send({ nid, otp_code: code, challenge_id: req.body.challenge_id });
      return ok.body.token;
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('no SMS');
}

async function bulk(patientId: number, orders: object[]) {
  const res = await t.http.post(`/api/v1/patients/${patientId}/orders/bulk`).set(bearer(a.tokens.medico)).send({ orders });
  expect(res.status).toBe(201);
  return res.body as { total_orders: number; total_activities: number; order_ids: number[] };
}

const activitiesOf = async (patientId: number, orderId: number) =>
  (await t.http.get(`/api/v1/patients/${patientId}/orders/${orderId}/activities`).set(bearer(a.tokens.consulta))).body as Array<{
    id: number;
    status: number;
    programmed_at: string;
  }>;
const orderOf = async (patientId: number, orderId: number) =>
  (await t.http.get(`/api/v1/patients/${patientId}/orders/${orderId}`).set(bearer(a.tokens.consulta))).body;
const alertsOf = (patientId: number) =>
  select<{ id: number; alert_type: number; status: number; description: string; activity_id: number | null }>(
    t.sequelize,
    'SELECT id, alert_type, status, description, activity_id FROM alerts WHERE patient_id = :patientId ORDER BY id',
    { patientId },
  );
const remindersOf = (patientId: number) =>
  select<{ id: number; body: string }>(t.sequelize, "SELECT id, body FROM messages WHERE patient_id = :patientId AND reason = 'reminder'", {
    patientId,
  });

/** Sessions last an hour of the injected clock: sign in again after moving it. */
async function relogin() {
  for (const org of [a, b]) {
    for (const role of ['admin', 'medico', 'enfermeria', 'consulta'] as const) {
      const res = await t.http.post('/api/v1/sessions').send({ email: org.users[role].email, password: PASSWORD });
      org.tokens[role] = res.body.token;
    }
  }
}

async function tick(iso: string) {
  clock = new Date(iso);
  await t.jobs.runDue({ now: clock, kinds: ['orders.lifecycle'] });
  await relogin();
}

beforeAll(async () => {
  t = await startTestProduct({ now: () => clock });
  a = await createOrg(t, 'Clinica Actividades');
  b = await createOrg(t, 'Clinica Lejana');
});
afterAll(() => t.stop());

describe('lifecycle through the job queue (D7, D11)', () => {
  let patientId: number;
  let vitalId: number;
  let medId: number;

  it('moves activities and orders with the injected clock, and a second run changes nothing', async () => {
    patientId = await newPatient(a, '1033000001');
    const created = await bulk(patientId, [
      { order_type: 0, clinical_element: 1, frequency_type: 0, hours: ['08:00'], during: 2, start_at: TOMORROW },
      { order_type: 1, medicine_id: 1, frecuency: 1, time_unit: 1, during: 2, amount: '1', medication_unit: 3, start_at: TOMORROW },
    ]);
    [vitalId, medId] = created.order_ids;
    expect(created.total_activities).toBe(4);

    await tick('2026-11-22T12:59:00Z');
    expect((await activitiesOf(patientId, vitalId)).map((x) => x.status)).toEqual([0, 0]);
    expect((await orderOf(patientId, vitalId)).status).toBe(1);

    // 08:05 in Bogotá: 'En proceso', the orders 'En ejecución', one reminder per activity.
    await tick('2026-11-22T13:05:00Z');
    expect((await activitiesOf(patientId, vitalId)).map((x) => x.status)).toEqual([1, 0]);
    expect(await orderOf(patientId, medId)).toMatchObject({ status: 2, status_name: 'En ejecución' });
    const reminders = await remindersOf(patientId);
    expect(reminders).toHaveLength(2);
    expect(reminders.map((r) => r.body).join(' ')).toContain('es hora de su medicamento (08:00)');
    await tick('2026-11-22T13:06:00Z');
    expect(await remindersOf(patientId)).toHaveLength(2);
  });

  it('a matching reading completes the vital-sign activity; the patient confirms the medication', async () => {
    clock = new Date('2026-11-22T13:10:00Z');
    await relogin();
    const reading = await t.http
      .post(`/api/v1/patients/${patientId}/measurements`)
      .set(bearer(a.tokens.enfermeria))
      .send({ clinical_element: 1, value: 70, when: '2026-11-22T13:10:00Z' });
    expect(reading.status).toBe(201);
    expect((await activitiesOf(patientId, vitalId)).map((x) => x.status)).toEqual([2, 0]);

    const [medToday, medTomorrow] = await activitiesOf(patientId, medId);
    const token = await patientToken('1033000001', '3003000001');
    const early = await t.http.post(`/api/v1/patients/${patientId}/activities/${medTomorrow.id}/confirm`).set(bearer(token));
    expect(early.status).toBe(409);
    expect(early.body.message).toBe('La toma solo se puede confirmar durante su hora programada.');
    const vitalAct = (await activitiesOf(patientId, vitalId))[1];
    expect((await t.http.post(`/api/v1/patients/${patientId}/activities/${vitalAct.id}/confirm`).set(bearer(token))).status).toBe(409);
    const ok = await t.http.post(`/api/v1/patients/${patientId}/activities/${medToday.id}/confirm`).set(bearer(token));
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ status: 2, status_name: 'Completada', completed_at: '2026-11-22T13:10:00.000Z' });
    // Another patient's token cannot confirm it; consulta cannot either.
    const other = await newPatient(a, '1033000002');
    expect((await t.http.post(`/api/v1/patients/${other}/activities/${medToday.id}/confirm`).set(bearer(a.tokens.admin))).status).toBe(404);
    expect(
      (await t.http.post(`/api/v1/patients/${patientId}/activities/${medToday.id}/confirm`).set(bearer(a.tokens.consulta))).status,
    ).toBe(403);
  });

  it('the hour passes without data: No reportada and one compliance alert each (type 1 and 2); orders complete', async () => {
    await tick('2026-11-23T13:02:00Z');
    expect(await remindersOf(patientId)).toHaveLength(4);
    await tick('2026-11-23T14:01:00Z');
    expect((await activitiesOf(patientId, vitalId)).map((x) => x.status)).toEqual([2, 6]);
    expect((await activitiesOf(patientId, medId)).map((x) => x.status)).toEqual([2, 6]);
    const alerts = await alertsOf(patientId);
    expect(alerts.map((x) => x.alert_type).sort()).toEqual([1, 2]);
    expect(alerts.every((x) => x.status === 1)).toBe(true);
    expect(alerts.find((x) => x.alert_type === 1)!.description).toBe(
      'No se recibió la medición de Frecuencia cardiaca programada para el 2026-11-23 a las 08:00.',
    );
    const vital = await orderOf(patientId, vitalId);
    expect(vital).toMatchObject({ status: 4, status_name: 'Completada', progress: 50 });
    // Twice, and two sweeps at once (two API processes): nothing more happens.
    await tick('2026-11-23T14:02:00Z');
    await Promise.all([
      runLifecycle({ sequelize: t.sequelize, now: clock, jobs: t.jobs, log: () => {} }),
      runLifecycle({ sequelize: t.sequelize, now: clock, jobs: t.jobs, log: () => {} }),
    ]);
    expect(await alertsOf(patientId)).toHaveLength(2);
    expect(await remindersOf(patientId)).toHaveLength(4);
  });

  it('stale data: an active vital-sign order without readings for longer than its interval raises one alert', async () => {
    clock = new Date('2026-11-21T15:00:00Z');
    await relogin();
    const id = await newPatient(a, '1033000003');
    const {
      order_ids: [orderId],
    } = await bulk(id, [
      { order_type: 0, clinical_element: 6, frequency_type: 0, hours: ['08:00'], during: 5, start_at: TOMORROW, notify: false },
    ]);
    await tick('2026-11-22T13:05:00Z');
    await tick('2026-11-23T13:30:00Z');
    // Only the missed first activity: 25 hours have not yet passed since it.
    expect((await alertsOf(id)).map((x) => x.description)).toEqual([
      'No se recibió la medición de Glucosa programada para el 2026-11-22 a las 08:00.',
    ]);
    await tick('2026-11-23T14:10:00Z');
    const alerts = await alertsOf(id);
    expect(alerts.map((x) => x.alert_type)).toEqual([1, 1, 1]);
    expect(alerts.map((x) => x.description)).toContain('Sin datos de Glucosa en las últimas 25 horas.');
    await tick('2026-11-23T14:11:00Z');
    await tick('2026-11-23T18:00:00Z');
    expect(await alertsOf(id)).toHaveLength(3);
    expect((await orderOf(id, orderId)).status).toBe(2);
  });

  it('stale data: a reading of the element clears the flag, and a new silence raises a new alert', async () => {
    clock = new Date('2026-11-21T15:00:00Z');
    await relogin();
    const id = await newPatient(a, '1033000005');
    await bulk(id, [
      { order_type: 0, clinical_element: 6, frequency_type: 0, hours: ['08:00'], during: 5, start_at: TOMORROW, notify: false },
    ]);
    const stale = async () => (await alertsOf(id)).filter((x) => /^Sin datos/.test(x.description));
    // Minutes of their own: the lifecycle job runs once a minute, and the test above ran these.
    await tick('2026-11-22T13:07:00Z');
    await tick('2026-11-23T14:12:00Z');
    expect(await stale()).toHaveLength(1);
    // A reading of another element leaves the flag; one of glucose clears it.
    clock = new Date('2026-11-23T14:20:00Z');
    await relogin();
    for (const element of [1, 6]) {
      const res = await t.http
        .post(`/api/v1/patients/${id}/measurements`)
        .set(bearer(a.tokens.enfermeria))
        .send({ clinical_element: element, value: element === 1 ? 72 : 110, when: '2026-11-23T14:20:00Z' });
      expect(res.status).toBe(201);
      const [order] = await select<{ stale_alerted_at: unknown }>(
        t.sequelize,
        'SELECT stale_alerted_at FROM orders WHERE patient_id = :id',
        {
          id,
        },
      );
      expect(order.stale_alerted_at === null, `flag cleared after element ${element}`).toBe(element === 6);
    }
    await tick('2026-11-24T14:02:00Z');
    expect(await stale()).toHaveLength(1);
    await tick('2026-11-24T15:32:00Z');
    expect(await stale()).toHaveLength(2);
  });

  it('permanent orders keep a rolling 30-day horizon', async () => {
    clock = new Date('2026-11-21T15:00:00Z');
    await relogin();
    const id = await newPatient(a, '1033000004');
    const o = (
      await t.http
        .post(`/api/v1/patients/${id}/orders`)
        .set(bearer(a.tokens.medico))
        .send({ order_type: 0, clinical_element: 5, frequency_type: 0, hours: ['07:00'], during: 1, permanent: true })
    ).body;
    await t.http.put(`/api/v1/patients/${id}/orders/${o.id}`).set(bearer(a.tokens.medico)).send({ start_at: '2026-11-22T11:00:00Z' });
    const gen = await t.http.post(`/api/v1/patients/${id}/orders/${o.id}/activities`).set(bearer(a.tokens.medico));
    expect(gen.body.total_activities).toBe(30);
    await tick('2026-11-26T12:00:00Z');
    const acts = await activitiesOf(id, o.id);
    expect(acts.length).toBe(35);
    expect(acts.at(-1)!.programmed_at).toBe('2026-12-26T12:00:00.000Z');
    await tick('2026-11-26T12:01:00Z');
    expect((await activitiesOf(id, o.id)).length).toBe(35);
  });

  it('stale data at scale: an order past 600 others that are not stale still gets its alert, and those are not read again each minute', async () => {
    // After the permanent orders' test: the lifecycle's slots only move forward.
    clock = new Date('2026-11-27T15:00:00Z');
    await relogin();
    // 600 running vital-sign orders that are not stale (a patient who reports), then one whose patient stopped.
    const reporting = await newPatient(a, '1033000014');
    const {
      order_ids: [template],
    } = await bulk(reporting, [
      {
        order_type: 0,
        clinical_element: 1,
        frequency_type: 0,
        hours: ['08:00'],
        during: 5,
        start_at: '2026-11-28T00:00:00Z',
        notify: false,
      },
    ]);
    const columnsOf = async (table: string, leave: string[]) =>
      (
        await select<{ name: string }>(
          t.sequelize,
          t.sequelize.getDialect() === 'sqlite'
            ? `SELECT name FROM pragma_table_info('${table}')`
            : `SELECT column_name AS name FROM information_schema.columns WHERE table_name = '${table}'`,
        )
      )
        .map((c) => c.name)
        .filter((c) => !leave.includes(c))
        .map((c) => `"${c}"`);
    const orderColumns = (await columnsOf('orders', ['id'])).join(', ');
    const activityColumns = await columnsOf('activities', ['id', 'order_id']);
    for (let i = 0; i < 600; i++) {
      const [copy] = await select<{ id: number }>(
        t.sequelize,
        `INSERT INTO orders (${orderColumns}) SELECT ${orderColumns} FROM orders WHERE id = :template RETURNING id`,
        { template },
      );
      await t.sequelize.query(
        `INSERT INTO activities (order_id, ${activityColumns.join(', ')}) SELECT :copy, ${activityColumns.join(', ')} FROM activities WHERE order_id = :template`,
        { replacements: { copy: Number(copy.id), template } },
      );
    }
    // Created after them all: the old check read its first 500 candidates, the same ones every minute.
    const silent = await newPatient(a, '1033000015');
    await bulk(silent, [
      {
        order_type: 0,
        clinical_element: 6,
        frequency_type: 0,
        hours: ['08:00'],
        during: 5,
        start_at: '2026-11-28T00:00:00Z',
        notify: false,
      },
    ]);
    await tick('2026-11-28T13:05:00Z');
    // The reporting patient sends a heart rate every day.
    for (const day of ['2026-11-28T14:00:00Z', '2026-11-29T13:00:00Z']) {
      clock = new Date(day);
      await relogin();
      const res = await t.http
        .post(`/api/v1/patients/${reporting}/measurements`)
        .set(bearer(a.tokens.enfermeria))
        .send({ clinical_element: 1, value: 72, when: day });
      expect(res.status).toBe(201);
    }
    await tick('2026-11-29T14:10:00Z');
    expect((await alertsOf(silent)).map((x) => x.description)).toContain('Sin datos de Glucosa en las últimas 25 horas.');
    expect((await alertsOf(reporting)).filter((x) => /^Sin datos/.test(x.description))).toEqual([]);
    // Every order looked at is put off until it could be stale: once the 601 have been looked at
    // (500 a run), none is due until the first could be stale again.
    await tick('2026-11-29T14:11:00Z');
    const [due] = await select<{ n: number }>(
      t.sequelize,
      'SELECT COUNT(*) AS n FROM orders WHERE order_type = 0 AND status = 2 AND stale_alerted_at IS NULL AND stale_check_at <= :now',
      { now: new Date('2026-11-29T14:12:00Z') },
    );
    expect(Number(due.n)).toBe(0);
    expect((await alertsOf(silent)).filter((x) => /^Sin datos/.test(x.description))).toHaveLength(1);
  });
});

describe('activity changes (01 §4, 02 §2.13)', () => {
  let patientId: number;
  let orderId: number;
  let acts: Array<{ id: number; status: number; programmed_at: string }>;
  const url = (activityId: number, oid = orderId, pid = patientId) => `/api/v1/patients/${pid}/orders/${oid}/activities/${activityId}`;

  beforeAll(async () => {
    clock = new Date('2026-11-21T15:00:00Z');
    await relogin();
    patientId = await newPatient(a, '1033000010');
    orderId = (
      await bulk(patientId, [{ order_type: 0, clinical_element: 2, frequency_type: 0, hours: ['09:00'], during: 4, start_at: TOMORROW }])
    ).order_ids[0];
    acts = await activitiesOf(patientId, orderId);
  });

  it('reschedules and cancels only Programada activities, with manage_activities', async () => {
    const moved = await t.http
      .put(url(acts[0].id))
      .set(bearer(a.tokens.enfermeria))
      .send({ activity: { programmed_at: '2026-11-22T16:30:00Z' } });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ programmed_at: '2026-11-22T16:30:00.000Z', status: 0 });
    const cancelled = await t.http.patch(url(acts[1].id)).set(bearer(a.tokens.medico)).send({ status: 3 });
    expect(cancelled.body).toMatchObject({ status: 3, status_name: 'Cancelada' });
    const again = await t.http.put(url(acts[1].id)).set(bearer(a.tokens.medico)).send({ programmed_at: '2026-11-25T16:30:00Z' });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('Solo se pueden reprogramar o cancelar actividades Programadas.');
    expect((await t.http.put(url(acts[2].id)).set(bearer(a.tokens.consulta)).send({ status: 3 })).status).toBe(403);
    expect((await t.http.put(url(acts[2].id, orderId)).set(bearer(b.tokens.admin)).send({ status: 3 })).status).toBe(404);
    // Rescheduling keeps generation idempotent: the next sweep does not bring the old slot back.
    await tick('2026-11-21T15:01:00Z');
    expect(await activitiesOf(patientId, orderId)).toHaveLength(4);
  });

  it.each([
    [{}, 'Envíe al menos un campo para actualizar.'],
    [{ programmed_at: '2026-11-20T10:00:00Z' }, 'La nueva fecha debe ser posterior a la hora actual.'],
    [{ programmed_at: 'mañana' }, 'La fecha no es válida'],
    [{ status: 2 }, 'Solo se puede cambiar el estado a Cancelada (3)'],
  ])('refuses %j with 400', async (body, message) => {
    const res = await t.http.put(url(acts[3].id)).set(bearer(a.tokens.medico)).send(body);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(message);
  });

  it('lists the calendar range (star_date, end_date) and refuses bad ranges', async () => {
    const res = await t.http
      .get(`/api/v1/patients/${patientId}/activities`)
      .query({ star_date: '2026-11-22', end_date: '2026-11-24' })
      .set(bearer(a.tokens.consulta));
    expect(res.status).toBe(200);
    expect(res.body.map((x: { status_name: string }) => x.status_name)).toEqual(['Programada', 'Cancelada']);
    expect(res.body[0].order_description).toBe('Medir Saturación de oxígeno todos los días a las 09:00 durante 4 días.');
    // The calendar sends instants with unescaped ':' (axios); those are accepted too.
    const instants = await t.http
      .get(`/api/v1/patients/${patientId}/activities?star_date=2026-11-22T05:00:00.000Z&end_date=2026-11-24T05:00:00.000Z`)
      .set(bearer(a.tokens.consulta));
    expect(instants.body.map((x: { status_name: string }) => x.status_name)).toEqual(['Programada', 'Cancelada']);
    const bad = await t.http.get(`/api/v1/patients/${patientId}/activities`).query({ star_date: 'ayer' }).set(bearer(a.tokens.consulta));
    expect(bad.body).toMatchObject({ field: 'star_date', message: 'La fecha no es válida' });
    const long = await t.http
      .get(`/api/v1/patients/${patientId}/activities`)
      .query({ star_date: '2026-01-01', end_date: '2026-06-01' })
      .set(bearer(a.tokens.consulta));
    expect(long.body.field).toBe('end_date');
    expect((await t.http.get(`/api/v1/patients/${patientId}/activities`).set(bearer(b.tokens.consulta))).status).toBe(404);
  });

  it('D9: inactivating suspends future activities, re-activating brings them back; deceased cancels them', async () => {
    const before = (await activitiesOf(patientId, orderId)).map((x) => x.status);
    await t.http.put(`/api/v1/patients/${patientId}`).set(bearer(a.tokens.medico)).send({ status: 0 });
    expect((await activitiesOf(patientId, orderId)).map((x) => x.status)).toEqual(before.map((s) => (s === 0 ? 5 : s)));
    const blocked = await t.http.put(url(acts[3].id)).set(bearer(a.tokens.medico)).send({ status: 3 });
    expect(blocked.status).toBe(403);
    await t.http.put(`/api/v1/patients/${patientId}`).set(bearer(a.tokens.medico)).send({ status: 1 });
    expect((await activitiesOf(patientId, orderId)).map((x) => x.status)).toEqual(before);
    await t.http.put(`/api/v1/patients/${patientId}`).set(bearer(a.tokens.medico)).send({ status: 3 });
    expect((await activitiesOf(patientId, orderId)).every((x) => x.status === 3)).toBe(true);
    expect((await orderOf(patientId, orderId)).status).toBe(3);
  });
});
