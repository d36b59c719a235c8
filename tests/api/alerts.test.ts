import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { components } from '@vigia/contract/openapi';
import { startTestProduct, createOrg, bearer, patientBody, type TestProduct, type Org } from '../support/product';
import { storeReadings } from '../support/readings';
import { select } from '../../api/src/db/sql';
import { raiseAlert } from '../../api/src/modules/alerts/alerts.raise';

let t: TestProduct;
let org: Org;
let other: Org;
let heartRule: { id: number };
let satRule: { id: number };
beforeAll(async () => {
  t = await startTestProduct();
  org = await createOrg(t, 'Clinica Alertas');
  other = await createOrg(t, 'Clinica Vecina');
  heartRule = (
    await t.http
      .post('/api/v1/alarms')
      .set(bearer(org.tokens.admin))
      .send({ name: 'Taquicardia', clinical_element: 1, priority: 1, minimum_condition: 50, maximum_condition: 110 })
  ).body;
  satRule = (
    await t.http
      .post('/api/v1/alarms')
      .set(bearer(org.tokens.admin))
      .send({ name: 'Desaturación', clinical_element: 2, priority: 3, minimum_condition: 90, maximum_condition: 100 })
  ).body;
});
afterAll(() => t.stop());

async function monitoredPatient(o: Org = org, alarmIds = [heartRule.id, satRule.id]) {
  const p = (await t.http.post('/api/v1/patients').set(bearer(o.tokens.admin)).send(patientBody())).body;
  if (alarmIds.length) await t.http.put(`/api/v1/patients/${p.id}`).set(bearer(o.tokens.admin)).send({ alarm_ids: alarmIds });
  return { clientId: o.clientId, patientId: p.id as number };
}
const minutesAgo = (n: number) => new Date(Date.now() - n * 60_000);
const openAlerts = async (patientId: number) =>
  (await t.http.get(`/api/v1/patients/${patientId}/alerts?status=1&per_page=20`).set(bearer(org.tokens.admin))).body as Array<
    components['schemas']['Alert']
  >;

describe('alarm engine (D10)', () => {
  it('opens a type 0 alert with the rule priority for a reading outside the range, none for in-range or equal values', async () => {
    const target = await monitoredPatient();
    await storeReadings(t, target, [
      { clinical_element: 1, value: 110, when: minutesAgo(30) },
      { clinical_element: 1, value: 50, when: minutesAgo(29) },
      { clinical_element: 2, value: 95, when: minutesAgo(28) },
    ]);
    expect(await openAlerts(target.patientId)).toEqual([]);
    const [mid] = await storeReadings(t, target, [{ clinical_element: 0, value: 131, when: minutesAgo(20) }]);
    const alerts = await openAlerts(target.patientId);
    expect(alerts).toHaveLength(1);
    expect((await t.http.get(`/api/v1/patients/${target.patientId}`).set(bearer(org.tokens.admin))).body.active_alerts_count).toBe(1);
    expect(alerts[0]).toMatchObject({
      type: 0,
      status: 1,
      status_name: 'Activa',
      priority: 1,
      priority_name: 'Alta',
      value: 131,
      clinical_element_name: 'Frecuencia cardiaca',
      alarm: { id: heartRule.id, name: 'Taquicardia', minimum_condition: 50, maximum_condition: 110 },
      measurement: { id: mid, value: 131, clinical_element_unit: 'lpm' },
    });
  });

  it('attaches later out-of-range readings to the open alert instead of opening another', async () => {
    const target = await monitoredPatient();
    await storeReadings(t, target, [{ clinical_element: 1, value: 130, when: minutesAgo(10) }]);
    const [later] = await storeReadings(t, target, [
      { clinical_element: 1, value: 140, when: minutesAgo(5) },
      { clinical_element: 1, value: 90, when: minutesAgo(4) },
    ]);
    const alerts = await openAlerts(target.patientId);
    expect(alerts).toHaveLength(1);
    const detail = await t.http.get(`/api/v1/patients/${target.patientId}/alerts/${alerts[0].id}`).set(bearer(org.tokens.consulta));
    expect(detail.body.later_measurements.map((m: { id: number }) => m.id)).toEqual([later]);
  });

  it('opens one alert when two readings of the same patient arrive at once', async () => {
    const target = await monitoredPatient();
    await Promise.all([
      storeReadings(t, target, [{ clinical_element: 2, value: 80, when: minutesAgo(3) }]),
      storeReadings(t, target, [{ clinical_element: 2, value: 82, when: minutesAgo(2) }]),
    ]);
    const alerts = await openAlerts(target.patientId);
    expect(alerts).toHaveLength(1);
    const detail = await t.http.get(`/api/v1/patients/${target.patientId}/alerts/${alerts[0].id}`).set(bearer(org.tokens.admin));
    expect(detail.body.later_measurements).toHaveLength(1);
  });

  it('raiseAlert opens other alert types (AI assistant) without a rule', async () => {
    const target = await monitoredPatient(org, []);
    const id = await t.sequelize.transaction((transaction) =>
      raiseAlert(
        { sequelize: t.sequelize, transaction, now: new Date(), jobs: t.jobs },
        {
          client_id: org.clientId,
          patient_id: target.patientId,
          alert_type: 3,
          priority: 2,
          description: 'El paciente refiere dolor torácico',
        },
      ),
    );
    const detail = await t.http.get(`/api/v1/patients/${target.patientId}/alerts/${id}`).set(bearer(org.tokens.admin));
    expect(detail.body).toMatchObject({
      type: 3,
      description: 'El paciente refiere dolor torácico',
      measurement: null,
      alarm: null,
      priority_name: 'Media',
    });
  });
});

