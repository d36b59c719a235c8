import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { execute, Positional, select } from '../../api/src/db/sql';
import { rebuildSummaries, refreshSummaries } from '../../api/src/modules/triage/triage.summaries';
import * as summariesDue from '../../api/src/db/migrations/0025-triage-summaries-due';
import { startTestProduct, createOrg, bearer, patientBody, type TestProduct, type Org } from '../support/product';

/**
 * GET /api/v1/triage (issue 21) on the real product, on SQLite and (DATABASE_URL) PostgreSQL:
 * one patient per flag, each built from readings (through the API, so the ingestion hook marks
 * it), alerts, orders and activities, and each raising exactly that one flag. The summary job
 * builds the list off the request path; its summaries must equal a rebuild from the readings.
 */
const NOW = new Date('2026-11-20T12:00:00Z');
const DAY = 86_400_000;
const ago = (days: number) => new Date(NOW.getTime() - days * DAY);

let t: TestProduct;
let org: Org;
let other: Org;
/** When the summary job last ran: each run a minute later (one run per slot), or `days` on. */
let jobClock = NOW;
let runs = 0;
const ids: Record<string, number> = {};

type Reading = { clinical_element?: number; value?: number; systolic?: number; diastolic?: number; when: string };
const glucose = (values: number[], fromDay = 1): Reading[] =>
  values.map((value, i) => ({ clinical_element: 6, value, when: ago(fromDay + i * 0.2).toISOString() }));
const times = (n: number, v: number) => Array.from({ length: n }, () => v);

async function newPatient(o: Org, name: string, last = 'prueba'): Promise<number> {
  const res = await t.http
    .post('/api/v1/patients')
    .set(bearer(o.tokens.admin))
    .send(patientBody({ first_name: name, last_name: last }));
  expect(res.status).toBe(201);
  return res.body.id;
}

async function send(patient: number, measurements: Reading[]) {
  const res = await t.http.post(`/api/v1/patients/${patient}/measurements`).set(bearer(org.tokens.enfermeria)).send({ measurements });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
}

async function order(patient: number, type: number, status: number, element: number | null, start: Date): Promise<number> {
  await execute(
    t.sequelize,
    `INSERT INTO orders (client_id, patient_id, order_type, status, clinical_element, during, start_at, days, hours, created_at, updated_at)
     VALUES (:c, :p, :type, :status, :element, 30, :start, '[]', '[]', :now, :now)`,
    { c: org.clientId, p: patient, type, status, element, start, now: NOW },
  );
  const [row] = await select<{ id: number }>(t.sequelize, 'SELECT MAX(id) AS id FROM orders WHERE patient_id = :p', { p: patient });
  return Number(row.id);
}

async function activities(patient: number, orderId: number, statuses: number[]) {
  for (const [i, status] of statuses.entries())
    await execute(
      t.sequelize,
      `INSERT INTO activities (client_id, patient_id, order_id, slot_at, programmed_at, status, created_at, updated_at)
       VALUES (:c, :p, :o, :at, :at, :status, :now, :now)`,
      { c: org.clientId, p: patient, o: orderId, at: ago(2 + i), status, now: NOW },
    );
}

/** SQLite: a statement explained on a read-only connection of its own (the API's keep theirs prepared). */
async function explainOnSqlite(sql: string, bind: unknown[]): Promise<Array<{ detail: string }>> {
  type Conn = { all(sql: string, p: unknown[], cb: (e: Error | null, r: unknown[]) => void): void; close(cb: () => void): void };
  const { lib } = t.sequelize.connectionManager as unknown as {
    lib: { Database: new (file: string, mode: number, cb: (err: Error | null) => void) => Conn; OPEN_READONLY: number };
  };
  const storage = (t.sequelize as unknown as { options: { storage: string } }).options.storage;
  const conn = await new Promise<Conn>((resolve, reject) => {
    const c = new lib.Database(storage, lib.OPEN_READONLY, (err) => (err ? reject(err) : resolve(c)));
  });
  try {
    return await new Promise((resolve, reject) =>
      conn.all(sql, bind, (err, rows) => (err ? reject(err) : resolve(rows as Array<{ detail: string }>))),
    );
  } finally {
    await new Promise<void>((resolve) => conn.close(resolve));
  }
}
const list = (query = '', token = org.tokens.enfermeria) => t.http.get(`/api/v1/triage${query}`).set(bearer(token));
const runJob = (days = 0) => {
  jobClock = new Date(NOW.getTime() + days * DAY + runs++ * 60_000);
  return t.jobs.drain({ now: jobClock, kinds: ['triage.refresh'] });
};

