import crypto from 'node:crypto';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { startTestProduct, createOrg, bearer, patientBody, type TestProduct, type Org } from '../support/product';
import {
  startIhcePeer,
  PEER_CLIENT_ID,
  PEER_CLIENT_SECRET,
  PEER_SCOPE,
  PEER_SUBSCRIPTION_KEY,
  type IhcePeer,
  peerSettings,
} from '../support/ihce-peer';
import { fixtureConsultation, fixturePatientStatement } from '../support/rda-fixture';
import { loadRdaDefinitions, type Json } from '../support/rda-validator';
import { ambulatoryDocument } from '../../api/src/modules/fhir/rda.document';
import { patientDocument } from '../../api/src/modules/fhir/rda.statement';
import { recordRda } from '../../api/src/modules/rdas/rdas.service';
import { createIhceAdapter, IHCE_REASONS, TOKEN_MARGIN_MS, type IhceCredentials } from '../../api/src/adapters/ihce';
import { select } from '../../api/src/db/sql';
import { flushAuditTrail } from '../../api/src/modules/audit/audit.recorder';

/**
 * Issue 51's sender against the Ministry's platform played on loopback (tests/support/ihce-peer.ts),
 * which validates every posted Bundle against the guide's profiles: documents built by the RDA
 * builder are kept by recordRda, sent by the job queue and end 'enviado', 'rechazado' with the
 * platform's issues, or wait ('sin enviar', 'pendiente') saying why.
 */

const MIN = 60_000;
let clock = new Date('2026-12-05T15:00:00Z');
let t: TestProduct;
let org: Org;
let other: Org;
let peer: IhcePeer;
let patientId: number;

beforeAll(async () => {
  // The peer validates each Bundle on its own thread (0.5-2 s on a loaded machine), within the
  // product's 30 s; a platform that never answers is the adapter's test below.
  t = await startTestProduct({ now: () => clock, allowHttpServices: true });
  org = await createOrg(t, 'Clinica Rda');
  other = await createOrg(t, 'Clinica Ajena Rda');
  peer = await startIhcePeer();
  const res = await t.http.post('/api/v1/patients').set(admin()).send(patientBody());
  expect(res.status).toBe(201);
  patientId = res.body.id;
  // The guide's definitions load once (5-10 s); the peer validates with them.
  loadRdaDefinitions();
}, 120_000);
afterAll(async () => {
  await peer.close();
  await t.stop();
});

const admin = () => bearer(org.tokens.admin);
const ihceUrl = (clientId = org.clientId) => `/api/v1/clients/${clientId}/ihce`;
const SETTINGS = () => peerSettings(peer);

/** Fresh UUIDs per document (the same one for each key inside it), so every document has its own identifier. */
function freshOptions() {
  const keys = new Map<string, string>();
  return {
    now: clock,
    uuid: (key: string) => {
      if (!keys.has(key)) keys.set(key, crypto.randomUUID());
      return keys.get(key)!;
    },
  };
}
const consultation = () => ambulatoryDocument(fixtureConsultation(), freshOptions()) as Json;
const statement = () => patientDocument(fixturePatientStatement(), freshOptions()) as Json;

async function record(bundle: Json, kind: 'consulta' | 'paciente' = 'consulta', clientOrg = org, patient = patientId) {
  return recordRda(
    { sequelize: t.sequelize, jobs: t.jobs, now: () => clock },
    { clientId: clientOrg.clientId, patientId: patient, kind, bundle },
  );
}

