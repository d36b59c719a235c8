import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { startTestProduct, createOrg, bearer, patientBody, type TestProduct, type Org } from '../support/product';
import { createJobRunner } from '../../api/src/jobs/queue';
import { registerWebhookJobs } from '../../api/src/modules/webhooks/webhooks.delivery';
import { clientWebhookState } from '../../api/src/modules/clients/clients.webhook-state';
import { queueAlertWebhook } from '../../api/src/modules/webhooks/webhooks.queue';
import { webhookSecret } from '../../api/src/modules/webhooks/webhooks.rules';
import { select } from '../../api/src/db/sql';

/** A FHIR receiver on loopback: records every request and answers the next queued status (200 by default). */
interface Received {
  headers: Record<string, string>;
  body: string;
}
function startReceiver() {
  const received: Received[] = [];
  const statuses: number[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      received.push({ headers: req.headers as Record<string, string>, body });
      res.statusCode = statuses.shift() ?? 200;
      res.end('ok');
    });
  });
  return new Promise<{ url: string; received: Received[]; statuses: number[]; close: () => Promise<void> }>((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ url: `http://127.0.0.1:${port}/fhir`, received, statuses, close: () => new Promise((r) => server.close(() => r())) });
    });
  });
}

const PHRASE = 'frase-secreta-123';
let clock = new Date();
let t: TestProduct;
let org: Org;
let other: Org;
let receiver: Awaited<ReturnType<typeof startReceiver>>;

beforeAll(async () => {
  t = await startTestProduct({ now: () => clock, allowHttpServices: true });
  org = await createOrg(t, 'Clinica Webhooks');
  other = await createOrg(t, 'Clinica Ajena');
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
  await t.stop();
});

const admin = () => bearer(org.tokens.admin);
/** The FHIR resources a receiver gets, as far as these tests read them. */
type Coding = { code: string };
type Quantity = { value: number; code: string };
interface FhirResource {
  id?: string;
  resourceType: string;
  code: { coding: Coding[] };
  valueQuantity: Quantity;
  component: Array<{ code: { coding: Coding[] }; valueQuantity: Quantity }>;
  contained: FhirResource[];
  implicated: Array<{ reference: string }>;
}
const verify = (r: Received) => new Webhook(webhookSecret(PHRASE)).verify(r.body, r.headers) as FhirResource;

async function newPatient(): Promise<number> {
  const res = await t.http.post('/api/v1/patients').set(admin()).send(patientBody());
  expect(res.status).toBe(201);
  return res.body.id;
}

async function measure(patientId: number, body: Record<string, unknown>) {
  const res = await t.http.post(`/api/v1/patients/${patientId}/measurements`).set(admin()).send(body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

async function deliveries(query = '') {
  const res = await t.http.get(`/api/v1/webhooks/deliveries?_start=0&_end=100${query}`).set(admin());
  expect(res.status).toBe(200);
  return res.body as Array<{
    id: number;
    status: string;
    event_type: string;
    resource_type: string;
    webhook_id: string;
    attempts: number;
    last_error: string | null;
    patient_id: number | null;
  }>;
}

describe('webhook registration and validation', () => {
  it('registers, validates with a signed test event and subscribes; the phrase is never answered', async () => {
    const saved = await t.http
      .put(`/api/v1/clients/${org.clientId}`)
      .set(admin())
      .send({ webhook_url: receiver.url, security_phrase: PHRASE });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ webhook_url: receiver.url, security_phrase_set: true, validate: false });
    expect(JSON.stringify(saved.body)).not.toContain(PHRASE);

    const before = receiver.received.length;
    const validated = await t.http.get(`/api/v1/clients/${org.clientId}/validate_webhook`).set(admin());
    expect(validated.status).toBe(200);
    expect(validated.body).toEqual({ message: 'El webhook respondió correctamente y quedó validado.', type: 'success' });
    const test = receiver.received[before];
    expect(verify(test)).toMatchObject({ resourceType: 'Parameters' });

    const subscribed = await t.http
      .patch(`/api/v1/clients/${org.clientId}`)
      .set(admin())
      .send({ webhook_measurements: true, webhook_alerts: true });
    expect(subscribed.body).toMatchObject({ validate: true, webhook_measurements: true, webhook_alerts: true });
    const read = await t.http.get(`/api/v1/clients/${org.clientId}`).set(bearer(org.tokens.consulta));
    expect(read.body).toMatchObject({ validate: true, security_phrase_set: true });
    expect(JSON.stringify(read.body)).not.toContain(PHRASE);
    expect(read.body).not.toHaveProperty('security_phrase');
  });

  it('a failing validation answers the server notification and leaves the webhook unvalidated', async () => {
    const saved = await t.http
      .put(`/api/v1/clients/${other.clientId}`)
      .set(bearer(other.tokens.admin))
      .send({ webhook_url: receiver.url, security_phrase: 'otra-frase' });
    expect(saved.status).toBe(200);
    receiver.statuses.push(500);
    const res = await t.http.get(`/api/v1/clients/${other.clientId}/validate_webhook`).set(bearer(other.tokens.admin));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'webhook_validation_failed', field: 'webhook_url' });
    expect(res.body.message).toContain('HTTP 500');
    expect((await t.http.get(`/api/v1/clients/${other.clientId}`).set(bearer(other.tokens.admin))).body.validate).toBe(false);
  });

  it('only administrators validate, list and resend; another client answers 404', async () => {
    for (const role of ['medico', 'enfermeria', 'consulta'] as const) {
      expect((await t.http.get(`/api/v1/clients/${org.clientId}/validate_webhook`).set(bearer(org.tokens[role]))).status).toBe(403);
      expect((await t.http.get('/api/v1/webhooks/deliveries').set(bearer(org.tokens[role]))).status).toBe(403);
    }
    expect((await t.http.get(`/api/v1/clients/${other.clientId}/validate_webhook`).set(admin())).status).toBe(404);
    const theirs = await t.http.get('/api/v1/webhooks/deliveries').set(bearer(other.tokens.admin));
    expect(theirs.body.every((d: { event_type: string }) => d.event_type === 'test')).toBe(true);
    const mine = await deliveries();
    expect((await t.http.post(`/api/v1/webhooks/deliveries/${mine[0].id}/resend`).set(bearer(other.tokens.admin))).status).toBe(404);
  });
});