/** The one flag each patient is built to raise, with its points (default weights). */
const EXPECTED: Record<string, { code: string; points: number; label: string } | null> = {
  alert: { code: 'open_alerts', points: 30, label: '1 alerta abierta (1 alta)' },
  pressure: {
    code: 'out_of_range',
    points: 20,
    label: 'Presión arterial: 4 de 4 lecturas fuera de rango (100 %, meta: menos de 140/90 mmHg); la peor 165/95 mmHg',
  },
  tirLow: { code: 'glucose_tir_low', points: 25, label: 'Glucosa: 60 % de las lecturas en rango (70–180 mg/dL); meta: 65 % o más' },
  below70: { code: 'glucose_below_70', points: 30, label: 'Glucosa: 5 % de las lecturas bajo 70 mg/dL; máximo 4 %' },
  below54: { code: 'glucose_below_54', points: 40, label: 'Glucosa: 4 % de las lecturas bajo 54 mg/dL; máximo 1 %' },
  drop: {
    code: 'glucose_tir_drop',
    points: 20,
    label: 'Glucosa: el tiempo en rango bajó 20 puntos (de 100 % a 80 %) frente a los 14 días anteriores',
  },
  littleData: { code: 'glucose_little_data', points: 10, label: 'Glucosa: 13 lecturas en 14 días; se esperan al menos 14' },
  weight: { code: 'weight_gain', points: 30, label: 'Peso: subió 2,5 kg en 3 días o menos (de 70 a 72,5 kg)' },
  silent: { code: 'no_readings', points: 15, label: 'Sin lecturas de Presión arterial hace 10 días con una orden en ejecución' },
  adherence: { code: 'adherence_low', points: 15, label: 'Cumplimiento de 50 % en los últimos 30 días (bajo: 50 % o menos)' },
  missed: { code: 'missed_medication', points: 10, label: '1 toma de medicación no realizada en 14 días' },
  calm: null,
};

beforeAll(async () => {
  t = await startTestProduct({ now: () => NOW });
  org = await createOrg(t, 'Clinica Priorizacion');
  other = await createOrg(t, 'Clinica Ajena');
  for (const key of Object.keys(EXPECTED))
    ids[key] = await newPatient(org, key === 'calm' ? 'tranquila' : 'paciente', key.toLowerCase().replace(/[0-9]/g, ''));
  ids.foreign = await newPatient(other, 'ajena');

  await execute(
    t.sequelize,
    `INSERT INTO alerts (client_id, patient_id, alert_type, status, priority, created_at, updated_at) VALUES (:c, :p, 0, 1, 1, :now, :now)`,
    { c: org.clientId, p: ids.alert, now: NOW },
  );
  await send(
    ids.pressure,
    [
      [150, 85],
      [165, 95],
      [145, 80],
      [141, 70],
    ].map(([systolic, diastolic], i) => ({ systolic, diastolic, when: ago(1 + i).toISOString() })),
  );
  await send(ids.tirLow, glucose([...times(12, 120), ...times(8, 250)]));
  await send(ids.below70, glucose([...times(19, 120), 65]));
  await send(ids.below54, glucose([...times(24, 120), 50]));
  await send(ids.drop, [...glucose(times(20, 120), 15), ...glucose([...times(16, 120), ...times(4, 200)])]);
  await send(ids.littleData, glucose(times(13, 120)));
  await send(ids.weight, [
    { clinical_element: 5, value: 70, when: ago(4).toISOString() },
    { clinical_element: 5, value: 72.5, when: ago(1).toISOString() },
  ]);
  await order(ids.silent, 0, 2, 3, ago(10));
  // Adherence 1 of 2 (50 %, red band) on a finished vital-sign order: no silence flag.
  await activities(ids.adherence, await order(ids.adherence, 0, 4, 3, ago(20)), [2, 4]);
  // One medication dose missed of three (67 %, not red).
  await activities(ids.missed, await order(ids.missed, 1, 4, null, ago(20)), [2, 2, 4]);
});
afterAll(() => t.stop());

