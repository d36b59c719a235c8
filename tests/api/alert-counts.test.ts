import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { execute, select } from '../../api/src/db/sql';
import { foldFilterCounts } from '../../api/src/modules/alerts/alerts.counts';
import { startTestProduct, createOrg, bearer, patientBody, type TestProduct, type Org } from '../support/product';

/**
 * The alerts per client and status that alert_filter_counts keeps (migration 0021, P200): after any
 * insert, status change, move between clients or delete of alerts, by whatever writes them, its
 * sums must equal counting the alerts. The badge, the dashboard's open alerts and a list filtered by
 * status alone read them; alert_status_counts (0017) is gone (0022).
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
      `SELECT client_id, status, SUM(n) AS n FROM alert_filter_counts WHERE client_id IN (:ids)
        GROUP BY client_id, status HAVING SUM(n) <> 0 ORDER BY client_id, status`,
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

describe('alert totals per client and status', () => {
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

  it('are all that is kept: alert_status_counts and its triggers are gone', async () => {
    const tables = await select<{ name: string }>(
      t.sequelize,
      t.sequelize.getDialect() === 'postgres'
        ? `SELECT tablename AS name FROM pg_tables WHERE tablename = 'alert_status_counts'
           UNION ALL SELECT tgname FROM pg_trigger WHERE tgname LIKE 'alert_status_counts%'
           UNION ALL SELECT proname FROM pg_proc WHERE proname LIKE 'alert_status_counts%'`
        : "SELECT name FROM sqlite_master WHERE name LIKE 'alert_status_counts%'",
    );
    expect(tables).toEqual([]);
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

/**
 * alert_filter_counts (migration 0021, P199): rows the triggers append, one per kind of alert an
 * alert enters or leaves; folded by the alert-count job. Summed per kind, it must equal counting
 * the alerts after any change by whatever writes them, before and after a fold, and the alerts
 * manager's totals for its filters without dates or a name come from it.
 */