describe('deliveries (D19)', () => {
  it('delivers a correctly signed FHIR Observation for a new reading, with LOINC and UCUM, the subject by document', async () => {
    const patientId = await newPatient();
    const patient = (await t.http.get(`/api/v1/patients/${patientId}`).set(admin())).body;
    const before = receiver.received.length;
    await measure(patientId, { clinical_element: 1, value: 88 });
    expect(receiver.received.length).toBe(before); // queued, not sent inside the request
    await t.jobs.drain({ now: clock });
    const got = receiver.received.slice(before);
    expect(got).toHaveLength(1);
    expect(got[0].headers['content-type']).toBe('application/fhir+json');
    const obs = verify(got[0]);
    expect(obs).toMatchObject({
      resourceType: 'Observation',
      status: 'final',
      code: { coding: [{ system: 'http://loinc.org', code: '8867-4' }] },
      valueQuantity: { value: 88, unit: 'lpm', system: 'http://unitsofmeasure.org', code: '/min' },
      subject: { identifier: { system: 'urn:vigia:id-type:CO:CC', value: patient.nid } },
    });
    // A tampered body fails verification.
    expect(() => new Webhook(webhookSecret(PHRASE)).verify(got[0].body.replace('88', '89'), got[0].headers)).toThrow();
    const [d] = await deliveries(`&patient_id=${patientId}`);
    expect(d).toMatchObject({
      status: 'delivered',
      event_type: 'measurement',
      resource_type: 'Observation',
      webhook_id: got[0].headers['webhook-id'],
      attempts: 1,
    });
  });

  it('sends systolic and diastolic stored together as one blood-pressure panel (85354-9)', async () => {
    const patientId = await newPatient();
    const before = receiver.received.length;
    await measure(patientId, { systolic: 130, diastolic: 85 });
    await t.jobs.drain({ now: clock });
    const obs = verify(receiver.received[before]);
    expect(receiver.received.length).toBe(before + 1);
    expect(obs.code.coding[0].code).toBe('85354-9');
    expect(obs.component.map((c) => [c.code.coding[0].code, c.valueQuantity.value, c.valueQuantity.code])).toEqual([
      ['8480-6', 130, 'mm[Hg]'],
      ['8462-4', 85, 'mm[Hg]'],
    ]);
  });

  it('retries a delivery the receiver answered 500 once, with back-off and the same webhook-id', async () => {
    const patientId = await newPatient();
    const before = receiver.received.length;
    receiver.statuses.push(500);
    await measure(patientId, { clinical_element: 7, value: 36.5 });
    await t.jobs.drain({ now: clock });
    expect(receiver.received.length).toBe(before + 1);
    let [d] = await deliveries(`&patient_id=${patientId}`);
    expect(d).toMatchObject({ status: 'pending', attempts: 1, last_error: 'HTTP 500' });
    // Not before the back-off has passed.
    await t.jobs.drain({ now: new Date(clock.getTime() + 5_000) });
    expect(receiver.received.length).toBe(before + 1);
    clock = new Date(clock.getTime() + 31_000);
    await t.jobs.drain({ now: clock });
    expect(receiver.received.length).toBe(before + 2);
    const [first, second] = receiver.received.slice(before);
    expect(second.headers['webhook-id']).toBe(first.headers['webhook-id']);
    expect(verify(second).valueQuantity).toMatchObject({ value: 36.5, code: 'Cel' });
    [d] = await deliveries(`&patient_id=${patientId}`);
    expect(d).toMatchObject({ status: 'delivered', attempts: 2 });
    const attempts = await select<{ status_code: number }>(
      t.sequelize,
      'SELECT status_code FROM webhook_attempts WHERE delivery_id = :id ORDER BY id',
      { id: d.id },
    );
    expect(attempts.map((a) => a.status_code)).toEqual([500, 200]);
  });

  it('delivers one patient in order: a later reading waits while an earlier one is pending; other patients are not held', async () => {
    const a = await newPatient();
    const b = await newPatient();
    const before = receiver.received.length;
    receiver.statuses.push(503);
    await measure(a, { clinical_element: 2, value: 95 });
    await measure(a, { clinical_element: 2, value: 96 });
    await measure(b, { clinical_element: 2, value: 97 });
    await t.jobs.drain({ now: clock });
    const values = () => receiver.received.slice(before).map((r) => JSON.parse(r.body).valueQuantity.value);
    expect(values()).toEqual([95, 97]); // 96 waits behind the failed 95; b is not held back
    clock = new Date(clock.getTime() + 31_000);
    await t.jobs.drain({ now: clock });
    expect(values()).toEqual([95, 97, 95, 96]);
  });

  it('survives a restart: the queued delivery is a jobs row that a new runner delivers', async () => {
    const patientId = await newPatient();
    await measure(patientId, { clinical_element: 5, value: 70.5 });
    const [job] = await select<{ status: string; kind: string }>(
      t.sequelize,
      "SELECT status, kind FROM jobs WHERE kind = 'webhook.delivery' AND status = 'pending'",
    );
    expect(job).toBeDefined();
    const before = receiver.received.length;
    const fresh = createJobRunner({ sequelize: t.sequelize, now: () => clock, log: () => undefined });
    registerWebhookJobs({ sequelize: t.sequelize, jobs: fresh, now: () => clock, log: () => undefined, clientState: clientWebhookState });
    await fresh.drain({ now: clock, kinds: ['webhook.delivery'] });
    expect(verify(receiver.received[before]).valueQuantity).toMatchObject({ value: 70.5, code: 'kg' });
  });

  it('a value alert goes out as a DetectedIssue that contains and references its Observation', async () => {
    const patientId = await newPatient();
    const [stored] = await measure(patientId, { clinical_element: 1, value: 150 });
    await t.jobs.drain({ now: clock });
    const before = receiver.received.length;
    await t.sequelize.transaction(async (transaction) => {
      await queueAlertWebhook(
        { sequelize: t.sequelize, transaction, now: clock, jobs: t.jobs },
        {
          id: 987654,
          client_id: org.clientId,
          patient_id: patientId,
          alert_type: 0,
          priority: 1,
          clinical_element: 1,
          alarm_id: null,
          measurement_id: stored.id,
        },
      );
    });
    await t.jobs.drain({ now: clock });
    const issue = verify(receiver.received[before]);
    expect(issue).toMatchObject({
      resourceType: 'DetectedIssue',
      severity: 'high',
      identifier: [{ system: 'urn:vigia:alert', value: '987654' }],
    });
    expect(issue.contained[0]).toMatchObject({ resourceType: 'Observation', valueQuantity: { value: 150 } });
    expect(issue.implicated[0].reference).toBe(`#${issue.contained[0].id}`);
  });

  it('resends a delivered event with the same webhook-id', async () => {
    const [latest] = await deliveries('&status=delivered&event_type=measurement');
    const before = receiver.received.length;
    const res = await t.http.post(`/api/v1/webhooks/deliveries/${latest.id}/resend`).set(admin());
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('pending');
    expect((await t.http.post(`/api/v1/webhooks/deliveries/${latest.id}/resend`).set(admin())).status).toBe(409);
    await t.jobs.drain({ now: clock });
    expect(receiver.received[before].headers['webhook-id']).toBe(latest.webhook_id);
  });

  it('switches a webhook off with a visible reason after 24 hours of failures; Validar switches it back on', async () => {
    const patientId = await newPatient();
    receiver.statuses.push(500, 500, 500);
    await measure(patientId, { clinical_element: 6, value: 110 });
    await t.jobs.drain({ now: clock });
    clock = new Date(clock.getTime() + 24 * 3600_000 + 60_000);
    await t.jobs.drain({ now: clock });
    // Back to the wall clock: the test sessions last one hour.
    clock = new Date();
    const client = (await t.http.get(`/api/v1/clients/${org.clientId}`).set(admin())).body;
    expect(client.validate).toBe(false);
    expect(client.webhook_disabled_reason).toMatch(/^Desactivado automáticamente: \d+ intentos de entrega fallidos/);
    const [d] = await deliveries(`&patient_id=${patientId}`);
    expect(d.status).toBe('failed');
    // No new deliveries while off.
    await measure(patientId, { clinical_element: 6, value: 111 });
    expect(await deliveries(`&patient_id=${patientId}`)).toHaveLength(1);
    receiver.statuses.length = 0;
    expect((await t.http.get(`/api/v1/clients/${org.clientId}/validate_webhook`).set(admin())).status).toBe(200);
    const on = (await t.http.get(`/api/v1/clients/${org.clientId}`).set(admin())).body;
    expect(on).toMatchObject({ validate: true, webhook_disabled_reason: null });
  });
});
