import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { startTestProduct, createOrg, bearer, patientBody, PASSWORD, type TestProduct, type Org } from '../support/product';

/** 'Actividades' (P69): GET /activities, the client's activities of one day in its time zone. */
let t: TestProduct;
let a: Org;
let b: Org;
// 10:00 on 21 Nov in Bogotá (UTC-5), the clients' zone.
let clock = new Date('2026-11-21T15:00:00Z');
const TOMORROW = '2026-11-22T00:00:00Z';
const ids = { ana: 0, luis: 0, foreign: 0 };

async function newPatient(org: Org, overrides: Record<string, unknown>): Promise<number> {
  const res = await t.http.post('/api/v1/patients').set(bearer(org.tokens.admin)).send(patientBody(overrides));
  expect(res.status).toBe(201);
  return res.body.id;
}

async function bulk(org: Org, patientId: number, orders: object[]) {
  const res = await t.http.post(`/api/v1/patients/${patientId}/orders/bulk`).set(bearer(org.tokens.medico)).send({ orders });
  expect(res.status).toBe(201);
}

/** Sessions last an hour of the injected clock: sign in again after moving it. */
async function relogin() {
  for (const org of [a, b]) {
    for (const role of ['admin', 'medico', 'enfermeria', 'consulta'] as const) {
      org.tokens[role] = (await t.http.post('/api/v1/sessions').send({ email: org.users[role].email, password: PASSWORD })).body.token;
    }
  }
}

type Row = {
  id: number;
  patient: { id: number; full_name: string };
  programmed_at: string;
  order_type: number;
  status: number;
  status_name: string;
  medicine_name: string | null;
  clinical_element_name: string | null;
  can_confirm: boolean;
};
const list = (org: Org, query: Record<string, unknown>, role: 'admin' | 'medico' | 'enfermeria' | 'consulta' = 'consulta') =>
  t.http.get('/api/v1/activities').query(query).set(bearer(org.tokens[role]));

beforeAll(async () => {
  t = await startTestProduct({ now: () => clock });
  a = await createOrg(t, 'Clinica Jornada');
  b = await createOrg(t, 'Clinica Remota');
  ids.ana = await newPatient(a, { nid: '52100200', first_name: 'ana', last_name: 'rojas' });
  ids.luis = await newPatient(a, { nid: '79300400', first_name: 'luis', last_name: 'mora', cellphone: '3009876543' });
  ids.foreign = await newPatient(b, { nid: '52100201', first_name: 'ana', last_name: 'rojas' });
  // Losartán every 8 hours for 2 days from 08:00 on the 22nd: 08:00, 16:00 on the 22nd, 00:00 … on the 23rd.
  const medication = {
    order_type: 1,
    medicine_id: 1,
    dose: 1,
    frecuency: 8,
    time_unit: 0,
    during: 2,
    start_at: TOMORROW,
    amount: '1',
    medication_unit: 3,
  };
  const glucose = { order_type: 0, clinical_element: 6, frequency_type: 0, hours: ['08:00', '18:00'], during: 2, start_at: TOMORROW };
  await bulk(a, ids.ana, [medication, glucose]);
  await bulk(a, ids.luis, [{ order_type: 0, clinical_element: 1, frequency_type: 0, hours: ['12:00'], during: 1, start_at: TOMORROW }]);
  await bulk(b, ids.foreign, [medication, glucose]);
});
afterAll(() => t.stop());

const hours = (rows: Row[]) => rows.map((r) => new Date(r.programmed_at).toISOString().slice(11, 16));

