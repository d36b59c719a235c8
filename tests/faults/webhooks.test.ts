import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { select } from '../../api/src/db/sql';
import { webhookSecret } from '../../api/src/modules/webhooks/webhooks.rules';
import { createOrg, bearer, patientBody, type TestProduct, type Org } from '../support/product';
import { bootOn, freshDatabase, seeded, type FaultDatabase } from './support';

/**
 * A webhook receiver that is down for a while (connection refused, then 503), then back. The job
 * queue runs on an injected clock. Every event must arrive, once per `webhook-id`, in order per patient.
 */

const PHRASE = 'frase-de-fallos-2026';
const START = new Date('2026-11-22T12:00:00Z');
let clock = START;

type Mode = 'up' | 'refused' | 'unavailable';

/** A Standard Webhooks receiver on a fixed loopback port that can go away and come back. */
function receiver() {
  const accepted: Array<{ id: string; body: unknown }> = [];
  const seen = new Set<string>();
  const counts = { answered503: 0, duplicates: 0, badSignature: 0 };
  let mode: Mode = 'up';
  let port = 0;
  const verifier = new Webhook(webhookSecret(PHRASE));
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      if (mode === 'unavailable') {
        counts.answered503++;
        res.statusCode = 503;
        res.end('mantenimiento');
        return;
      }
      // The signature is checked by recomputing it: the library's verify() also compares the
      // timestamp with the wall clock, and this test runs the queue on an injected clock.
      const id = String(req.headers['webhook-id']);
      const sentAt = new Date(Number(req.headers['webhook-timestamp']) * 1000);
      const expected = verifier.sign(id, sentAt, raw);
      if (String(req.headers['webhook-signature']).split(' ').indexOf(expected) < 0) {
        counts.badSignature++;
        res.statusCode = 400;
        res.end();
        return;
      }
      const body: unknown = JSON.parse(raw);
      if (seen.has(id)) counts.duplicates++;
      else {
        seen.add(id);
        accepted.push({ id, body });
      }
      res.statusCode = 200;
      res.end('ok');
    });
  });
  const listen = () =>
    new Promise<void>((resolve) =>
      server.listen(port, '127.0.0.1', () => {
        port = (server.address() as AddressInfo).port;
        resolve();
      }),
    );
  const close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return {
    accepted,
    counts,
    listen,
    close,
    get url() {
      return `http://127.0.0.1:${port}/fhir`;
    },
    async set(next: Mode) {
      if (next === 'refused' && mode !== 'refused') await close();
      if (next !== 'refused' && mode === 'refused') await listen();
      mode = next;
    },
  };
}

let db: FaultDatabase;
let t: TestProduct;
let org: Org;
let rx: ReturnType<typeof receiver>;

beforeAll(async () => {
  db = await freshDatabase();
  t = await bootOn(db, { now: () => clock, allowHttpServices: true });
  org = await createOrg(t, 'Clinica Receptor');
  rx = receiver();
  await rx.listen();
  expect(
    (
      await t.http
        .put(`/api/v1/clients/${org.clientId}`)
        .set(bearer(org.tokens.admin))
        .send({ webhook_url: rx.url, security_phrase: PHRASE })
    ).status,
  ).toBe(200);
  expect((await t.http.get(`/api/v1/clients/${org.clientId}/validate_webhook`).set(bearer(org.tokens.admin))).status).toBe(200);
  expect(
    (
      await t.http
        .patch(`/api/v1/clients/${org.clientId}`)
        .set(bearer(org.tokens.admin))
        .send({ webhook_measurements: true, webhook_alerts: true })
    ).body,
  ).toMatchObject({ validate: true, webhook_measurements: true, webhook_alerts: true });
  rx.accepted.length = 0; // the validation test event
});
afterAll(async () => {
  await rx?.set('up');
  await rx?.close();
  await t?.stop();
  await db?.drop();
});

