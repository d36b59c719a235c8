import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { startTestProduct, createOrg, bearer, patientBody, type TestProduct, type Org } from '../support/product';
import { storeReadings } from '../support/readings';
import { select } from '../../api/src/db/sql';

/** P68: a deceased patient's open alerts close with an automatic entry; entries never land on a closed alert. */
let t: TestProduct;
let org: Org;
let other: Org;
const rules = new Map<number, number[]>();
beforeAll(async () => {
  t = await startTestProduct();
  org = await createOrg(t, 'Clinica Cierres');
  other = await createOrg(t, 'Clinica Ajena');
  for (const o of [org, other]) {
    const heart = (
      await t.http
        .post('/api/v1/alarms')
        .set(bearer(o.tokens.admin))
        .send({ name: 'Taquicardia', clinical_element: 1, priority: 1, minimum_condition: 50, maximum_condition: 110 })
    ).body;
    const sat = (
      await t.http
        .post('/api/v1/alarms')
        .set(bearer(o.tokens.admin))
        .send({ name: 'Desaturación', clinical_element: 2, priority: 3, minimum_condition: 90, maximum_condition: 100 })
    ).body;
    rules.set(o.clientId, [heart.id, sat.id]);
  }
});
afterAll(() => t.stop());

const minutesAgo = (n: number) => new Date(Date.now() - n * 60_000);

/** A patient with out-of-range heart rate and saturation: two open alerts. */
async function patientWithAlerts(o: Org) {
  const p = (await t.http.post('/api/v1/patients').set(bearer(o.tokens.admin)).send(patientBody())).body;
  await t.http
    .put(`/api/v1/patients/${p.id}`)
    .set(bearer(o.tokens.admin))
    .send({ alarm_ids: rules.get(o.clientId) });
  await storeReadings(t, { clientId: o.clientId, patientId: p.id }, [
    { clinical_element: 1, value: 150, when: minutesAgo(5) },
    { clinical_element: 2, value: 80, when: minutesAgo(4) },
  ]);
  const alerts = (await t.http.get(`/api/v1/patients/${p.id}/alerts?per_page=20`).set(bearer(o.tokens.admin))).body as Array<{
    id: number;
    status: number;
  }>;
  expect(alerts.filter((a) => a.status === 1)).toHaveLength(2);
  return { patientId: p.id as number, alertIds: alerts.map((a) => a.id) };
}

const alertRows = (patientId: number) =>
  select<{ id: number; status: number; close_type: string | null; closed_by: number | null }>(
    t.sequelize,
    'SELECT id, status, close_type, closed_by FROM alerts WHERE patient_id = :patientId ORDER BY id',
    { patientId },
  );