async function rda(id: number, token = org.tokens.admin) {
  const res = await t.http.get(`/api/v1/rdas/${id}`).set(bearer(token));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

const drain = () => t.jobs.drain({ now: clock, kinds: ['rda.send'] });
const advance = (ms: number) => (clock = new Date(clock.getTime() + ms));

async function configure(body: object = SETTINGS()) {
  const res = await t.http.put(ihceUrl()).set(admin()).send(body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

describe('without the platform configured', () => {
  it("keeps the document 'sin enviar' saying why, and sends it once the settings arrive", async () => {
    const bundle = consultation();
    const kept = await record(bundle);
    expect(kept).toMatchObject({ status: 'sin_enviar', kind: 'consulta', identifier: bundle.identifier.value, attempts: 0 });
    expect(kept.status_reason).toMatch(/no ha configurado la conexión con la plataforma IHCE/);
    await drain();
    expect(peer.calls).toHaveLength(0);

    const saved = await configure();
    expect(saved).toEqual({
      enabled: true,
      token_url: peer.tokenUrl,
      base_url: peer.baseUrl,
      client_id: PEER_CLIENT_ID,
      scope: PEER_SCOPE,
      client_secret_set: true,
      subscription_key_set: true,
      configured: true,
    });
    expect((await rda(kept.id)).status).toBe('pendiente');
    await drain();
    const sent = await rda(kept.id);
    expect(sent).toMatchObject({ status: 'enviado', status_reason: null, issues: [], attempts: 1, sent_at: clock.toISOString() });
    expect(sent.remote_id).toBe(peer.documents.get(bundle.identifier.value)!.remoteId);
    // The Bundle kept is the one built, and the one the platform holds.
    expect(sent.bundle).toEqual(bundle);
    expect(peer.documents.get(bundle.identifier.value)!.bundle).toEqual(bundle);
    const [call] = peer.sendsOf(bundle.identifier.value);
    expect(call.path).toBe('/fhir/Composition/$enviar-rda-consulta');
    expect(call.headers['ocp-apim-subscription-key']).toBe(PEER_SUBSCRIPTION_KEY);
    expect(call.headers['content-type']).toBe('application/fhir+json');
    expect(call.headers.authorization).toMatch(/^Bearer /);
    expect(peer.tokenRequests.at(-1)).toEqual({
      grant_type: 'client_credentials',
      client_id: PEER_CLIENT_ID,
      client_secret: PEER_CLIENT_SECRET,
      scope: PEER_SCOPE,
    });
  });
});

describe('sending (platform configured)', () => {
  beforeAll(async () => {
    await configure();
  });

  it("sends a patient's RDA to $enviar-rda-paciente and answers it 'enviado'", async () => {
    const bundle = statement();
    const kept = await record(bundle, 'paciente');
    expect(kept.status).toBe('pendiente');
    await drain();
    expect(await rda(kept.id)).toMatchObject({ status: 'enviado', kind: 'paciente' });
    expect(peer.sendsOf(bundle.identifier.value).map((c) => c.path)).toEqual(['/fhir/Composition/$enviar-rda-paciente']);
  });

  it("marks a document the platform refuses 'rechazado' with each issue in Spanish and its location; 'Reenviar' tries it again", async () => {
    const bundle = consultation();
    // Eight sections where the profile requires nine: the platform's validator refuses it.
    bundle.entry[0].resource.section = bundle.entry[0].resource.section.slice(0, 8);
    const kept = await record(bundle);
    await drain();
    const refused = await rda(kept.id);
    expect(refused.status).toBe('rechazado');
    expect(refused.status_reason).toBe('La plataforma IHCE rechazó el documento. Revise cada problema señalado.');
    expect(refused.issues.length).toBeGreaterThan(0);
    expect(refused.issues).toContainEqual(
      expect.objectContaining({ severity: 'error', location: expect.stringMatching(/^Bundle\.entry\[0\]\.resource\.section/) }),
    );
    for (const issue of refused.issues) expect(issue.message).toMatch(/[a-záéíóúñ]/);
    expect(peer.documents.has(bundle.identifier.value)).toBe(false);

    const resent = await t.http.post(`/api/v1/rdas/${kept.id}/resend`).set(admin());
    expect(resent.status, JSON.stringify(resent.body)).toBe(200);
    expect(resent.body.status).toBe('pendiente');
    await drain();
    expect((await rda(kept.id)).status).toBe('rechazado');
    expect(peer.sendsOf(bundle.identifier.value)).toHaveLength(2);
  });

  it('refuses to resend a document the platform already holds', async () => {
    const kept = await record(statement(), 'paciente');
    await drain();
    const res = await t.http.post(`/api/v1/rdas/${kept.id}/resend`).set(admin());
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ field: 'status', message: expect.stringMatching(/ya está en la plataforma IHCE/) }]);
  });

  it('retries a platform that is down with growing waits, then sends the document once', async () => {
    const bundle = consultation();
    peer.fail('503');
    peer.fail('429');
    peer.fail('reset');
    const kept = await record(bundle);
    await drain();
    let now = await rda(kept.id);
    expect(now).toMatchObject({ status: 'pendiente', attempts: 1, next_attempt_at: new Date(clock.getTime() + 1 * MIN).toISOString() });
    expect(now.status_reason).toBe('La plataforma IHCE respondió con el código 503. Se intentará de nuevo automáticamente.');
    // Not due yet: nothing is sent before the wait is over.
    advance(59_000);
    await drain();
    expect(peer.sendsOf(bundle.identifier.value)).toHaveLength(1);
    advance(1_000);
    await drain();
    now = await rda(kept.id);
    expect(now).toMatchObject({
      status: 'pendiente',
      attempts: 2,
      status_reason: `${IHCE_REASONS.busy} Se intentará de nuevo automáticamente.`,
    });
    expect(now.next_attempt_at).toBe(new Date(clock.getTime() + 2 * MIN).toISOString());
    advance(2 * MIN);
    await drain();
    now = await rda(kept.id);
    expect(now).toMatchObject({
      status: 'pendiente',
      attempts: 3,
      status_reason: 'No fue posible conectarse con la plataforma IHCE. Se intentará de nuevo automáticamente.',
    });
    advance(4 * MIN);
    await drain();
    expect(await rda(kept.id)).toMatchObject({ status: 'enviado', attempts: 4, next_attempt_at: null });
    expect(peer.sendsOf(bundle.identifier.value)).toHaveLength(4);
    expect([...peer.documents.keys()].filter((k) => k === bundle.identifier.value)).toHaveLength(1);
  });

  it("takes a platform's success twice for one send (a resend after a crash) and its 'duplicate' answer as sent, with one id", async () => {
    // A process sent it and died before writing the answer: the job runs again with the same Bundle.
    const bundle = consultation();
    const kept = await record(bundle);
    await t.sequelize.query("UPDATE jobs SET status = 'running', locked_until = :past WHERE key = :key", {
      replacements: { key: `rda:${bundle.identifier.value}`, past: new Date(clock.getTime() - 1) },
    });
    const first = await fetchAsPlatformClient(bundle);
    expect(first.status).toBe(201);
    await drain();
    const sent = await rda(kept.id);
    expect(sent.status).toBe('enviado');
    expect(sent.remote_id).toBe(peer.documents.get(bundle.identifier.value)!.remoteId);
    expect(peer.sendsOf(bundle.identifier.value).map((c) => c.status)).toEqual([201, 200]);

    const dup = consultation();
    peer.fail('duplicate');
    const keptDup = await record(dup);
    await drain();
    expect((await rda(keptDup.id)).status).toBe('enviado');
  });

  it('asks for a new token when one expires in the middle of a backlog, once, and sends everything', async () => {
    const before = peer.tokenRequests.length;
    const first = await Promise.all([consultation(), statement()].map((b, i) => record(b, i ? 'paciente' : 'consulta')));
    await drain();
    peer.expireTokens();
    const second = await Promise.all(
      [consultation(), consultation(), statement()].map((b, i) => record(b, i === 2 ? 'paciente' : 'consulta')),
    );
    await drain();
    for (const d of [...first, ...second]) expect((await rda(d.id)).status).toBe('enviado');
    expect(peer.tokenRequests.length - before).toBe(1);
  });

  it("answers 'Probar conexión' with success", async () => {
    const res = await t.http.post(`${ihceUrl()}/test`).set(admin());
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ type: 'success', message: 'La plataforma IHCE entregó un token: la conexión funciona.' });
  });
});

