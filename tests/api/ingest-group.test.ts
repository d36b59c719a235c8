import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { select } from '../../api/src/db/sql';
import { ingestReadings, type IngestRequest, type IngestResult } from '../../api/src/modules/measurements/measurements.ingest';
import { startTestProduct, createOrg, bearer, patientBody, type TestProduct, type Org } from '../support/product';

/**
 * Group commit (issue 7): requests that arrive while a group is being stored go together into the
 * next group, one INSERT for all of them. Each request must still get back exactly its own rows,
 * even when two requests send rows alike in every value, and a retried reading id must count as
 * that request's duplicate, not another's.
 */
let t: TestProduct;
let a: Org;
let deviceId: number;
const clock = new Date('2026-11-21T15:00:00Z');
const at = (minutes: number) => new Date(clock.getTime() - minutes * 60_000).toISOString();

async function newPatient(nid: string): Promise<{ id: number; status: number }> {
  const res = await t.http.post('/api/v1/patients').set(bearer(a.tokens.admin)).send(patientBody({ nid }));
  expect(res.status).toBe(201);
  return { id: res.body.id, status: 1 };
}

/** Warnings the process emits (node-postgres's 'client is already executing a query', which pg 9 turns into an error). */
const warnings: string[] = [];
const onWarning = (w: Error) => warnings.push(w.message);

beforeAll(async () => {
  process.on('warning', onWarning);
  t = await startTestProduct({ now: () => clock });
  a = await createOrg(t, 'Clinica Grupo');
  const device = await t.http.post('/api/v1/devices').set(bearer(a.tokens.admin)).send({ card_id: 'GW-GRUPO' });
  expect(device.status).toBe(201);
  deviceId = device.body.id;
});
afterAll(async () => {
  process.off('warning', onWarning);
  await t.stop();
});

