import path from 'node:path';
import sqlite3 from 'sqlite3';
import { Sequelize } from 'sequelize';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { select } from '../../api/src/db/sql';
import { createOrg, bearer, patientBody, type TestProduct, type Org } from '../support/product';
import { bootOn, freshDatabase, onPostgres, type FaultDatabase } from './support';

/**
 * The database file locked by another process, or the disk full, in the middle of a write:
 * a 503 with Retry-After and a Spanish message, nothing half-written, and the same process
 * serves again once the lock is gone / space is back. On PostgreSQL: a table locked by another
 * session. (A full disk on PostgreSQL is not simulated.)
 */

const NOW = new Date('2026-11-22T12:00:00Z');
const BUSY = 'El servicio está ocupado en este momento. Intente de nuevo en unos segundos.';

let db: FaultDatabase;
let t: TestProduct;
let org: Org;
let patientId: number;

const run = (conn: sqlite3.Database, sql: string) =>
  new Promise<void>((resolve, reject) => conn.run(sql, (err) => (err ? reject(err) : resolve())));
const closeConn = (conn: sqlite3.Database) => new Promise<void>((resolve) => conn.close(() => resolve()));

/** A batch of heart-rate readings, every third one out of the alarm range (50–110). */
const batch = (n: number, start = 0) => ({
  measurements: Array.from({ length: n }, (_, i) => ({
    clinical_element: 1,
    value: (start + i) % 3 === 0 ? 140 : 72,
    when: new Date(NOW.getTime() - (n - i + start) * 1000).toISOString(),
  })),
});
const post = (body: object) => t.http.post(`/api/v1/patients/${patientId}/measurements`).set(bearer(org.tokens.enfermeria)).send(body);

async function footprint() {
  const q = async (sql: string) => Number((await select<{ n: number }>(t.sequelize, sql, { p: patientId }))[0].n);
  return {
    measurements: await q('SELECT COUNT(*) AS n FROM measurements WHERE patient_id = :p'),
    alerts: await q('SELECT COUNT(*) AS n FROM alerts WHERE patient_id = :p'),
    attached: await q('SELECT COUNT(*) AS n FROM alert_measurements am JOIN alerts a ON a.id = am.alert_id WHERE a.patient_id = :p'),
    jobs: await q('SELECT COUNT(*) AS n FROM jobs'),
  };
}

function expectUnavailable(res: { status: number; headers: Record<string, string>; body: { code: string; message: string } }) {
  expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(503);
  expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  expect(res.body).toEqual({ code: 'unavailable', message: BUSY });
}

async function setUp() {
  db = await freshDatabase();
  t = await bootOn(db, { now: () => NOW });
  org = await createOrg(t, 'Clinica Disco');
  patientId = (await t.http.post('/api/v1/patients').set(bearer(org.tokens.admin)).send(patientBody())).body.id;
  const rule = (
    await t.http
      .post('/api/v1/alarms')
      .set(bearer(org.tokens.admin))
      .send({ name: 'Taquicardia', clinical_element: 1, priority: 1, minimum_condition: 50, maximum_condition: 110 })
  ).body;
  expect(
    (
      await t.http
        .put(`/api/v1/patients/${patientId}`)
        .set(bearer(org.tokens.admin))
        .send({ alarm_ids: [rule.id] })
    ).status,
  ).toBe(200);
}
async function tearDown() {
  await t?.stop();
  await db?.drop();
}

describe.runIf(onPostgres)('storage faults (PostgreSQL)', () => {
  beforeAll(setUp);
  afterAll(tearDown);

  it('answers 503 + Retry-After while another session holds the table locked, stores nothing, and recovers', async () => {
    const before = await footprint();
    const locker = new Sequelize(db.databaseUrl!, { logging: false, pool: { max: 1 } });
    const tx = await locker.transaction();
    await locker.query('LOCK TABLE measurements IN EXCLUSIVE MODE', { transaction: tx });
    try {
      expectUnavailable(await post(batch(6)).timeout(60_000));
      // Readers are not blocked by an EXCLUSIVE lock.
      expect((await t.http.get(`/api/v1/patients/${patientId}/measurements`).set(bearer(org.tokens.consulta))).status).toBe(200);
    } finally {
      await tx.rollback();
      await locker.close();
    }
    expect(await footprint()).toEqual(before);
    const again = await post(batch(6));
    expect(again.status, JSON.stringify(again.body).slice(0, 300)).toBe(201);
    expect((await footprint()).measurements).toBe(before.measurements + 6);
  });
});

describe.skipIf(onPostgres)('storage faults (SQLite)', () => {
  beforeAll(setUp);
  afterAll(tearDown);

  it('answers 503 + Retry-After while another process holds the file locked, stores nothing, and recovers without a restart', async () => {
    const before = await footprint();
    const locker = new sqlite3.Database(path.join(db.dataDir, 'vigia.sqlite'));
    await run(locker, 'PRAGMA busy_timeout = 10000');
    await run(locker, 'BEGIN EXCLUSIVE');
    try {
      expectUnavailable(await post(batch(6)));
      // A plain single-row write, outside any explicit transaction, too.
      expectUnavailable(await t.http.post('/api/v1/tags').set(bearer(org.tokens.admin)).send({ name: 'bloqueo', color: 'red' }));
      // Readers are not blocked (WAL): the record still reads while the writer waits.
      expect((await t.http.get(`/api/v1/patients/${patientId}/measurements`).set(bearer(org.tokens.consulta))).status).toBe(200);
    } finally {
      await run(locker, 'ROLLBACK');
      await closeConn(locker);
    }
    expect(await footprint()).toEqual(before);
    const again = await post(batch(6));
    expect(again.status, JSON.stringify(again.body).slice(0, 300)).toBe(201);
    const after = await footprint();
    expect(after.measurements).toBe(before.measurements + 6);
    expect(after.alerts + after.attached).toBeGreaterThanOrEqual(before.alerts + before.attached + 2);
  });

  it('answers 503 when the disk is full mid-batch: the batch is all-or-nothing; writes work again once space is back', async () => {
    const before = await footprint();
    const [{ page_count: pages }] = await select<{ page_count: number }>(t.sequelize, 'PRAGMA page_count');
    const [{ freelist_count: free }] = await select<{ freelist_count: number }>(t.sequelize, 'PRAGMA freelist_count');
    expect(Number(free)).toBeLessThan(5);
    // The 'disk' limit is put on every connection the app takes while the fault lasts (the main one
    // and the long-lived transaction connection), and lifted on each of them when space is back.
    const manager = t.sequelize.connectionManager as unknown as { getConnection(o?: object): Promise<sqlite3.Database> };
    const original = manager.getConnection.bind(manager);
    let limit = Number(pages);
    const limited = new Set<sqlite3.Database>();
    manager.getConnection = async (o?: object) => {
      const conn = await original(o);
      await run(conn, `PRAGMA max_page_count = ${limit}`);
      limited.add(conn);
      return conn;
    };
    try {
      // 400 readings need far more than the slack left in the last pages.
      expectUnavailable(await post(batch(400)));
      expect(await footprint()).toEqual(before);
    } finally {
      limit = 1073741823;
      for (const conn of limited) await run(conn, `PRAGMA max_page_count = ${limit}`);
      await t.sequelize.query(`PRAGMA max_page_count = ${limit}`);
      manager.getConnection = original;
    }
    const again = await post(batch(400, 1));
    expect(again.status, JSON.stringify(again.body).slice(0, 300)).toBe(201);
    expect(again.body).toHaveLength(400);
    expect((await footprint()).measurements).toBe(before.measurements + 400);
  });
});
