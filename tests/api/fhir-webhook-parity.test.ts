import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { validateResource } from '@medplum/core';
import { Webhook } from 'standardwebhooks';
import { execute } from '../../api/src/db/sql';
import { webhookSecret } from '../../api/src/modules/webhooks/webhooks.rules';
import { startTestProduct, createOrg, bearer, patientBody, type TestProduct, type Org } from '../support/product';
import { makeClientKey } from '../support/smart-client';
import { fhirClient, fhirJson, loadFhirDefinitions, type FhirClient, type Json } from '../support/fhir';

/**
 * One reading, pushed and pulled (issue 49): the webhook's Observation (and a value alert's
 * DetectedIssue) and the FHIR API's read of the same event are one resource, `meta` aside. Before,
 * the pushed one had no `subject.reference` and its `issued` was the hook's clock, 1–12 ms after
 * the stored created_at the API says. The product's clock moves 1 ms at every reading of it, so a
 * resource made from two readings of it shows. It starts at the wall clock: the receiver checks the
 * signature's timestamp against its own.
 */
const HOST = 'vigia.test';
const PHRASE = 'frase-de-paridad-123';
let tick = Date.now();
const clock = () => new Date(tick++);

let t: TestProduct;
let org: Org;
let fhir: FhirClient;
let token: string;
let server: http.Server;
const received: Array<{ headers: Record<string, string>; body: string }> = [];

const admin = () => bearer(org.tokens.admin);
const withoutMeta = (r: Json): Json => {
  const { meta: _meta, ...rest } = r;
  return rest;
};

/** The next resource the receiver gets for what `act` does, verified with the organisation's secret. */
async function pushed(act: () => Promise<void>): Promise<Json> {
  const before = received.length;
  await act();
  await t.jobs.drain({ now: clock() });
  expect(received.length).toBeGreaterThan(before);
  const resource = new Webhook(webhookSecret(PHRASE)).verify(received[before].body, received[before].headers) as Json;
  validateResource(resource);
  return resource;
}
const pulled = async (path: string): Promise<Json> => {
  const res = await fhir.get(path, token);
  expect(res.status, res.text).toBe(200);
  return fhirJson(res);
};

async function newPatient(): Promise<number> {
  const res = await t.http.post('/api/v1/patients').set(admin()).send(patientBody());
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id as number;
}
const measure = (patientId: number, body: object) => async () => {
  const res = await t.http.post(`/api/v1/patients/${patientId}/measurements`).set(admin()).send(body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
};

beforeAll(async () => {
  loadFhirDefinitions();
  t = await startTestProduct({ now: clock, allowHttpServices: true });
  org = await createOrg(t, 'Clinica Paridad');
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      received.push({ headers: req.headers as Record<string, string>, body });
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/fhir`;
  expect(
    (await t.http.put(`/api/v1/clients/${org.clientId}`).set(admin()).send({ webhook_url: url, security_phrase: PHRASE })).status,
  ).toBe(200);
  expect((await t.http.get(`/api/v1/clients/${org.clientId}/validate_webhook`).set(admin())).status).toBe(200);
  const subscribed = await t.http
    .patch(`/api/v1/clients/${org.clientId}`)
    .set(admin())
    .send({ webhook_measurements: true, webhook_alerts: true });
  expect(subscribed.status).toBe(200);
  fhir = fhirClient(t, await makeClientKey('RS384', 'k1'), { host: HOST, now: clock });
  token = await fhir.token(org, 'HIS Paridad', ['system/*.rs']);
});
afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await t?.stop();
});

describe('a reading pushed by the webhook and pulled from the FHIR API', () => {
  it('is the same Observation but for meta, with the literal Patient/p<n> subject', async () => {
    const patientId = await newPatient();
    const obs = await pushed(measure(patientId, { clinical_element: 1, value: 72 }));
    expect(obs.subject.reference).toBe(`Patient/p${patientId}`);
    expect(obs).not.toHaveProperty('meta');
    const read = await pulled(`/Observation/${String(obs.id)}`);
    expect(read.meta.lastUpdated).toBe(read.issued);
    expect(withoutMeta(read)).toEqual(obs);
  });

  it('is the same blood-pressure panel but for meta', async () => {
    const patientId = await newPatient();
    const panel = await pushed(measure(patientId, { systolic: 128, diastolic: 84 }));
    expect(panel.component).toHaveLength(2);
    expect(withoutMeta(await pulled(`/Observation/${String(panel.id)}`))).toEqual(panel);
  });

  it('raising a value alert: the same DetectedIssue but for meta, patient and contained subject by reference', async () => {
    const patientId = await newPatient();
    const rule = { name: 'Taquicardia', clinical_element: 1, priority: 1, minimum_condition: 50, maximum_condition: 110 };
    const alarm = await t.http.post('/api/v1/alarms?owner=client').set(admin()).send(rule);
    expect(alarm.status).toBe(201);
    await execute(t.sequelize, 'INSERT INTO patient_alarms (patient_id, alarm_id) VALUES (:p, :a)', { p: patientId, a: alarm.body.id });
    const before = received.length;
    await measure(patientId, { clinical_element: 1, value: 150 })();
    await t.jobs.drain({ now: clock() });
    const resources = received.slice(before).map((r) => new Webhook(webhookSecret(PHRASE)).verify(r.body, r.headers) as Json);
    const issue = resources.find((r) => r.resourceType === 'DetectedIssue');
    const obs = resources.find((r) => r.resourceType === 'Observation');
    expect(issue, JSON.stringify(resources.map((r) => r.resourceType))).toBeTruthy();
    validateResource(issue!);
    expect(issue!.patient.reference).toBe(`Patient/p${patientId}`);
    expect(issue!.contained[0].subject.reference).toBe(`Patient/p${patientId}`);
    // The contained reading is the reading's own Observation, as pushed.
    expect(issue!.contained[0]).toEqual(obs);
    expect(withoutMeta(await pulled(`/DetectedIssue/${String(issue!.id)}`))).toEqual(issue);
  });
});
