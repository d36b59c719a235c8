import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { execute, select } from '../../api/src/db/sql';
import { createOrg, bearer, patientBody } from '../support/product';
import { bootOn, freshDatabase, seeded, spawnApi, type ChildApi, type FaultDatabase, whyNoAnswer } from './support';

/**
 * SIGKILL in the middle of a stream of device readings. After a restart on the same data, every
 * reading that got a 2xx is stored exactly once, a device retrying the unanswered ones with the
 * same reading_id creates no duplicates, and every out-of-range reading has its alert.
 */

const READINGS = 240;
const PER_REQUEST = 2;
const WORKERS = 4;
/** The process is killed once this many requests have been answered 2xx. */
const KILL_AFTER = 40;
const CARD = 'GW-KILL-01';

interface Reading {
  reading_id: string;
  clinical_element: number;
  value: number;
  when: string;
}

let db: FaultDatabase;
let server: ChildApi | null = null;
let clientId: number;
let patientId: number;
let secret: string;
const readings: Reading[] = [];

beforeAll(async () => {
  db = await freshDatabase();
  const t = await bootOn(db);
  try {
    const org = await createOrg(t, 'Clinica Corte');
    clientId = org.clientId;
    const admin = bearer(org.tokens.admin);
    patientId = (await t.http.post('/api/v1/patients').set(admin).send(patientBody())).body.id;
    await execute(t.sequelize, 'UPDATE patients SET card_id = :card WHERE id = :id', { card: CARD, id: patientId });
    const device = await t.http.post('/api/v1/devices').set(admin).send({ card_id: CARD, name: 'Pasarela de la prueba de corte' });
    expect(device.status, JSON.stringify(device.body)).toBe(201);
    secret = device.body.secret;
    const rule = (
      await t.http
        .post('/api/v1/alarms')
        .set(admin)
        .send({ name: 'Taquicardia', clinical_element: 1, priority: 1, minimum_condition: 50, maximum_condition: 110 })
    ).body;
    expect(
      (
        await t.http
          .put(`/api/v1/patients/${patientId}`)
          .set(admin)
          .send({ alarm_ids: [rule.id] })
      ).status,
    ).toBe(200);
  } finally {
    await t.stop();
  }
  const random = seeded(424242);
  const start = Date.now() - 2 * 3600_000;
  for (let i = 0; i < READINGS; i++) {
    const high = random() < 0.25;
    readings.push({
      reading_id: `corte-${String(i).padStart(4, '0')}`,
      clinical_element: 1,
      value: high ? 120 + Math.floor(random() * 60) : 60 + Math.floor(random() * 40),
      when: new Date(start + i * 15_000).toISOString(),
    });
  }
});
afterAll(async () => {
  await server?.kill('SIGKILL');
  await db?.drop();
});