describe('ingestion groups', () => {
  it('answers each request with its own rows when many are stored in one INSERT', async () => {
    const p1 = await newPatient('7001001');
    const p2 = await newPatient('7001002');
    const deps = { sequelize: t.sequelize, jobs: t.jobs, now: () => clock };
    const staff = (patient: typeof p1, input: object): IngestRequest => ({
      clientId: a.clientId,
      source: 'staff',
      createdBy: a.users.enfermeria.id,
      items: [{ patient, input }],
    });
    const device = (patient: typeof p1, readingId: string, input: object): IngestRequest => ({
      clientId: a.clientId,
      source: 'device',
      deviceId,
      items: [{ patient, input, readingId }],
    });
    const cases: Array<{ name: string; req: IngestRequest; values: Array<[number, number]>; duplicates: number }> = [
      { name: 'first, stored alone', req: staff(p1, { clinical_element: 1, value: 71, when: at(30) }), values: [[1, 71]], duplicates: 0 },
      { name: 'a reading', req: staff(p1, { clinical_element: 1, value: 72, when: at(20) }), values: [[1, 72]], duplicates: 0 },
      {
        name: 'the same reading again',
        req: staff(p1, { clinical_element: 1, value: 72, when: at(20) }),
        values: [[1, 72]],
        duplicates: 0,
      },
      {
        name: 'blood pressure, two rows',
        req: staff(p2, { systolic: 120, diastolic: 80, when: at(20) }),
        values: [
          [3, 120],
          [4, 80],
        ],
        duplicates: 0,
      },
      { name: 'a decimal value', req: staff(p2, { clinical_element: 7, value: 36.7, when: at(20) }), values: [[7, 36.7]], duplicates: 0 },
      {
        name: 'a device reading',
        req: device(p2, 'r-1', { clinical_element: 1, value: 64, when: at(10) }),
        values: [[1, 64]],
        duplicates: 0,
      },
      {
        name: 'the same device reading, retried in the same group',
        req: device(p2, 'r-1', { clinical_element: 1, value: 64, when: at(10) }),
        values: [],
        duplicates: 1,
      },
    ];
    const results: IngestResult[] = await Promise.all(cases.map((c) => ingestReadings(deps, c.req)));
    const ids = new Set<number>();
    results.forEach((r, i) => {
      const c = cases[i];
      expect(
        r.stored.map((m) => [m.clinical_element, m.value]),
        c.name,
      ).toEqual(c.values);
      expect(r.duplicates, c.name).toBe(c.duplicates);
      for (const m of r.stored) {
        expect(m.patient_id, c.name).toBe(c.req.items[0].patient.id);
        ids.add(m.id);
      }
    });
    const stored = cases.reduce((n, c) => n + c.values.length, 0);
    expect(ids.size).toBe(stored);
    const rows = await select<{ id: number; patient_id: number; clinical_element: number; value: number }>(
      t.sequelize,
      'SELECT id, patient_id, clinical_element, value FROM measurements WHERE patient_id IN (:ids) ORDER BY id',
      { ids: [p1.id, p2.id] },
    );
    // Every answered id is the row with the values it was answered with.
    const byId = new Map(rows.map((r) => [Number(r.id), r]));
    expect(rows.length).toBe(stored);
    for (const r of results)
      for (const m of r.stored)
        expect(byId.get(m.id)).toMatchObject({ patient_id: m.patient_id, clinical_element: m.clinical_element, value: m.value });
  });

  it('sends the statements of one transaction one after another (no query while another runs on the same client)', async () => {
    const p = await newPatient('7001099');
    const deps = { sequelize: t.sequelize, jobs: t.jobs, now: () => clock };
    await Promise.all(
      [1, 2, 3].map((k) =>
        ingestReadings(deps, {
          clientId: a.clientId,
          source: 'staff',
          items: [{ patient: p, input: { clinical_element: 1, value: 70 + k, when: at(k) } }],
        }),
      ),
    );
    await new Promise((r) => setImmediate(r));
    expect(warnings.filter((m) => /already executing a query/.test(m))).toEqual([]);
  });

  it('stores batches of many patients sent at once (on PostgreSQL, several groups side by side): every reading, one open alert per patient and rule', async () => {
    const rule = await t.http.post('/api/v1/alarms?owner=client').set(bearer(a.tokens.admin)).send({
      name: 'Taquicardia lote',
      clinical_element: 1,
      priority: 1,
      minimum_condition: 50,
      maximum_condition: 110,
      alarm_default_new_patients: true,
    });
    expect(rule.status).toBe(201);
    const patients = await Promise.all(['7002001', '7002002', '7002003', '7002004', '7002005', '7002006'].map((nid) => newPatient(nid)));
    // Two batches per patient, all sent together: 100 readings each, every one over the rule's maximum.
    const batch = (k: number) => ({
      measurements: Array.from({ length: 100 }, (_, j) => ({
        clinical_element: 1,
        value: 130 + (j % 20),
        when: new Date(clock.getTime() - (k * 100 + j + 1) * 10_000).toISOString(),
      })),
    });
    const answers = await Promise.all(
      patients.flatMap((p) =>
        [0, 1].map((k) => t.http.post(`/api/v1/patients/${p.id}/measurements`).set(bearer(a.tokens.enfermeria)).send(batch(k))),
      ),
    );
    expect(answers.map((r) => r.status)).toEqual(answers.map(() => 201));
    const ids = patients.map((p) => p.id).sort((x, y) => x - y);
    const stored = await select<{ patient_id: number; n: number }>(
      t.sequelize,
      'SELECT patient_id, COUNT(*) AS n FROM measurements WHERE patient_id IN (:ids) GROUP BY patient_id ORDER BY patient_id',
      { ids },
    );
    expect(stored.map((r) => [Number(r.patient_id), Number(r.n)])).toEqual(ids.map((id) => [id, 200]));
    const open = await select<{ patient_id: number; n: number }>(
      t.sequelize,
      'SELECT patient_id, COUNT(*) AS n FROM alerts WHERE patient_id IN (:ids) AND alarm_id = :alarm AND status = 1 GROUP BY patient_id ORDER BY patient_id',
      { ids, alarm: rule.body.id },
    );
    expect(open.map((r) => [Number(r.patient_id), Number(r.n)])).toEqual(ids.map((id) => [id, 1]));
  });
});