describe('deceased patient (D9, P68)', () => {
  it('closes the open alerts in the same change, unclassified, with an entry by the user who recorded the death', async () => {
    const target = await patientWithAlerts(org);
    const [first, second] = [...target.alertIds].sort((x, y) => x - y);
    // One alert was already closed by a person: it keeps its classification and gets no extra entry.
    const url = (id: number) => `/api/v1/patients/${target.patientId}/alerts/${id}`;
    expect(
      (
        await t.http
          .put(url(first))
          .set(bearer(org.tokens.medico))
          .send({ status: 2, close_type: 'true_alert', description: 'Se ajusta el tratamiento' })
      ).status,
    ).toBe(200);
    const neighbour = await patientWithAlerts(org);
    const foreign = await patientWithAlerts(other);

    const res = await t.http.put(`/api/v1/patients/${target.patientId}`).set(bearer(org.tokens.admin)).send({ status: 3 });
    expect(res.status).toBe(200);

    const rows = await alertRows(target.patientId);
    expect(rows.map((r) => [Number(r.status), r.close_type])).toEqual([
      [2, 'true_alert'],
      [2, null],
    ]);
    expect(Number(rows[1].closed_by)).toBe(org.users.admin.id);
    const closed = (await t.http.get(url(second)).set(bearer(org.tokens.consulta))).body;
    expect(closed).toMatchObject({
      status: 2,
      status_name: 'Cerrada',
      close_type: null,
      closed_by_name: `${org.users.admin.first_name} ${org.users.admin.last_name}`,
    });
    expect(closed.entries.map((e: { description: string; user_id: number }) => [e.description, e.user_id])).toEqual([
      ['Alerta cerrada automáticamente: el paciente fue registrado como fallecido.', org.users.admin.id],
    ]);
    const kept = (await t.http.get(url(first)).set(bearer(org.tokens.consulta))).body;
    expect(kept.entries.map((e: { description: string }) => e.description)).toEqual(['Se ajusta el tratamiento']);

    // Nobody else's alerts move: another patient of the client, a patient of another client.
    for (const p of [neighbour, foreign]) expect((await alertRows(p.patientId)).every((r) => Number(r.status) === 1)).toBe(true);
    const open = (await t.http.get('/api/v1/reports/client_alerts_list?status=active').set(bearer(org.tokens.admin))).body as Array<{
      patient: { id: number };
    }>;
    expect(open.some((a) => a.patient.id === target.patientId)).toBe(false);
  });

  it('a patient without open alerts is declared deceased without any alert change', async () => {
    const p = (await t.http.post('/api/v1/patients').set(bearer(org.tokens.admin)).send(patientBody())).body;
    expect((await t.http.put(`/api/v1/patients/${p.id}`).set(bearer(org.tokens.admin)).send({ status: 3 })).status).toBe(200);
    expect(await alertRows(p.id)).toEqual([]);
  });
});

describe('adding an entry is atomic (P64)', () => {
  it('answers 409 in Spanish on a closed alert and stores nothing', async () => {
    const target = await patientWithAlerts(org);
    const url = `/api/v1/patients/${target.patientId}/alerts/${target.alertIds[0]}`;
    expect(
      (
        await t.http
          .put(url)
          .set(bearer(org.tokens.admin))
          .send({ status: 2, close_type: 'false_alert', description: 'Sensor mal colocado' })
      ).status,
    ).toBe(200);
    const res = await t.http
      .post(`${url}/alert_entries`)
      .set(bearer(org.tokens.enfermeria))
      .send({ description: 'Entrada después del cierre' });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ field: 'description', message: 'La alerta está cerrada; no admite nuevas entradas.' });
    const [{ n }] = await select<{ n: number }>(t.sequelize, 'SELECT COUNT(*) AS n FROM alert_entries WHERE alert_id = :id', {
      id: target.alertIds[0],
    });
    expect(Number(n)).toBe(1);
  });

  it('entries racing a close: every 201 is stored before the close, every 409 stores nothing', async () => {
    const target = await patientWithAlerts(org);
    const url = `/api/v1/patients/${target.patientId}/alerts/${target.alertIds[0]}`;
    const entries = Array.from({ length: 6 }, (_, i) =>
      t.http
        .post(`${url}/alert_entries`)
        .set(bearer(org.tokens.enfermeria))
        .send({ description: `Evolución número ${i}` }),
    );
    const close = t.http
      .put(url)
      .set(bearer(org.tokens.medico))
      .send({ status: 2, close_type: 'true_alert', description: 'Cierre durante las entradas' });
    const [closed, ...answers] = await Promise.all([close, ...entries]);
    expect(closed.status).toBe(200);
    expect(answers.every((a) => a.status === 201 || a.status === 409)).toBe(true);
    const accepted = answers.filter((a) => a.status === 201).map((a) => a.body.description as string);
    const detail = (await t.http.get(url).set(bearer(org.tokens.admin))).body;
    const stored = detail.entries.map((e: { description: string }) => e.description) as string[];
    expect(stored.filter((d) => d !== 'Cierre durante las entradas').sort()).toEqual(accepted.sort());
    expect(detail.status).toBe(2);
  });
});