describe('GET /api/v1/triage', () => {
  it('is built by the summary job, not by the request', async () => {
    const before = await list();
    expect(before.status).toBe(200);
    expect(before.body).toEqual([]);
    await runJob();
    const after = await list();
    expect(Number(after.headers['x-total-count'])).toBe(Object.keys(EXPECTED).length);
  });

  it('ranks every active patient by score, each built to raise exactly one flag, with its figures in Spanish', async () => {
    const res = await list('?_start=0&_end=100');
    expect(res.status).toBe(200);
    const order = Object.entries(EXPECTED)
      .map(([key, flag]) => ({ id: ids[key], score: flag?.points ?? 0 }))
      .sort((a, b) => b.score - a.score || b.id - a.id)
      .map((x) => x.id);
    expect(res.body.map((r: { id: number }) => r.id)).toEqual(order);
    for (const [key, flag] of Object.entries(EXPECTED)) {
      const item = res.body.find((r: { id: number }) => r.id === ids[key]);
      expect(item.score, key).toBe(flag?.points ?? 0);
      expect(
        item.flags.map((f: { code: string; points: number; label: string }) => ({ code: f.code, points: f.points, label: f.label })),
        key,
      ).toEqual(flag ? [flag] : []);
    }
    const pressure = res.body.find((r: { id: number }) => r.id === ids.pressure);
    expect(pressure.flags[0]).toMatchObject({
      tab: 'signs',
      clinical_element: 3,
      figures: { readings: 4, out_of_range: 4, percent: 100, worst: 165, worst_diastolic: 95 },
    });
    expect(pressure.patient).toMatchObject({ id: ids.pressure, first_name: 'PACIENTE', tags: [] });
    expect(pressure.last_reading_at).toBe(ago(1).toISOString());
    // The card's 'Última lectura' shows the values, both of a blood pressure (issue 50).
    expect(pressure.last_reading).toEqual({
      when: ago(1).toISOString(),
      values: [
        { clinical_element: 3, value: 150 },
        { clinical_element: 4, value: 85 },
      ],
    });
    const weight = res.body.find((r: { id: number }) => r.id === ids.weight);
    expect(weight.last_reading).toEqual({ when: ago(1).toISOString(), values: [{ clinical_element: 5, value: 72.5 }] });
    expect(res.body.find((r: { id: number }) => r.id === ids.calm).last_reading).toBeNull();
    expect(res.body.find((r: { id: number }) => r.id === ids.alert).flags[0]).toMatchObject({ tab: 'alerts', figures: { high: 1 } });
  });

  it("reads each listed patient's last reading by the (patient_id, when) index, at its summary's instant (issue 52)", async () => {
    // The statement the page sends for the readings' values, with its own bound values.
    const sent: Array<{ text: string; bind: unknown[] }> = [];
    const options = (t.sequelize as unknown as { options: { logging: unknown } }).options;
    const logging = options.logging;
    options.logging = (line: string, opts?: { bind?: unknown[] }) => {
      if (/\bmeasurements m\b/.test(line)) sent.push({ text: line.replace(/^Executing \([^)]*\): /, ''), bind: opts?.bind ?? [] });
    };
    try {
      const res = await list('?_start=0&_end=100');
      expect(res.status).toBe(200);
      for (const item of res.body as Array<{ last_reading_at: string | null; last_reading: { when: string } | null }>)
        expect(item.last_reading?.when ?? null).toBe(item.last_reading_at);
    } finally {
      options.logging = logging;
    }
    expect(sent).toHaveLength(1);
    const { text, bind } = sent[0];
    if (t.sequelize.getDialect() === 'sqlite') {
      const plan = await explainOnSqlite(`EXPLAIN QUERY PLAN ${text}`, bind);
      const steps = plan.map((r) => r.detail).filter((d) => /\bm\b/.test(d));
      expect(steps.length).toBeGreaterThan(0);
      for (const step of steps) expect(step).toBe('SEARCH m USING INDEX measurements_patient_when (patient_id=? AND when=?)');
    } else {
      // A test's few rows are read faster whole: the planner is asked whether an index serves, not
      // whether it pays here.
      const plan = await t.sequelize.transaction(async (transaction) => {
        await execute(t.sequelize, 'SET LOCAL enable_seqscan = off', {}, transaction);
        return select<{ 'QUERY PLAN': string }>(t.sequelize, `EXPLAIN ${text}`, new Positional(bind), transaction);
      });
      const lines = plan.map((r) => r['QUERY PLAN']).join('\n');
      expect(lines).toMatch(/Index Cond: .*"when" = /);
      expect(lines).not.toMatch(/Seq Scan/);
    }
  });

  it('pages (_start/_end), filters by flag, tag and text, and never shows another client', async () => {
    const all = (await list('?_start=0&_end=100')).body.map((r: { id: number }) => r.id);
    const page = await list('?_start=2&_end=4');
    expect(page.body.map((r: { id: number }) => r.id)).toEqual(all.slice(2, 4));
    expect(page.headers['x-total-count']).toBe(String(Object.keys(EXPECTED).length));
    const glucoseLow = await list('?flag=glucose_below_70');
    expect(glucoseLow.body.map((r: { id: number }) => r.id)).toEqual([ids.below70]);
    expect(glucoseLow.headers['x-total-count']).toBe('1');
    const tag = await t.http.post('/api/v1/tags').set(bearer(org.tokens.admin)).send({ name: 'HIPERTENSIÓN', color: 'red' });
    expect(tag.status).toBe(201);
    await execute(t.sequelize, 'INSERT INTO patient_tags (patient_id, tag_id) VALUES (:p, :t)', { p: ids.pressure, t: tag.body.id });
    expect((await list(`?tags=${tag.body.id}`)).body.map((r: { id: number }) => r.id)).toEqual([ids.pressure]);
    expect((await list('?q=tranquila')).body.map((r: { id: number }) => r.id)).toEqual([ids.calm]);
    const foreign = await list('?_start=0&_end=100', other.tokens.admin);
    expect(foreign.body.map((r: { id: number }) => r.id)).toEqual([ids.foreign]);
  });

  it('answers 400 naming the field for an unknown flag', async () => {
    const res = await list('?flag=nothing');
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain('flag');
  });

  it('keeps the summaries equal to a rebuild from the readings', async () => {
    expect((await rebuildSummaries(t.sequelize, jobClock, { check: true })).differences).toEqual([]);
  });

  it('orders by readings out of range below the share threshold, and flags a single critical value (NEWS2)', async () => {
    const clinic = await createOrg(t, 'Clinica Orden');
    // Created first, so each would lose a tie to the patients after it (ties go to the newer patient).
    const spo2 = await newPatient(clinic, 'saturacion');
    const pressure = await newPatient(clinic, 'presion');
    const calm = await newPatient(clinic, 'calma');
    const post = async (p: number, measurements: Reading[]) => {
      const res = await t.http.post(`/api/v1/patients/${p}/measurements`).set(bearer(clinic.tokens.enfermeria)).send({ measurements });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    };
    const tenDays = (value: (i: number) => Partial<Reading>) =>
      Array.from({ length: 10 }, (_, i) => ({ ...value(i), when: ago(1 + i).toISOString() }));
    await post(
      spo2,
      tenDays((i) => ({ clinical_element: 2, value: i === 0 ? 91 : 97 })),
    );
    await post(
      pressure,
      tenDays((i) => (i === 0 ? { systolic: 150, diastolic: 85 } : { systolic: 120, diastolic: 80 })),
    );
    await post(
      calm,
      tenDays(() => ({ clinical_element: 2, value: 97 })),
    );
    await runJob();
    const res = await list('?_start=0&_end=100', clinic.tokens.enfermeria);
    expect(res.status).toBe(200);
    expect(
      res.body.map((r: { id: number; score: number; flags: Array<{ code: string; points: number }> }) => [
        r.id,
        r.score,
        r.flags.map((f) => `${f.code} ${f.points}`),
      ]),
    ).toEqual([
      [spo2, 38, ['news2_critical 30', 'out_of_range_few 8']],
      [pressure, 8, ['out_of_range_few 8']],
      [calm, 0, []],
    ]);
    expect(res.body[0].flags[0]).toMatchObject({
      tab: 'signs',
      clinical_element: 2,
      label: 'Saturación de oxígeno: 91 %, un valor que NEWS2 puntúa 3 (91 % o menos); 1 lectura crítica en 14 días',
      figures: { element: 2, value: 91, when: ago(1).getTime(), readings: 1 },
    });
    const critical = await list('?flag=news2_critical', clinic.tokens.enfermeria);
    expect(critical.body.map((r: { id: number }) => r.id)).toEqual([spo2]);
    expect((await rebuildSummaries(t.sequelize, jobClock, { check: true })).differences).toEqual([]);
    // Out of the list again, so the counts of the tests below stay those of their own patients.
    await execute(t.sequelize, 'UPDATE patients SET status = 0 WHERE client_id = :c', { c: clinic.clientId });
    await runJob();
    expect((await list('', clinic.tokens.enfermeria)).body).toEqual([]);
  });

  it('takes a new reading, a closed alert and an inactive patient at the next job run', async () => {
    await send(
      ids.calm,
      times(4, 88).map((value, i) => ({ clinical_element: 2, value, when: ago(i + 0.5).toISOString() })),
    );
    await execute(t.sequelize, 'UPDATE alerts SET status = 2 WHERE patient_id = :p', { p: ids.alert });
    await execute(t.sequelize, 'UPDATE patients SET status = 0 WHERE id = :p', { p: ids.missed });
    // The reading marked its patient (by trigger, migration 0023), and so did the alert and the status.
    const dirty = await select<{ patient_id: number }>(t.sequelize, 'SELECT patient_id FROM triage_dirty');
    expect(dirty.map((d) => Number(d.patient_id))).toEqual(expect.arrayContaining([ids.calm, ids.alert, ids.missed]));
    // Stale until the job runs: the reading's request did not compute anything.
    const stale = (await list('?_start=0&_end=100')).body;
    expect(stale.find((r: { id: number }) => r.id === ids.calm).score).toBe(0);
    await runJob();
    const fresh = (await list('?_start=0&_end=100')).body;
    // SpO2 88 % is also a level NEWS2 scores 3 on its own.
    expect(fresh.find((r: { id: number }) => r.id === ids.calm).flags.map((f: { code: string }) => f.code)).toEqual([
      'news2_critical',
      'out_of_range',
    ]);
    expect(fresh.find((r: { id: number }) => r.id === ids.alert).score).toBe(0);
    expect(fresh.some((r: { id: number }) => r.id === ids.missed)).toBe(false);
    expect((await rebuildSummaries(t.sequelize, jobClock, { check: true })).differences).toEqual([]);
  });

  it("follows the client's settings: a lower time-in-range target clears the flag at the next run", async () => {
    const bad = await t.http
      .patch(`/api/v1/clients/${org.clientId}`)
      .set(bearer(org.tokens.admin))
      .send({ triage_settings: { tir_min_percent: 150 } });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('tir_min_percent');
    // A weight's rule is the contract's TriageWeight: its message, naming the weight.
    const badWeight = await t.http
      .patch(`/api/v1/clients/${org.clientId}`)
      .set(bearer(org.tokens.admin))
      .send({ triage_settings: { weights: { no_readings: 1001 } } });
    expect(badWeight.status).toBe(400);
    expect(JSON.stringify(badWeight.body)).toContain('no_readings');
    expect(JSON.stringify(badWeight.body)).toContain('Debe ser un número entero entre 0 y 1000');
    const res = await t.http
      .patch(`/api/v1/clients/${org.clientId}`)
      .set(bearer(org.tokens.admin))
      .send({ triage_settings: { tir_min_percent: 55, weights: { glucose_below_54: 45 } } });
    expect(res.status).toBe(200);
    expect(res.body.triage_settings).toMatchObject({
      tir_min_percent: 55,
      below_low_max_percent: 4,
      weights: { glucose_below_54: 45, open_alert_high: 30 },
    });
    await runJob();
    const body = (await list('?_start=0&_end=100')).body;
    expect(body.find((r: { id: number }) => r.id === ids.tirLow).flags).toEqual([]);
    // Only the patient with SpO2 of 88 % (a critical value and out of range: 30 + 20) ranks above.
    expect(body.slice(0, 2)).toMatchObject([
      { id: ids.calm, score: 50 },
      { id: ids.below54, score: 45 },
    ]);
    expect((await rebuildSummaries(t.sequelize, jobClock, { check: true })).differences).toEqual([]);
  });

  it('moves the window with time: 15 days later the readings of today are the previous window', async () => {
    await runJob(15);
    const later = (await list('?_start=0&_end=100')).body;
    // The BP readings (1–4 days old) left the window; the silent order has now waited 25 days.
    expect(later.find((r: { id: number }) => r.id === ids.pressure).score).toBe(0);
    expect(later.find((r: { id: number }) => r.id === ids.tirLow).flags.map((f: { code: string }) => f.code)).toEqual([
      'glucose_little_data',
    ]);
    expect((await rebuildSummaries(t.sequelize, jobClock, { check: true })).differences).toEqual([]);
  });

  it('a batch read in runs of few readings scores as one read at once (runs of 1 reading: every patient alone)', async () => {
    expect((await rebuildSummaries(t.sequelize, jobClock, { check: true, maxReadingsPerRead: 1 })).differences).toEqual([]);
    const split = await rebuildSummaries(t.sequelize, jobClock, { maxReadingsPerRead: 1 });
    expect(split.patients).toBe(12);
    expect((await rebuildSummaries(t.sequelize, jobClock, { check: true })).differences).toEqual([]);
  });

  it('recomputes a marked patient once per run: marked again meanwhile, it waits for the next run', async () => {
    // A reading stored while the job computes its patient marks it again; here a trigger does it on every summary stored.
    const postgres = t.sequelize.getDialect() === 'postgres';
    const remark = postgres
      ? [
          `CREATE TRIGGER test_remark AFTER INSERT OR UPDATE ON triage_summaries FOR EACH ROW EXECUTE FUNCTION triage_mark_patient('patient_id')`,
        ]
      : ['INSERT', 'UPDATE'].map(
          (event) => `CREATE TRIGGER test_remark_${event.toLowerCase()} AFTER ${event} ON triage_summaries BEGIN
             INSERT INTO triage_dirty (patient_id) VALUES (NEW.patient_id) ON CONFLICT DO NOTHING;
           END`,
        );
    for (const statement of remark) await execute(t.sequelize, statement, {});
    try {
      await execute(t.sequelize, 'DELETE FROM triage_dirty', {});
      await execute(t.sequelize, 'INSERT INTO triage_dirty (patient_id) VALUES (:a), (:b)', { a: ids.calm, b: ids.alert });
      const [{ n: due }] = await select<{ n: number }>(
        t.sequelize,
        'SELECT COUNT(*) AS n FROM triage_summaries WHERE valid_until <= :now',
        {
          now: jobClock,
        },
      );
      expect(await refreshSummaries(t.sequelize, jobClock, { maxPatients: 50 })).toBe(2 + Number(due));
      const waiting = await select<{ patient_id: number }>(t.sequelize, 'SELECT patient_id FROM triage_dirty ORDER BY patient_id');
      expect(waiting.map((w) => Number(w.patient_id))).toEqual([ids.calm, ids.alert].sort((x, y) => x - y));
    } finally {
      for (const name of postgres ? ['test_remark'] : ['test_remark_insert', 'test_remark_update'])
        await execute(t.sequelize, `DROP TRIGGER ${name}${postgres ? ' ON triage_summaries' : ''}`, {});
      await execute(t.sequelize, 'DELETE FROM triage_dirty', {});
    }
  });

  it('the rebuild writes what the job would have', async () => {
    await execute(t.sequelize, 'UPDATE triage_summaries SET score = 999, flags = :empty', { empty: '[]' });
    expect((await rebuildSummaries(t.sequelize, jobClock, { check: true })).differences.length).toBeGreaterThan(0);
    const rebuilt = await rebuildSummaries(t.sequelize, jobClock);
    // Every active patient of both clients: 12 built here, one made inactive, one of the other client.
    expect(rebuilt.patients).toBe(12);
    expect((await rebuildSummaries(t.sequelize, jobClock, { check: true })).differences).toEqual([]);
  });
  it('migration 0025 makes every stored summary due: the next job run recomputes those computed before the new flags', async () => {
    // As a summary stored by the rules before news2_critical and out_of_range_few: no flags.
    await execute(t.sequelize, 'UPDATE triage_summaries SET score = 0, flag_mask = 0, flags = :empty', { empty: '[]' });
    expect((await rebuildSummaries(t.sequelize, jobClock, { check: true })).differences.length).toBeGreaterThan(0);
    await summariesDue.up({ context: t.sequelize.getQueryInterface() });
    const [{ n }] = await select<{ n: number }>(t.sequelize, 'SELECT COUNT(*) AS n FROM triage_summaries WHERE valid_until > :now', {
      now: jobClock,
    });
    expect(Number(n)).toBe(0);
    expect(await refreshSummaries(t.sequelize, jobClock)).toBe(12);
    expect((await rebuildSummaries(t.sequelize, jobClock, { check: true })).differences).toEqual([]);
  });
});

