import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { execute, select } from '../../api/src/db/sql';
import { startTestProduct, createOrg, bearer, patientBody, type TestProduct, type Org } from '../support/product';

/**
 * alert_status_counts (migration 0017) is kept by triggers: after any insert, status change, move
 * between clients or delete of alerts, by whatever writes them, it must equal counting the alerts.
 * The badge, the dashboard's open alerts and a list filtered by status alone read it.
 */
let t: TestProduct;
let a: Org;
let b: Org;
const patients: Record<number, number> = {};

type CountRow = { client_id: number; status: number; n: number };
const asNumbers = (rows: CountRow[]) => rows.map((r) => ({ client_id: Number(r.client_id), status: Number(r.status), n: Number(r.n) }));
const counted = async () =>
  asNumbers(
    await select<CountRow>(
      t.sequelize,
      'SELECT client_id, status, COUNT(*) AS n FROM alerts WHERE client_id IN (:ids) GROUP BY client_id, status ORDER BY client_id, status',
      { ids: [a.clientId, b.clientId] },
    ),
  );
const kept = async () =>
  asNumbers(
    await select<CountRow>(
      t.sequelize,
      'SELECT client_id, status, n FROM alert_status_counts WHERE client_id IN (:ids) AND n <> 0 ORDER BY client_id, status',
      { ids: [a.clientId, b.clientId] },
    ),
  );

const insert = (org: () => Org, status: number, count: number) => async () => {
  const values = Array.from({ length: count }, () => `(${org().clientId}, ${patients[org().clientId]}, 1, ${status}, 2, :now, :now)`).join(
    ', ',
  );
  await execute(
    t.sequelize,
    `INSERT INTO alerts (client_id, patient_id, alert_type, status, priority, created_at, updated_at) VALUES ${values}`,
    { now: new Date() },
  );
};

beforeAll(async () => {
  t = await startTestProduct();
  a = await createOrg(t, 'Clinica Cuentas A');
  b = await createOrg(t, 'Clinica Cuentas B');
  for (const org of [a, b]) {
    const res = await t.http
      .post('/api/v1/patients')
      .set(bearer(org.tokens.admin))
      .send(patientBody({ nid: `80${org.clientId}001` }));
    expect(res.status).toBe(201);
    patients[org.clientId] = res.body.id;
  }
});
afterAll(() => t.stop());

describe('alert_status_counts', () => {
  const steps: Array<[string, () => Promise<void>]> = [
    ['alerts opened in both clients', insert(() => a, 1, 5)],
    ['alerts stored closed', insert(() => b, 2, 3)],
    [
      'some closed',
      () =>
        execute(
          t.sequelize,
          'UPDATE alerts SET status = 2 WHERE id IN (SELECT id FROM alerts WHERE client_id = :c AND status = 1 ORDER BY id LIMIT 2)',
          { c: a.clientId },
        ).then(() => undefined),
    ],
    [
      'an update that changes neither client nor status',
      () => execute(t.sequelize, 'UPDATE alerts SET priority = 1 WHERE client_id = :c', { c: a.clientId }).then(() => undefined),
    ],
    [
      'one moved to the other client',
      () =>
        execute(
          t.sequelize,
          'UPDATE alerts SET client_id = :to WHERE id = (SELECT MIN(id) FROM alerts WHERE client_id = :from AND status = 1)',
          { from: a.clientId, to: b.clientId },
        ).then(() => undefined),
    ],
    [
      'some deleted',
      () =>
        execute(t.sequelize, 'DELETE FROM alerts WHERE id IN (SELECT id FROM alerts WHERE client_id = :c ORDER BY id LIMIT 2)', {
          c: b.clientId,
        }).then(() => undefined),
    ],
  ];
  it.each(steps)('match counting the alerts after: %s', async (_name, step) => {
    await step();
    expect(await kept()).toEqual(await counted());
  });

  it('answer the badge, the dashboard and a list filtered by status alone', async () => {
    const [open, closed] = [1, 2].map(
      (s) => (rows: Awaited<ReturnType<typeof counted>>) => rows.find((r) => r.client_id === a.clientId && r.status === s)?.n ?? 0,
    );
    const rows = await counted();
    const get = (path: string) => t.http.get(path).set(bearer(a.tokens.admin));
    expect((await get('/api/v1/reports/client_alerts_count?status=active')).body.total).toBe(open(rows));
    expect((await get('/api/v1/reports/client_alerts_count?status=closed')).body.total).toBe(closed(rows));
    expect((await get('/api/v1/reports/client_alerts_metrics')).body.open).toBe(open(rows));
    const list = await get('/api/v1/reports/client_alerts_list?status=closed&_start=0&_end=10');
    expect(list.status).toBe(200);
    expect(Number(list.headers['x-total-count'])).toBe(closed(rows));
    const all = await get('/api/v1/reports/client_alerts_list?_start=0&_end=10');
    expect(Number(all.headers['x-total-count'])).toBe(open(rows) + closed(rows));
  });
});