describe('alert handling', () => {
  async function openOne() {
    const target = await monitoredPatient();
    await storeReadings(t, target, [{ clinical_element: 1, value: 150, when: minutesAgo(1) }]);
    const [alert] = await openAlerts(target.patientId);
    return { ...target, alertId: alert.id as number, url: `/api/v1/patients/${target.patientId}/alerts/${alert.id}` };
  }

  it('adds entries (Evolución), lists them oldest first and shows the patient contact', async () => {
    const a = await openOne();
    const first = await t.http
      .post(`${a.url}/alert_entries`)
      .set(bearer(org.tokens.enfermeria))
      .send({ description: 'Se llama al paciente', user_id: 999 });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      description: 'Se llama al paciente',
      user_id: org.users.enfermeria.id,
      user_name: 'USUARIO ENFERMERIA',
    });
    await t.http
      .post(`${a.url}/alert_entries`)
      .set(bearer(org.tokens.medico))
      .send({ alert_entry: { description: 'Se ajusta el tratamiento' } });
    const detail = await t.http.get(a.url).set(bearer(org.tokens.consulta));
    expect(detail.body.entries.map((e: { description: string }) => e.description)).toEqual([
      'Se llama al paciente',
      'Se ajusta el tratamiento',
    ]);
    expect(detail.body.contact).toMatchObject({
      address: 'CALLE 45 # 12-30',
      neighborhood: 'CHAPINERO',
      city_name: 'Bogotá, D.C.',
      prefix: '+57',
      cellphone: '3001234567',
    });
    expect(detail.body.patient.full_name).toBe('MARÍA JOSÉ PÉREZ GÓMEZ');
  });

  it('refuses an entry shorter than 10 characters with 400', async () => {
    const a = await openOne();
    const res = await t.http.post(`${a.url}/alert_entries`).set(bearer(org.tokens.admin)).send({ description: 'corto' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ field: 'description', message: 'Debe tener mínimo 10 caracteres' });
    const blank = await t.http.post(`${a.url}/alert_entries`).set(bearer(org.tokens.admin)).send({ description: '          x' });
    expect(blank.status).toBe(400);
  });

  it('refuses to close without an entry of 10 characters, closes with the entry in one call', async () => {
    const a = await openOne();
    const refused = await t.http.put(a.url).set(bearer(org.tokens.admin)).send({ status: 2, close_type: 'false_alert' });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe('Debe tener mínimo 10 caracteres');
    const closed = await t.http
      .put(a.url)
      .set(bearer(org.tokens.enfermeria))
      .send({ alert: { status: 2, close_type: 'false_alert', description: 'Lectura por mala colocación del sensor' } });
    expect(closed.status).toBe(200);
    expect(closed.body).toMatchObject({
      status: 2,
      status_name: 'Cerrada',
      close_type: 'false_alert',
      closed_by_name: 'USUARIO ENFERMERIA',
    });
    expect(closed.body.entries.at(-1).description).toBe('Lectura por mala colocación del sensor');
    const entry = await t.http.post(`${a.url}/alert_entries`).set(bearer(org.tokens.admin)).send({ description: 'Una entrada tardía' });
    expect(entry.status).toBe(409);
  });

  it('closes after an earlier Evolución entry, PATCH too; a new reading then opens a new alert', async () => {
    const a = await openOne();
    await t.http.post(`${a.url}/alert_entries`).set(bearer(org.tokens.admin)).send({ description: 'Paciente estable ahora' });
    const closed = await t.http.patch(a.url).set(bearer(org.tokens.admin)).send({ status: 2, close_type: 'true_alert' });
    expect(closed.status).toBe(200);
    await storeReadings(t, a, [{ clinical_element: 1, value: 170, when: new Date() }]);
    const open = await openAlerts(a.patientId);
    expect(open).toHaveLength(1);
    expect(open[0].id).not.toBe(a.alertId);
  });

  it.each([
    [{ status: 1, close_type: 'true_alert' }, 'status'],
    [{ status: 2, close_type: 'quizas' }, 'close_type'],
    [{ status: 2 }, 'close_type'],
    [{ status: 2, close_type: 'true_alert', description: 'corto' }, 'description'],
  ])('refuses close body %j with 400 on %s', async (body, field) => {
    const a = await openOne();
    const res = await t.http.put(a.url).set(bearer(org.tokens.admin)).send(body);
    expect(res.status).toBe(400);
    expect(res.body.field).toBe(field);
  });

  it('gives one consistent result when two users close at once', async () => {
    const a = await openOne();
    const [x, y] = await Promise.all([
      t.http
        .put(a.url)
        .set(bearer(org.tokens.admin))
        .send({ status: 2, close_type: 'true_alert', description: 'Cierre del administrador' }),
      t.http.put(a.url).set(bearer(org.tokens.medico)).send({ status: 2, close_type: 'false_alert', description: 'Cierre de la médica' }),
    ]);
    expect([x.status, y.status].sort()).toEqual([200, 409]);
    const winner = x.status === 200 ? x : y;
    const detail = await t.http.get(a.url).set(bearer(org.tokens.admin));
    expect(detail.body.close_type).toBe(winner.body.close_type);
    expect(detail.body.entries).toHaveLength(1);
  });

  it('refuses handling by consulta with 403 and changes nothing', async () => {
    const a = await openOne();
    expect(
      (await t.http.post(`${a.url}/alert_entries`).set(bearer(org.tokens.consulta)).send({ description: 'Intento de consulta' })).status,
    ).toBe(403);
    expect(
      (
        await t.http
          .put(a.url)
          .set(bearer(org.tokens.consulta))
          .send({ status: 2, close_type: 'true_alert', description: 'Intento de consulta' })
      ).status,
    ).toBe(403);
    const detail = await t.http.get(a.url).set(bearer(org.tokens.admin));
    expect(detail.body).toMatchObject({ status: 1, entries: [] });
  });

  it('refuses handling the alerts of a deceased patient', async () => {
    const a = await openOne();
    expect((await t.http.put(`/api/v1/patients/${a.patientId}`).set(bearer(org.tokens.admin)).send({ status: 3 })).status).toBe(200);
    const res = await t.http
      .post(`${a.url}/alert_entries`)
      .set(bearer(org.tokens.admin))
      .send({ description: 'Entrada después del deceso' });
    expect(res.status).toBe(403);
  });

  it('answers 404 across clients and for an alert of another patient', async () => {
    const a = await openOne();
    for (const role of ['admin', 'medico', 'consulta'] as const) {
      expect((await t.http.get(a.url).set(bearer(other.tokens[role]))).status).toBe(404);
      expect((await t.http.get(`/api/v1/patients/${a.patientId}/alerts`).set(bearer(other.tokens[role]))).status).toBe(404);
    }
    expect(
      (
        await t.http
          .put(a.url)
          .set(bearer(other.tokens.admin))
          .send({ status: 2, close_type: 'true_alert', description: 'Cierre desde otro cliente' })
      ).status,
    ).toBe(404);
    expect(
      (await t.http.post(`${a.url}/alert_entries`).set(bearer(other.tokens.admin)).send({ description: 'Entrada desde otro cliente' }))
        .status,
    ).toBe(404);
    const b = await openOne();
    expect((await t.http.get(`/api/v1/patients/${b.patientId}/alerts/${a.alertId}`).set(bearer(org.tokens.admin))).status).toBe(404);
    const [row] = await select<{ status: number }>(t.sequelize, 'SELECT status FROM alerts WHERE id = :id', { id: a.alertId });
    expect(Number(row.status)).toBe(1);
  });
});