describe('GET /api/v1/reports/indicators', () => {
  let clinic: Org;
  const h: Record<string, number> = {};
  const runIndicators = (at: Date) => t.jobs.drain({ now: at, kinds: ['indicators.refresh'] });
  const get = () => t.http.get('/api/v1/reports/indicators').set(bearer(clinic.tokens.consulta));

  beforeAll(async () => {
    clinic = await createOrg(t, 'Clinica Indicadores');
    for (const key of ['controlled', 'uncontrolled', 'ordered', 'glucose']) h[key] = await newPatient(clinic, 'indicador', key);
    await execute(t.sequelize, 'UPDATE patients SET created_at = :at WHERE client_id = :c', { at: ago(60), c: clinic.clientId });
    const tag = await t.http.post('/api/v1/tags').set(bearer(clinic.tokens.admin)).send({ name: 'Hipertensión', color: 'red' });
    expect(tag.body.name).toBe('HIPERTENSIÓN');
    for (const p of [h.controlled, h.uncontrolled])
      await execute(t.sequelize, 'INSERT INTO patient_tags (patient_id, tag_id) VALUES (:p, :t)', { p, t: tag.body.id });
    const post = (p: number, measurements: Reading[]) =>
      t.http.post(`/api/v1/patients/${p}/measurements`).set(bearer(clinic.tokens.enfermeria)).send({ measurements });
    expect((await post(h.controlled, [{ systolic: 130, diastolic: 80, when: ago(10).toISOString() }])).status).toBe(201);
    // 139/90: the diastolic is not under 90.
    expect((await post(h.uncontrolled, [{ systolic: 139, diastolic: 90, when: ago(5).toISOString() }])).status).toBe(201);
    expect((await post(h.glucose, [...glucose([120, 120, 120, 250]), ...glucose([100, 100], 40)])).status).toBe(201);
    await execute(
      t.sequelize,
      `INSERT INTO orders (client_id, patient_id, order_type, status, clinical_element, during, start_at, days, hours, created_at, updated_at)
       VALUES (:c, :p, 0, 2, 3, 30, :now, '[]', '[]', :now, :now)`,
      { c: clinic.clientId, p: h.ordered, now: NOW },
    );
    // Adherence from a finished medication order each: 1 of 2 (red), 3 of 3 (green).
    for (const [p, statuses] of [
      [h.controlled, [2, 4]],
      [h.uncontrolled, [2, 2, 2]],
    ] as const) {
      await execute(
        t.sequelize,
        `INSERT INTO orders (client_id, patient_id, order_type, status, during, start_at, days, hours, created_at, updated_at)
         VALUES (:c, :p, 1, 4, 30, :start, '[]', '[]', :now, :now)`,
        { c: clinic.clientId, p, start: ago(20), now: NOW },
      );
      const [{ id: orderId }] = await select<{ id: number }>(t.sequelize, 'SELECT MAX(id) AS id FROM orders WHERE patient_id = :p', { p });
      for (const [i, status] of statuses.entries())
        await execute(
          t.sequelize,
          `INSERT INTO activities (client_id, patient_id, order_id, slot_at, programmed_at, status, created_at, updated_at)
           VALUES (:c, :p, :o, :at, :at, :status, :now, :now)`,
          { c: clinic.clientId, p, o: orderId, at: ago(2 + i * 0.1), status, now: NOW },
        );
    }
  });

  it('answers no month before the job ran', async () => {
    const res = await get();
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ months: [], computed_at: null });
  });

  it('counts each indicator of the current month with the count behind each percentage', async () => {
    await runIndicators(NOW);
    const res = await get();
    expect(res.body.months.map((m: { month: string }) => m.month)).toEqual([
      '2025-12',
      '2026-01',
      '2026-02',
      '2026-03',
      '2026-04',
      '2026-05',
      '2026-06',
      '2026-07',
      '2026-08',
      '2026-09',
      '2026-10',
      '2026-11',
    ]);
    const [october, november] = res.body.months.slice(-2);
    expect(november).toMatchObject({
      complete: false,
      as_of: NOW.toISOString(),
      hypertension_control: { eligible: 3, measured: 2, controlled: 1, percent: 33.3 },
      without_readings: { active: 4, count: 1, percent: 25 },
      glucose_in_range: { patients: 1, readings: 4, in_range: 3, percent: 75 },
      adherence: { low: 1, medium: 0, good: 1, none: 2, total: 4 },
    });
    // October closed on 31/10 23:59:59.999 in Bogotá; the blood-pressure order came later.
    expect(october).toMatchObject({
      complete: true,
      as_of: '2026-11-01T04:59:59.999Z',
      // Nobody had a blood pressure by then: 'sin datos' (null), not 0 % controlled.
      hypertension_control: { eligible: 2, measured: 0, controlled: 0, percent: null },
      without_readings: { active: 4, count: 3, percent: 75 },
      glucose_in_range: { patients: 1, readings: 2, in_range: 2, percent: 100 },
      adherence: { none: 4, total: 4 },
    });
    // Before the patients joined there is nobody to count: no percentage.
    expect(res.body.months[0]).toMatchObject({ hypertension_control: { eligible: 0, percent: null }, without_readings: { active: 0 } });
  });

  it('recomputes the current month at the next run and keeps the closed months', async () => {
    await execute(t.sequelize, 'UPDATE measurements SET value = 500 WHERE patient_id = :p AND "when" < :oct', {
      p: h.glucose,
      oct: ago(30),
    });
    const res1 = await t.http
      .post(`/api/v1/patients/${h.ordered}/measurements`)
      .set(bearer(clinic.tokens.enfermeria))
      .send({ systolic: 120, diastolic: 70, when: ago(1).toISOString() });
    expect(res1.status).toBe(201);
    await runIndicators(new Date(NOW.getTime() + 3600_000));
    const [october, november] = (await get()).body.months.slice(-2);
    expect(november.hypertension_control).toEqual({ eligible: 3, measured: 3, controlled: 2, percent: 66.7 });
    expect(october.glucose_in_range.percent).toBe(100);
  });

  it("reads a closed month stored with 0 % and nobody measured as 'sin datos' (null)", async () => {
    const [{ figures }] = await select<{ figures: string }>(
      t.sequelize,
      "SELECT figures FROM indicator_months WHERE client_id = :c AND month = '2026-10'",
      { c: clinic.clientId },
    );
    const stored = JSON.parse(figures);
    stored.hypertension_control.percent = 0;
    await execute(t.sequelize, "UPDATE indicator_months SET figures = :f WHERE client_id = :c AND month = '2026-10'", {
      f: JSON.stringify(stored),
      c: clinic.clientId,
    });
    const october = (await get()).body.months.find((m: { month: string }) => m.month === '2026-10');
    expect(october.hypertension_control).toEqual({ eligible: 2, measured: 0, controlled: 0, percent: null });
  });

  it('a server started between :31 and :59 recounts the current month at the next hour', async () => {
    const hour = 3600_000;
    // Started at 14:40 (the slot of 14:00 runs at once), then the 15:00 run.
    const startedAt = new Date(NOW.getTime() + 2 * hour + 40 * 60_000);
    const nextHour = new Date(NOW.getTime() + 3 * hour);
    await runIndicators(startedAt);
    expect((await get()).body.computed_at).toBe(startedAt.toISOString());
    const res = await t.http
      .post(`/api/v1/patients/${h.glucose}/measurements`)
      .set(bearer(clinic.tokens.enfermeria))
      .send({ clinical_element: 6, value: 300, when: ago(0.5).toISOString() });
    expect(res.status).toBe(201);
    await runIndicators(nextHour);
    const after = await get();
    expect(after.body.computed_at).toBe(nextHour.toISOString());
    expect(after.body.months.at(-1).glucose_in_range).toMatchObject({ readings: 5, in_range: 3 });
    // A second run in the same slot (two processes, a restart) does not count it again.
    await runIndicators(new Date(nextHour.getTime() + 20 * 60_000));
    expect((await get()).body.computed_at).toBe(nextHour.toISOString());
  });
});