interface DeliveryRow {
  id: number;
  patient_id: number | null;
  webhook_id: string;
  status: string;
  event_type: string;
}
const deliveries = async () =>
  (
    await select<DeliveryRow>(
      t.sequelize,
      "SELECT id, patient_id, webhook_id, status, event_type FROM webhook_deliveries WHERE client_id = :c AND event_type <> 'test' ORDER BY id",
      { c: org.clientId },
    )
  ).map((d) => ({ ...d, id: Number(d.id), patient_id: d.patient_id == null ? null : Number(d.patient_id) }));

/** Moves the injected clock and runs whatever the queue has due then. */
async function tick(ms: number) {
  clock = new Date(clock.getTime() + ms);
  await t.jobs.drain({ now: clock });
}

describe('webhook receiver down, then back', () => {
  it('delivers every event once per webhook-id, in order per patient, after refusals and 503s', async () => {
    const rule = (
      await t.http
        .post('/api/v1/alarms')
        .set(bearer(org.tokens.admin))
        .send({ name: 'Taquicardia', clinical_element: 1, priority: 1, minimum_condition: 50, maximum_condition: 110 })
    ).body;
    const patients: number[] = [];
    for (let i = 0; i < 3; i++) {
      const p = (await t.http.post('/api/v1/patients').set(bearer(org.tokens.admin)).send(patientBody())).body.id;
      expect(
        (
          await t.http
            .put(`/api/v1/patients/${p}`)
            .set(bearer(org.tokens.admin))
            .send({ alarm_ids: [rule.id] })
        ).status,
      ).toBe(200);
      patients.push(p);
    }

    await rx.set('refused');
    // 24 readings, interleaved over the three patients, some out of range (they also raise alerts).
    const random = seeded(20261122);
    for (let i = 0; i < 24; i++) {
      const patientId = patients[Math.floor(random() * patients.length)];
      const value = random() < 0.3 ? 130 + Math.floor(random() * 40) : 60 + Math.floor(random() * 40);
      const res = await t.http
        .post(`/api/v1/patients/${patientId}/measurements`)
        .set(bearer(org.tokens.enfermeria))
        .send({ clinical_element: 1, value, when: new Date(START.getTime() - (24 - i) * 60_000).toISOString() });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
    const queued = await deliveries();
    expect(queued.length).toBeGreaterThanOrEqual(24);
    expect(queued.some((d) => d.event_type !== 'measurement')).toBe(true); // the alerts too

    // Down (connection refused) for about 8 minutes of queue time, then answering 503 for about 20 more.
    for (let i = 0; i < 4; i++) await tick(2 * 60_000);
    expect(rx.accepted).toHaveLength(0);
    await rx.set('unavailable');
    for (let i = 0; i < 4; i++) await tick(5 * 60_000);
    expect(rx.counts.answered503).toBeGreaterThan(0);
    expect(rx.accepted).toHaveLength(0);

    await rx.set('up');
    for (let i = 0; i < 60 && (await deliveries()).some((d) => d.status !== 'delivered'); i++) await tick(15 * 60_000);

    const final = await deliveries();
    expect(final.filter((d) => d.status !== 'delivered')).toEqual([]);
    // Every event arrived, each webhook-id once (the receiver counts any repeat), all correctly signed.
    expect(rx.accepted.map((a) => a.id).sort()).toEqual(final.map((d) => d.webhook_id).sort());
    expect(rx.counts).toMatchObject({ duplicates: 0, badSignature: 0 });
    // Per patient, the receiver saw the events in the order they happened (the order they were queued).
    const patientOf = new Map(final.map((d) => [d.webhook_id, d.patient_id]));
    for (const p of patients) {
      const arrived = rx.accepted.filter((a) => patientOf.get(a.id) === p).map((a) => a.id);
      const expected = final.filter((d) => d.patient_id === p).map((d) => d.webhook_id);
      expect(arrived).toEqual(expected);
      expect(arrived.length).toBeGreaterThan(0);
    }
    // The webhook was not switched off by the outage.
    const [client] = await select<{ webhook_validated: boolean | number }>(
      t.sequelize,
      'SELECT webhook_validated FROM clients WHERE id = :id',
      { id: org.clientId },
    );
    expect(Boolean(client.webhook_validated)).toBe(true);
  });
});