describe('the IHCE adapter against the platform', () => {
  const credentials = (): IhceCredentials => ({
    tokenUrl: peer.tokenUrl,
    baseUrl: peer.baseUrl,
    clientId: PEER_CLIENT_ID,
    clientSecret: PEER_CLIENT_SECRET,
    subscriptionKey: PEER_SUBSCRIPTION_KEY,
    scope: PEER_SCOPE,
  });

  it('reads a sent document back, and finds the patient and their documents by identifier', async () => {
    const bundle = statement();
    const kept = await record(bundle, 'paciente');
    await drain();
    const { remote_id: remoteId } = await rda(kept.id);
    const platform = createIhceAdapter().platform(credentials());
    expect(await platform.readDocument(remoteId)).toMatchObject({ kind: 'accepted', body: bundle });
    const nid = (bundle.entry as Json[]).find((e) => e.resource.resourceType === 'Patient')!.resource.identifier[0].value;
    const asked = { resourceType: 'Parameters', parameter: [{ name: 'identifier', valueIdentifier: { value: nid } }] };
    const documents = await platform.queryPatientDocuments(asked);
    expect(documents.kind).toBe('accepted');
    expect((documents as { body: Json }).body).toMatchObject({ resourceType: 'Bundle', type: 'searchset' });
    expect((documents as { body: Json }).body.entry.map((e: Json) => e.resource.identifier.value)).toContain(bundle.identifier.value);
    const patient = await platform.findPatient(asked);
    expect((patient as { body: Json }).body.entry[0].resource).toMatchObject({ resourceType: 'Patient' });
    expect(await platform.readDocument('no-existe')).toMatchObject({ kind: 'refused', status: 404 });
  });

  it('keeps a token until shortly before it expires, then asks for a new one', async () => {
    let at = Date.parse('2026-12-05T15:00:00Z');
    const platform = createIhceAdapter({ now: () => at }).platform(credentials());
    const before = peer.tokenRequests.length;
    await platform.sendDocument('paciente', statement());
    at += peer.tokenSeconds * 1000 - TOKEN_MARGIN_MS - 1;
    await platform.sendDocument('paciente', statement());
    expect(peer.tokenRequests.length - before).toBe(1);
    at += 2;
    await platform.sendDocument('paciente', statement());
    expect(peer.tokenRequests.length - before).toBe(2);
  });

  it('gives up on a platform that does not answer within the timeout, as a transient failure', async () => {
    peer.fail('timeout');
    const started = Date.now();
    const result = await createIhceAdapter({ timeoutMs: 300 }).platform(credentials()).sendDocument('paciente', statement());
    expect(result).toEqual({ kind: 'transient', reason: IHCE_REASONS.timeout, retryAfterMs: null });
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});

describe('refused credentials', () => {
  afterAll(async () => {
    await configure();
  });

  it("keeps the document 'sin enviar' with a clear reason when the secret is wrong, and sends it when it is corrected", async () => {
    await configure({ client_secret: 'otro-secreto-equivocado' });
    const test = await t.http.post(`${ihceUrl()}/test`).set(admin());
    expect(test.body).toEqual({ type: 'error', message: IHCE_REASONS.credentials });
    const kept = await record(consultation());
    await drain();
    expect(await rda(kept.id)).toMatchObject({ status: 'sin_enviar', status_reason: IHCE_REASONS.credentials });
    await configure({ client_secret: PEER_CLIENT_SECRET });
    await drain();
    expect((await rda(kept.id)).status).toBe('enviado');
  });

  it('says so when the subscription key is refused', async () => {
    await configure({ subscription_key: 'clave-vencida' });
    const kept = await record(consultation());
    await drain();
    expect(await rda(kept.id)).toMatchObject({ status: 'sin_enviar', status_reason: IHCE_REASONS.subscription });
    await configure({ subscription_key: PEER_SUBSCRIPTION_KEY });
    await drain();
    expect((await rda(kept.id)).status).toBe('enviado');
  });
});

describe('settings and secrets', () => {
  it('never answers the secret or the subscription key, nor keeps them readable, in any GET, audit record or job', async () => {
    const reads = await Promise.all(
      [ihceUrl(), `/api/v1/clients/${org.clientId}`, '/api/v1/rdas?_start=0&_end=100', '/api/v1/audit_events?_start=0&_end=100'].map((u) =>
        t.http.get(u).set(admin()),
      ),
    );
    for (const r of reads) {
      expect(r.status).toBe(200);
      expect(JSON.stringify(r.body)).not.toContain(PEER_CLIENT_SECRET);
      expect(JSON.stringify(r.body)).not.toContain(PEER_SUBSCRIPTION_KEY);
    }
    const stored = JSON.stringify([
      await select(t.sequelize, 'SELECT * FROM ihce_settings'),
      await select(t.sequelize, 'SELECT * FROM audit_events'),
      await select(t.sequelize, 'SELECT payload, last_error FROM jobs'),
    ]);
    expect(stored).not.toContain(PEER_CLIENT_SECRET);
    expect(stored).not.toContain(PEER_SUBSCRIPTION_KEY);
    await flushAuditTrail(t.sequelize);
    const audit = (await t.http.get('/api/v1/audit_events?resource=ihce').set(admin())).body as Array<{ changes: Json | null }>;
    expect(audit.find((e) => e.changes?.client_id)?.changes).toMatchObject({ client_secret: '••••', subscription_key: '••••' });
  });

  it('refuses to switch on incomplete settings, naming the field', async () => {
    const res = await t.http
      .put(ihceUrl(other.clientId))
      .set(bearer(other.tokens.admin))
      .send({ enabled: true, token_url: peer.tokenUrl, base_url: peer.baseUrl });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ field: 'client_id', message: 'Es obligatorio para activar el envío a la plataforma IHCE.' }]);
    const bad = await t.http.put(ihceUrl(other.clientId)).set(bearer(other.tokens.admin)).send({ base_url: 'ftp://ministerio' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].field).toBe('base_url');
  });
});

