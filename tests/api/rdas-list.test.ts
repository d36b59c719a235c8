import crypto from 'node:crypto';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { startTestProduct, createOrg, bearer, patientBody, type TestProduct, type Org } from '../support/product';
import { startIhcePeer, type IhcePeer, peerSettings } from '../support/ihce-peer';
import { fixtureConsultation } from '../support/rda-fixture';
import { loadRdaDefinitions, type Json } from '../support/rda-validator';
import { ambulatoryDocument } from '../../api/src/modules/fhir/rda.document';
import { recordRda } from '../../api/src/modules/rdas/rdas.service';

/**
 * Issue 51's dashboard count and the RDA list's days: `GET /rdas/summary` counts the organisation's
 * documents in each sending status (the states reached through the real sender and a loopback
 * Ministry), and `GET /rdas?from&to` keeps those written on the organisation's days (Bogotá,
 * UTC−5), 400 naming the field on a date that is not one or a range backwards.
 */

/** The product's clock (sessions, jobs); each document is written at its own `at`. */
const clock = new Date('2026-12-03T16:00:00Z');
let at = new Date('2026-12-01T04:30:00Z');
let t: TestProduct;
let org: Org;
let other: Org;
let peer: IhcePeer;
let patientId: number;
let otherPatientId: number;
/** The documents by what happened to them: id and local day written. */
const ids: Record<'refused' | 'sent' | 'waiting1' | 'waiting2' | 'unsent', number> = {
  refused: 0,
  sent: 0,
  waiting1: 0,
  waiting2: 0,
  unsent: 0,
};

function freshOptions() {
  const keys = new Map<string, string>();
  return {
    now: at,
    uuid: (key: string) => {
      if (!keys.has(key)) keys.set(key, crypto.randomUUID());
      return keys.get(key)!;
    },
  };
}
const consultation = () => ambulatoryDocument(fixtureConsultation(), freshOptions()) as Json;
const record = async (bundle: Json, o = org, patient = patientId) =>
  (
    await recordRda(
      { sequelize: t.sequelize, jobs: t.jobs, now: () => at },
      { clientId: o.clientId, patientId: patient, kind: 'consulta', bundle },
    )
  ).id;
const drain = () => t.jobs.drain({ now: clock });
const settings = (enabled: boolean) =>
  t.http.put(`/api/v1/clients/${org.clientId}/ihce`).set(bearer(org.tokens.admin)).send(peerSettings(peer, enabled));

beforeAll(async () => {
  t = await startTestProduct({ now: () => clock, allowHttpServices: true });
  org = await createOrg(t, 'Clinica Conteo Rda');
  other = await createOrg(t, 'Clinica Ajena Conteo');
  peer = await startIhcePeer();
  loadRdaDefinitions();
  const created = await t.http.post('/api/v1/patients').set(bearer(org.tokens.admin)).send(patientBody());
  expect(created.status).toBe(201);
  patientId = created.body.id;
  const foreign = await t.http.post('/api/v1/patients').set(bearer(other.tokens.admin)).send(patientBody());
  expect(foreign.status).toBe(201);
  otherPatientId = foreign.body.id;

  expect((await settings(true)).status).toBe(200);
  // 23:30 on 30 November in Bogotá (04:30 UTC on 1 December): refused by the platform (eight sections of nine).
  const broken = consultation();
  broken.entry[0].resource.section = broken.entry[0].resource.section.slice(0, 8);
  ids.refused = await record(broken);
  await drain();
  // 00:30 on 1 December in Bogotá: accepted.
  at = new Date('2026-12-01T05:30:00Z');
  ids.sent = await record(consultation());
  await drain();
  // Settings off: the next two wait 'sin enviar'; switched on again they are queued ('pendiente') and left there.
  expect((await settings(false)).status).toBe(200);
  at = new Date('2026-12-02T15:00:00Z');
  ids.waiting1 = await record(consultation());
  at = new Date('2026-12-03T15:00:00Z');
  ids.waiting2 = await record(consultation());
  expect((await settings(true)).status).toBe(200);
  expect((await settings(false)).status).toBe(200);
  ids.unsent = await record(consultation());
  await record(consultation(), other, otherPatientId);
}, 120_000);
afterAll(async () => {
  await peer?.close();
  await t?.stop();
});

const list = (query: string, token = org.tokens.medico) => t.http.get(`/api/v1/rdas?${query}`).set(bearer(token));
const idsOf = (body: Array<{ id: number }>) => body.map((r) => r.id).sort((a, b) => a - b);

describe('GET /rdas/summary', () => {
  it("counts the organisation's RDA in each sending status, every status present", async () => {
    const res = await t.http.get('/api/v1/rdas/summary').set(bearer(org.tokens.admin));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ sin_enviar: 1, pendiente: 2, enviado: 1, rechazado: 1, corregido: 0 });
    // The same statuses the list answers for each.
    for (const [status, n] of Object.entries(res.body)) {
      const page = await list(`status=${status}`, org.tokens.admin);
      expect(Number(page.headers['x-total-count']), status).toBe(n);
    }
  });

  it("counts only the caller's organisation", async () => {
    const res = await t.http.get('/api/v1/rdas/summary').set(bearer(other.tokens.admin));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ sin_enviar: 1, pendiente: 0, enviado: 0, rechazado: 0, corregido: 0 });
  });

  it('is read by whoever reads the list: administrators and clinicians, not «consulta»', async () => {
    expect((await t.http.get('/api/v1/rdas/summary').set(bearer(org.tokens.medico))).status).toBe(200);
    expect((await t.http.get('/api/v1/rdas/summary').set(bearer(org.tokens.enfermeria))).status).toBe(200);
    expect((await t.http.get('/api/v1/rdas/summary').set(bearer(org.tokens.consulta))).status).toBe(403);
    expect((await t.http.get('/api/v1/rdas/summary')).status).toBe(401);
  });
});

describe('GET /rdas?from&to', () => {
  it("keeps the RDA written on the organisation's days, both ends inclusive", async () => {
    // 04:30 UTC on 1 December is still 30 November in Bogotá: not in 1 December.
    const first = await list('from=2026-12-01&to=2026-12-01');
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(idsOf(first.body)).toEqual([ids.sent]);
    expect(Number(first.headers['x-total-count'])).toBe(1);
    expect(idsOf((await list('to=2026-11-30')).body)).toEqual([ids.refused]);
    expect(idsOf((await list('from=2026-12-02')).body)).toEqual([ids.waiting1, ids.waiting2, ids.unsent]);
    expect(idsOf((await list('from=2026-11-30&to=2026-12-03')).body)).toHaveLength(5);
    expect((await list('from=2026-12-04')).body).toEqual([]);
  });

  it('combines with the status filter (the dashboard links)', async () => {
    expect(idsOf((await list('status=pendiente&from=2026-12-03')).body)).toEqual([ids.waiting2]);
    expect(idsOf((await list('status=rechazado')).body)).toEqual([ids.refused]);
  });

  it.each([
    ['from=2026-13-01', 'from'],
    ['from=ayer', 'from'],
    ['to=2026-02-30', 'to'],
    ['from=2026-12-03&to=2026-12-01', 'to'],
  ])('answers 400 naming the field for %s', async (query, field) => {
    const res = await list(query);
    expect(res.status).toBe(400);
    expect(res.body.field).toBe(field);
    expect(res.body.message).toMatch(/[a-záéíóúñ]/);
  });
});