describe('GET /activities', () => {
  it('lists the day of the client, by time, with patient, medicine or vital sign and status', async () => {
    const res = await list(a, { date: '2026-11-22' });
    expect(res.status).toBe(200);
    expect(res.headers['x-total-count']).toBe('5');
    const rows = res.body as Row[];
    // 08:00, 08:00, 12:00, 16:00 and 18:00 in Bogotá.
    expect(hours(rows)).toEqual(['13:00', '13:00', '17:00', '21:00', '23:00']);
    expect(rows.map((r) => r.patient.id)).toEqual([ids.ana, ids.ana, ids.luis, ids.ana, ids.ana]);
    expect(rows[2]).toMatchObject({
      patient: { full_name: 'Luis Mora' },
      order_type: 0,
      clinical_element_name: 'Frecuencia cardiaca',
      status: 0,
      status_name: 'Programada',
      can_confirm: false,
    });
    expect(rows.find((r) => r.order_type === 1)!.medicine_name).toMatch(/^\S+/);
    // The 00:00 dose belongs to the 23rd (05:00 UTC), not to the 22nd.
    const next = (await list(a, { date: '2026-11-23' })).body as Row[];
    expect(hours(next)[0]).toBe('05:00');
  });

  it('filters by type, status and patient (name words or document prefix), and pages', async () => {
    expect(((await list(a, { date: '2026-11-22', type: 1 })).body as Row[]).map((r) => r.order_type)).toEqual([1, 1]);
    expect((await list(a, { date: '2026-11-22', type: 0 })).body as Row[]).toHaveLength(3);
    expect((await list(a, { date: '2026-11-22', status: 2 })).body as Row[]).toEqual([]);
    expect((await list(a, { date: '2026-11-22', status: 0 })).body as Row[]).toHaveLength(5);
    expect(((await list(a, { date: '2026-11-22', q: 'mora' })).body as Row[]).map((r) => r.patient.id)).toEqual([ids.luis]);
    expect(((await list(a, { date: '2026-11-22', q: '5210' })).body as Row[]).every((r) => r.patient.id === ids.ana)).toBe(true);
    const page = await list(a, { date: '2026-11-22', _start: 2, _end: 4 });
    expect(page.headers['x-total-count']).toBe('5');
    expect(hours(page.body)).toEqual(['17:00', '21:00']);
  });

  it("never lists another client's activities, whatever the search", async () => {
    for (const q of [{}, { q: 'ana rojas' }, { q: '52100201' }]) {
      const mine = (await list(a, { date: '2026-11-22', ...q })).body as Row[];
      expect(mine.some((r) => r.patient.id === ids.foreign)).toBe(false);
      const theirs = (await list(b, { date: '2026-11-22', ...q }, 'admin')).body as Row[];
      expect(theirs.every((r) => r.patient.id === ids.foreign)).toBe(true);
    }
    expect((await list(b, { date: '2026-11-22' }, 'admin')).body as Row[]).toHaveLength(4);
  });

  it('any staff role reads it; without a session 401', async () => {
    for (const role of ['admin', 'medico', 'enfermeria', 'consulta'] as const)
      expect((await list(a, { date: '2026-11-22' }, role)).status).toBe(200);
    expect((await t.http.get('/api/v1/activities')).status).toBe(401);
  });

  it.each([
    [{ date: 'hoy' }, 'date'],
    [{ date: '2026-13-01' }, 'date'],
    [{ date: '2026-02-30' }, 'date'],
    [{ date: '22/11/2026' }, 'date'],
    [{ status: 9 }, 'status'],
    [{ type: 'x' }, 'type'],
  ])('refuses %j with 400 on %s and a Spanish message', async (query, field) => {
    const res = await list(a, query);
    expect(res.status).toBe(400);
    expect(res.body.field).toBe(field);
    expect(res.body.message).toMatch(/[a-záéíóúñ]/i);
    expect(res.body.message).not.toMatch(/must|should|invalid/i);
  });

  it("without a date it is today in the client's zone; can_confirm follows the confirm call", async () => {
    // 08:10 on the 22nd in Bogotá: the 08:00 dose is in its hour.
    clock = new Date('2026-11-22T13:10:00Z');
    await relogin();
    const res = await list(a, {}, 'enfermeria');
    expect(res.headers['x-total-count']).toBe('5');
    const dose = (res.body as Row[]).find((r) => r.order_type === 1)!;
    expect(dose.can_confirm).toBe(true);
    expect((res.body as Row[]).filter((r) => r.can_confirm)).toHaveLength(1);
    // consulta cannot manage activities: never confirmable for that role.
    expect(((await list(a, {}, 'consulta')).body as Row[]).some((r) => r.can_confirm)).toBe(false);
    const confirmed = await t.http
      .post(`/api/v1/patients/${dose.patient.id}/activities/${dose.id}/confirm`)
      .set(bearer(a.tokens.enfermeria));
    expect(confirmed.status).toBe(200);
    const after = (await list(a, { status: 2 }, 'enfermeria')).body as Row[];
    expect(after.map((r) => [r.id, r.status_name, r.can_confirm])).toEqual([[dose.id, 'Completada', false]]);
    // Just after midnight in Bogotá (05:30 UTC on the 23rd) "today" is already the 23rd.
    clock = new Date('2026-11-23T05:30:00Z');
    await relogin();
    expect(hours((await list(a, {})).body)[0]).toBe('05:00');
  });
});