describe('tenancy and roles', () => {
  it("reads an organisation's documents only from that organisation: another's are not found", async () => {
    const kept = await record(statement(), 'paciente');
    const foreign = await t.http.get(`/api/v1/rdas/${kept.id}`).set(bearer(other.tokens.admin));
    expect(foreign.status).toBe(404);
    expect((await t.http.post(`/api/v1/rdas/${kept.id}/resend`).set(bearer(other.tokens.admin))).status).toBe(404);
    const list = await t.http.get('/api/v1/rdas').set(bearer(other.tokens.admin));
    expect(list.body).toEqual([]);
    expect((await t.http.get(ihceUrl()).set(bearer(other.tokens.admin))).status).toBe(404);
    expect((await t.http.put(ihceUrl()).set(bearer(other.tokens.admin)).send({ enabled: false })).status).toBe(404);
    // Nor can a document be recorded for another organisation's patient.
    await expect(record(statement(), 'paciente', other, patientId)).rejects.toMatchObject({ status: 404 });
  });

  it('lets administrators and clinicians read, filters by status, kind and patient, and keeps resend and settings to administrators', async () => {
    const list = await t.http
      .get(`/api/v1/rdas?status=enviado&kind=paciente&patient_id=${patientId}&_start=0&_end=2`)
      .set(bearer(org.tokens.medico));
    expect(list.status).toBe(200);
    expect(Number(list.headers['x-total-count'])).toBeGreaterThan(2);
    expect(list.body).toHaveLength(2);
    for (const r of list.body)
      expect(r).toMatchObject({ status: 'enviado', kind: 'paciente', patient_id: patientId, patient_name: 'María José Pérez Gómez' });
    expect(list.body[0].bundle).toBeUndefined();
    expect((await t.http.get(`/api/v1/rdas/${list.body[0].id}`).set(bearer(org.tokens.enfermeria))).status).toBe(200);
    expect((await t.http.get('/api/v1/rdas').set(bearer(org.tokens.consulta))).status).toBe(403);
    expect((await t.http.post(`/api/v1/rdas/${list.body[0].id}/resend`).set(bearer(org.tokens.medico))).status).toBe(403);
    expect((await t.http.get(ihceUrl()).set(bearer(org.tokens.medico))).status).toBe(403);
    expect((await t.http.post(`${ihceUrl()}/test`).set(bearer(org.tokens.enfermeria))).status).toBe(403);
  });
});

/** The platform called directly with the organisation's credentials, as a process that died after sending would have. */
async function fetchAsPlatformClient(bundle: Json) {
  const token = await fetch(peer.tokenUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: PEER_CLIENT_ID,
      client_secret: PEER_CLIENT_SECRET,
    }).toString(),
  }).then((r) => r.json() as Promise<{ access_token: string }>);
  return fetch(`${peer.baseUrl}/Composition/$enviar-rda-consulta`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token.access_token}`,
      'Ocp-Apim-Subscription-Key': PEER_SUBSCRIPTION_KEY,
      'content-type': 'application/fhir+json',
    },
    body: JSON.stringify(bundle),
  });
}