async function send(
  base: string,
  batch: Reading[],
): Promise<{ status: number; body: { stored: number; duplicates: number } | null } | { status: undefined; error: string }> {
  try {
    const res = await fetch(`${base}/api/v1/devices/${CARD}/readings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-device-secret': secret },
      body: JSON.stringify({ readings: batch }),
      signal: AbortSignal.timeout(30_000),
    });
    return { status: res.status, body: (await res.json().catch(() => null)) as { stored: number; duplicates: number } | null };
  } catch (error) {
    // Connection reset or refused, or no answer in 30 s: the device never got an answer.
    return { status: undefined, error: whyNoAnswer(error) };
  }
}

/**
 * What a device does with a request left unanswered: it sends it again, the same reading ids, up to
 * three times a second apart. Every attempt's failure is kept, so a test that still gets no answer
 * says what each attempt met.
 */
async function sendUntilAnswered(base: string, batch: Reading[], unanswered: string[]) {
  for (let attempt = 1; ; attempt++) {
    const res = await send(base, batch);
    if (res.status !== undefined || attempt === 3) return res;
    unanswered.push(`${batch[0].reading_id}: ${res.error}`);
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

describe('SIGKILL during a stream of device readings', () => {
  it('keeps every acknowledged reading exactly once, and their alerts, across a kill and a restart', async () => {
    const batches: Reading[][] = [];
    for (let i = 0; i < readings.length; i += PER_REQUEST) batches.push(readings.slice(i, i + PER_REQUEST));
    const acked = new Set<number>();
    const unexpected: string[] = [];

    server = await spawnApi(db);
    const first = server;
    let next = 0;
    let killed: Promise<{ code: number | null; signal: NodeJS.Signals | null }> | null = null;
    const worker = async () => {
      while (next < batches.length && !killed) {
        const index = next++;
        const res = await send(first.baseUrl, batches[index]);
        if (res.status === undefined) return; // the server is gone
        if (res.status === 201) acked.add(index);
        else if (res.status !== 503) unexpected.push(`${res.status} ${JSON.stringify(res.body)}`);
        if (acked.size >= KILL_AFTER && !killed) killed = first.kill('SIGKILL');
      }
    };
    await Promise.all(Array.from({ length: WORKERS }, worker));
    expect(killed, 'the stream ended before the kill').not.toBeNull();
    expect((await killed!).signal).toBe('SIGKILL');
    expect(unexpected).toEqual([]);
    expect(acked.size).toBeGreaterThanOrEqual(KILL_AFTER);
    expect(acked.size).toBeLessThan(batches.length);

    // Restart on the same data; the device retries everything it has no answer for, same reading ids.
    server = await spawnApi(db);
    const restarted = server;
    let retriedDuplicates = 0;
    const unanswered: string[] = [];
    const answered = async (batch: Reading[]) => {
      const res = await sendUntilAnswered(restarted.baseUrl, batch, unanswered);
      if (res.status === undefined) {
        throw new Error(`${batch[0].reading_id} got no answer in 3 attempts: ${unanswered.join('; ')}\n${restarted.output().slice(-4000)}`);
      }
      return res;
    };
    for (let i = 0; i < batches.length; i++) {
      if (acked.has(i)) continue;
      const res = await answered(batches[i]);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      retriedDuplicates += res.body!.duplicates;
    }
    // A retry of batches that were acknowledged is answered 201 with nothing stored again.
    for (const i of [...acked].slice(0, 3)) {
      const res = await answered(batches[i]);
      expect(res.body).toMatchObject({ stored: 0, duplicates: PER_REQUEST });
    }
    if (unanswered.length) console.log(`[faults/kill] sent again after no answer from the restarted API: ${unanswered.join('; ')}`);
    // A normal stop (SIGTERM) closes cleanly: the server and the job scheduler end, exit code 0.
    expect(await server.kill('SIGTERM')).toEqual({ code: 0, signal: null });
    server = null;
    console.log(
      `[faults/kill] ${batches.length} requests, ${acked.size} answered 2xx before SIGKILL; retried ${batches.length - acked.size}, of which ${retriedDuplicates} readings had been committed without an answer`,
    );

    const t = await bootOn(db);
    try {
      const rows = await select<{ id: number; reading_id: string; value: number }>(
        t.sequelize,
        'SELECT id, reading_id, value FROM measurements WHERE patient_id = :p AND client_id = :c',
        { p: patientId, c: clientId },
      );
      // Exactly once each: no reading lost, none doubled, the value the device sent.
      expect(rows).toHaveLength(READINGS);
      const byReading = new Map(rows.map((r) => [r.reading_id, r]));
      expect(byReading.size).toBe(READINGS);
      for (const r of readings) expect(Number(byReading.get(r.reading_id)?.value), r.reading_id).toBe(r.value);
      // Batches in flight at the kill were either committed whole (the retry saw duplicates) or not at all.
      expect(retriedDuplicates % PER_REQUEST).toBe(0);

      // Every out-of-range reading opened the alert or is attached to it; one alert for the rule.
      const alerted = await select<{ measurement_id: number }>(
        t.sequelize,
        `SELECT measurement_id FROM alerts WHERE patient_id = :p AND measurement_id IS NOT NULL
         UNION SELECT am.measurement_id FROM alert_measurements am JOIN alerts a ON a.id = am.alert_id WHERE a.patient_id = :p`,
        { p: patientId },
      );
      const alertedIds = new Set(alerted.map((a) => Number(a.measurement_id)));
      const outOfRange = readings.filter((r) => r.value > 110);
      expect(outOfRange.length).toBeGreaterThan(20);
      const missing = outOfRange.filter((r) => !alertedIds.has(Number(byReading.get(r.reading_id)!.id))).map((r) => r.reading_id);
      expect(missing).toEqual([]);
      const inRangeAlerted = readings.filter((r) => r.value <= 110 && alertedIds.has(Number(byReading.get(r.reading_id)!.id)));
      expect(inRangeAlerted).toEqual([]);
      const [{ n }] = await select<{ n: number }>(t.sequelize, 'SELECT COUNT(*) AS n FROM alerts WHERE patient_id = :p AND status = 1', {
        p: patientId,
      });
      expect(Number(n)).toBe(1);
    } finally {
      await t.stop();
    }
  });
});