describe('alert_filter_counts', () => {
  type KindRow = { client_id: number; status: number; priority: number; alert_type: number; clinical_element: number | null; n: number };
  const KIND = 'client_id, status, priority, alert_type, clinical_element';
  const norm = (rows: KindRow[]) =>
    rows.map((r) => ({
      client_id: Number(r.client_id),
      status: Number(r.status),
      priority: Number(r.priority),
      alert_type: Number(r.alert_type),
      clinical_element: r.clinical_element == null ? null : Number(r.clinical_element),
      n: Number(r.n),
    }));
  const order = `ORDER BY client_id, status, priority, alert_type, COALESCE(clinical_element, -1)`;
  const countedByKind = async () =>
    norm(
      await select<KindRow>(t.sequelize, `SELECT ${KIND}, COUNT(*) AS n FROM alerts WHERE client_id IN (:ids) GROUP BY ${KIND} ${order}`, {
        ids: [a.clientId, b.clientId],
      }),
    );
  const keptByKind = async () =>
    norm(
      await select<KindRow>(
        t.sequelize,
        `SELECT ${KIND}, SUM(n) AS n FROM alert_filter_counts WHERE client_id IN (:ids) GROUP BY ${KIND} HAVING SUM(n) <> 0 ${order}`,
        { ids: [a.clientId, b.clientId] },
      ),
    );
  const rowsKept = async () => Number((await select<{ n: number }>(t.sequelize, 'SELECT COUNT(*) AS n FROM alert_filter_counts', {}))[0].n);

  const add = (org: () => Org, kinds: Array<[status: number, priority: number, type: number, element: number | null]>) => async () => {
    const values = kinds.map(
      ([status, priority, type, element]) =>
        `(${org().clientId}, ${patients[org().clientId]}, ${type}, ${status}, ${priority}, ${element ?? 'NULL'}, :now, :now)`,
    );
    await execute(
      t.sequelize,
      `INSERT INTO alerts (client_id, patient_id, alert_type, status, priority, clinical_element, created_at, updated_at) VALUES ${values.join(', ')}`,
      { now: new Date() },
    );
  };
  /** Params read when the step runs (the organisations exist only then). */
  const run = (sql: string, params: () => Record<string, unknown>) => () => execute(t.sequelize, sql, params()).then(() => undefined);

  const steps: Array<[string, () => Promise<void>]> = [
    [
      'alerts of several kinds, one without an element',
      add(
        () => a,
        [
          [1, 1, 1, 1],
          [1, 1, 1, 1],
          [1, 2, 0, 3],
          [1, 3, 2, null],
          [2, 2, 1, 0],
          [1, 2, 1, 1],
        ],
      ),
    ],
    [
      'alerts in the other client',
      add(
        () => b,
        [
          [1, 2, 1, 4],
          [2, 3, 0, 7],
        ],
      ),
    ],
    [
      'some closed',
      run(
        'UPDATE alerts SET status = 2 WHERE id IN (SELECT id FROM alerts WHERE client_id = :c AND status = 1 ORDER BY id LIMIT 2)',
        () => ({
          c: a.clientId,
        }),
      ),
    ],
    [
      'a priority raised',
      run('UPDATE alerts SET priority = 1 WHERE id = (SELECT MAX(id) FROM alerts WHERE client_id = :c)', () => ({ c: a.clientId })),
    ],
    [
      'an element set where there was none, and one cleared',
      run(
        'UPDATE alerts SET clinical_element = CASE WHEN clinical_element IS NULL THEN 5 ELSE NULL END WHERE id IN (SELECT id FROM alerts WHERE client_id = :c ORDER BY id DESC LIMIT 3)',
        () => ({ c: a.clientId }),
      ),
    ],
    [
      'an update that changes no kind',
      run('UPDATE alerts SET description = :d WHERE client_id = :c', () => ({ c: a.clientId, d: 'revisada' })),
    ],
    [
      'one moved to the other client',
      run('UPDATE alerts SET client_id = :to WHERE id = (SELECT MIN(id) FROM alerts WHERE client_id = :from)', () => ({
        from: a.clientId,
        to: b.clientId,
      })),
    ],
    ['folded', () => foldFilterCounts(t.sequelize).then(() => undefined)],
    [
      'some deleted after the fold',
      run('DELETE FROM alerts WHERE id IN (SELECT id FROM alerts WHERE client_id = :c ORDER BY id LIMIT 2)', () => ({ c: b.clientId })),
    ],
    ['a type changed', run('UPDATE alerts SET alert_type = 0 WHERE client_id = :c AND alert_type = 1', () => ({ c: a.clientId }))],
  ];
  it.each(steps)('summed per kind, match counting the alerts after: %s', async (_name, step) => {
    await step();
    expect(await keptByKind()).toEqual(await countedByKind());
  });

  it('a fold leaves one row per kind in use and every sum as it was', async () => {
    const before = await keptByKind();
    const appended = await rowsKept();
    const removed = await foldFilterCounts(t.sequelize);
    expect(await keptByKind()).toEqual(before);
    const all = await select<{ kinds: number; n: number }>(
      t.sequelize,
      `SELECT COUNT(*) AS n, COUNT(DISTINCT ${KIND.split(', ')
        .map((c) => `COALESCE(${c}, -1)`)
        .join(" || '.' || ")}) AS kinds FROM alert_filter_counts`,
      {},
    );
    expect(Number(all[0].n)).toBe(Number(all[0].kinds));
    expect(removed).toBe(appended - (await rowsKept()));
    expect(removed).toBeGreaterThan(0);
    expect(await foldFilterCounts(t.sequelize)).toBe(0);
  });

  it("answer the alerts manager's totals for filters without dates or a name, as counting the alerts does", async () => {
    await add(
      () => a,
      [
        [1, 1, 1, 1],
        [2, 3, 2, 2],
      ],
    )();
    const filters: Array<[string, string]> = [
      ['', ''],
      ['status=active', 'status = 1'],
      ['status=closed', 'status = 2'],
      ['priority=1', 'priority = 1'],
      ['status=active&priority=2', 'status = 1 AND priority = 2'],
      ['alert_type=1', 'alert_type = 1'],
      ['status=closed&alert_type=0&priority=3', 'status = 2 AND alert_type = 0 AND priority = 3'],
      // Element 1 (heart rate) also lists element 0 (the same vital's alerts of an older kind).
      ['clinical_element=1', 'clinical_element IN (0, 1)'],
      ['clinical_element=5&status=active', 'clinical_element = 5 AND status = 1'],
    ];
    for (const [query, clause] of filters) {
      const [{ n }] = await select<{ n: number }>(
        t.sequelize,
        `SELECT COUNT(*) AS n FROM alerts WHERE client_id = :c${clause ? ` AND ${clause}` : ''}`,
        {
          c: a.clientId,
        },
      );
      const res = await t.http.get(`/api/v1/reports/client_alerts_list?${query}&_start=0&_end=5`).set(bearer(a.tokens.admin));
      expect(res.status, query).toBe(200);
      expect([query, Number(res.headers['x-total-count'])]).toEqual([query, Number(n)]);
    }
  });
});