describe('lists, metrics and updates', () => {
  it('filters the patient list by type, element, priority and status, paged', async () => {
    const target = await monitoredPatient();
    await storeReadings(t, target, [
      { clinical_element: 1, value: 200, when: minutesAgo(9) },
      { clinical_element: 2, value: 70, when: minutesAgo(8) },
    ]);
    const url = `/api/v1/patients/${target.patientId}/alerts`;
    const all = await t.http.get(`${url}?page=1&per_page=1`).set(bearer(org.tokens.admin));
    expect(all.headers['x-total-count']).toBe('2');
    expect(all.body).toHaveLength(1);
    expect(
      (await t.http.get(`${url}?priority=3`).set(bearer(org.tokens.admin))).body.map(
        (a: { clinical_element: number }) => a.clinical_element,
      ),
    ).toEqual([2]);
    expect((await t.http.get(`${url}?clinical_element=0`).set(bearer(org.tokens.admin))).body).toHaveLength(1);
    expect((await t.http.get(`${url}?alert_type=3`).set(bearer(org.tokens.admin))).body).toHaveLength(0);
    expect((await t.http.get(`${url}?status=2`).set(bearer(org.tokens.admin))).body).toHaveLength(0);
    expect((await t.http.get(`${url}?priority=9`).set(bearer(org.tokens.admin))).status).toBe(400);
  });

  it("lists the client alerts by status, date range and patient search, never another client's", async () => {
    const mine = await monitoredPatient();
    await t.http
      .put(`/api/v1/patients/${mine.patientId}`)
      .set(bearer(org.tokens.admin))
      .send({ first_name: 'Eustaquio', nid: '777000111' });
    await storeReadings(t, mine, [{ clinical_element: 1, value: 20, when: minutesAgo(1) }]);
    const foreignRule = (
      await t.http
        .post('/api/v1/alarms')
        .set(bearer(other.tokens.admin))
        .send({ name: 'Ajena', clinical_element: 1, priority: 1, minimum_condition: 50, maximum_condition: 110 })
    ).body;
    const foreign = await monitoredPatient(other, [foreignRule.id]);
    await storeReadings(t, foreign, [{ clinical_element: 1, value: 20, when: minutesAgo(1) }]);

    const today = new Date().toISOString().slice(0, 10);
    const active = await t.http
      .get(`/api/v1/reports/client_alerts_list?status=active&page=1&per_page=100&start_at=2020-01-01&end_at=2030-01-01`)
      .set(bearer(org.tokens.consulta));
    expect(active.status).toBe(200);
    expect(
      active.body.every((a: { status: number; patient: { id: number } }) => a.status === 1 && a.patient.id !== foreign.patientId),
    ).toBe(true);
    const byName = await t.http.get('/api/v1/reports/client_alerts_list?status=active&search=eusta').set(bearer(org.tokens.admin));
    expect(byName.body.map((a: { patient: { id: number } }) => a.patient.id)).toEqual([mine.patientId]);
    const byNid = await t.http.get('/api/v1/reports/client_alerts_list?status=active&search=777000').set(bearer(org.tokens.admin));
    expect(byNid.body.map((a: { patient: { id: number } }) => a.patient.id)).toEqual([mine.patientId]);
    const past = await t.http
      .get(`/api/v1/reports/client_alerts_list?status=active&start_at=2020-01-01&end_at=2020-01-31`)
      .set(bearer(org.tokens.admin));
    expect(past.body).toEqual([]);
    const closed = await t.http
      .get(`/api/v1/reports/client_alerts_list?status=closed&end_at=${today}&per_page=100`)
      .set(bearer(org.tokens.admin));
    expect(closed.body.every((a: { status: number; entries: unknown[] }) => a.status === 2 && a.entries.length > 0)).toBe(true);
    expect((await t.http.get('/api/v1/reports/client_alerts_list?status=open').set(bearer(org.tokens.admin))).status).toBe(400);
    expect((await t.http.get('/api/v1/reports/client_alerts_list?start_at=ayer').set(bearer(org.tokens.admin))).status).toBe(400);
  });

  it("lists only the alerts a digest's link names (id=1&id=2, up to 200), never another client's, and refuses bad ids naming id", async () => {
    const raise = (o: Org, patientId: number, description: string) =>
      t.sequelize.transaction((transaction) =>
        raiseAlert(
          { sequelize: t.sequelize, transaction, now: new Date(), jobs: t.jobs },
          { client_id: o.clientId, patient_id: patientId, alert_type: 3, priority: 2, description },
        ),
      );
    const mine = [];
    for (const text of ['Resumen uno', 'Resumen dos', 'Resumen tres'])
      mine.push(Number(await raise(org, (await monitoredPatient(org, [])).patientId, text)));
    const foreign = Number(await raise(other, (await monitoredPatient(other, [])).patientId, 'Resumen ajeno'));
    const list = (query: string, o: Org = org) =>
      t.http.get(`/api/v1/reports/client_alerts_list?${query}`).set(bearer(o.tokens.enfermeria));
    const idsOf = (res: { body: Array<{ id: number }> }) => res.body.map((a) => a.id).sort((a, b) => a - b);

    const two = await list(`id=${mine[0]}&id=${mine[2]}`);
    expect([two.status, two.headers['x-total-count'], idsOf(two)]).toEqual([200, '2', [mine[0], mine[2]]]);
    expect(two.body.map((a: { description: string }) => a.description).sort()).toEqual(['Resumen tres', 'Resumen uno']);
    expect(idsOf(await list(`id=${mine[1]}`))).toEqual([mine[1]]);
    expect(idsOf(await list(`status=active&id=${mine[1]}&id=${mine[2]}`))).toEqual([mine[1], mine[2]]);
    expect(idsOf(await list(`status=closed&id=${mine[1]}`))).toEqual([]);
    // Tenancy: another organisation's id simply matches nothing, from either side.
    const mixed = await list(`id=${mine[0]}&id=${foreign}`);
    expect([mixed.headers['x-total-count'], idsOf(mixed)]).toEqual(['1', [mine[0]]]);
    expect(idsOf(await list(`id=${mine[0]}&id=${mine[1]}`, other))).toEqual([]);
    // 200 ids are one digest's link at most; padding with ids that do not exist changes nothing.
    const padded = [...mine, ...Array.from({ length: 197 }, (_, i) => 2_000_000_000 + i)];
    const full = await list(padded.map((id) => `id=${id}`).join('&'));
    expect([full.status, full.status === 200 ? idsOf(full) : full.body]).toEqual([200, [...mine].sort((a, b) => a - b)]);

    for (const bad of [
      'id=abc',
      'id=0',
      'id=-3',
      'id=1.5',
      `id=${mine[0]}&id=x`,
      'id=3000000000',
      [...padded, 7].map((id) => `id=${id}`).join('&'),
    ]) {
      const res = await list(bad);
      // The field is `id`, or `id.N` for the N-th value (the contract validator's way of naming an item).
      expect([bad.slice(0, 20), res.status, String(res.body.field).split('.')[0]]).toEqual([bad.slice(0, 20), 400, 'id']);
      expect(res.body.message).toMatch(/[áéíóúñ]|debe|puede|número|entero/i);
    }
  });

  it('counts alerts by priority and open alerts', async () => {
    const metrics = await t.http.get('/api/v1/reports/client_alerts_metrics').set(bearer(org.tokens.consulta));
    expect(metrics.status).toBe(200);
    const [{ n }] = await select<{ n: number }>(t.sequelize, 'SELECT COUNT(*) AS n FROM alerts WHERE client_id = :c AND status = 1', {
      c: org.clientId,
    });
    expect(metrics.body.open).toBe(Number(n));
    const [{ high }] = await select<{ high: number }>(
      t.sequelize,
      'SELECT COUNT(*) AS high FROM alerts WHERE client_id = :c AND priority = 1',
      { c: org.clientId },
    );
    expect(metrics.body.by_priority.high).toBe(Number(high));
    expect(metrics.body.by_priority.low).toBeGreaterThan(0);
    const count = await t.http.get('/api/v1/reports/client_alerts_count?status=active').set(bearer(org.tokens.consulta));
    expect(count.body).toEqual({ total: Number(n) });
  });

  it('tells the manager about alerts newer than the last id it knows (short polling)', async () => {
    const first = await t.http.get('/api/v1/alerts/updates').set(bearer(org.tokens.enfermeria));
    const foreignFirst = await t.http.get('/api/v1/alerts/updates').set(bearer(other.tokens.admin));
    expect(first.body.alerts).toEqual([]);
    const target = await monitoredPatient();
    await storeReadings(t, target, [{ clinical_element: 1, value: 10, when: new Date() }]);
    const next = await t.http.get(`/api/v1/alerts/updates?since_id=${first.body.last_id}`).set(bearer(org.tokens.enfermeria));
    expect(next.body.alerts.map((a: { patient: { id: number } }) => a.patient.id)).toEqual([target.patientId]);
    expect(next.body.last_id).toBeGreaterThan(first.body.last_id);
    expect(next.body.open_count).toBe(first.body.open_count + 1);
    const foreign = await t.http.get(`/api/v1/alerts/updates?since_id=${foreignFirst.body.last_id}`).set(bearer(other.tokens.admin));
    expect(foreign.body.alerts).toEqual([]);
  });
});
