import crypto from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { Client, type FhirResource } from 'fhir-kit-client';
import { validateResource } from '@medplum/core';
import { execute, insertReturningId, select } from '../../api/src/db/sql';
import { ambulatoryDocument } from '../../api/src/modules/fhir/rda.document';
import { patientDocument } from '../../api/src/modules/fhir/rda.statement';
import { recordRda } from '../../api/src/modules/rdas/rdas.service';
import { flushAuditTrail } from '../../api/src/modules/audit/audit.recorder';
import { startTestProduct, createOrg, bearer, patientBody, type TestProduct, type Org } from '../support/product';
import { startIhcePeer, type IhcePeer, peerSettings } from '../support/ihce-peer';
import { fixtureConsultation, fixturePatientStatement } from '../support/rda-fixture';
import { loadRdaDefinitions } from '../support/rda-validator';
import { ASSERTION_TYPE, makeClientKey, signAssertion } from '../support/smart-client';
import { FHIR_JSON, fhirClient, fhirJson, matchIds, type FhirClient, type Json } from '../support/fhir';

/**
 * Issue 51's 'Seeing it': the RDA documents Vigía keeps are Compositions on its FHIR API, read and
 * searched as an integrator does (fhir-kit-client over real HTTP), `Composition/{id}/$document`
 * answers the Bundle kept, byte for byte what the Ministry's platform (played on loopback) received,
 * and the Bulk export carries them. Another organisation's documents are never seen.
 */

const HOST = 'vigia.test';
const CONSULTA = '51845-6';
const PACIENTE = '102089-0';

let t: TestProduct;
let server: Server;
let origin = '';
let a: Org;
let b: Org;
let peer: IhcePeer;
let helper: FhirClient;
let kit: Client;
const tokens = { full: '', patientOnly: '', orgB: '' };
const patients = { maria: 0, juan: 0, other: 0 };
/** The kept documents: row id, kind, patient, the Bundle built, when written. */
const docs: Record<'mariaConsulta' | 'mariaPaciente' | 'juanConsulta' | 'otherConsulta', { id: number; bundle: Json; at: Date }> =
  {} as never;

/** Fresh UUIDs per document (the same one for each key inside it), as the product draws them. */
function freshOptions(now: Date) {
  const keys = new Map<string, string>();
  return {
    now,
    uuid: (key: string) => {
      if (!keys.has(key)) keys.set(key, crypto.randomUUID());
      return keys.get(key)!;
    },
  };
}

async function keep(org: Org, patientId: number, kind: 'consulta' | 'paciente', at: Date) {
  const bundle = (
    kind === 'consulta'
      ? ambulatoryDocument(fixtureConsultation(), freshOptions(at))
      : patientDocument(fixturePatientStatement(), freshOptions(at))
  ) as Json;
  const kept = await recordRda(
    { sequelize: t.sequelize, jobs: t.jobs, now: () => at },
    { clientId: org.clientId, patientId, kind, bundle },
  );
  return { id: kept.id, bundle, at };
}

const fetchFhir = (path: string, token: string | null, headers: Record<string, string> = {}) =>
  fetch(`${origin}/fhir/R4${path}`, { headers: { ...(token ? { Authorization: `Bearer ${token}` } : {}), ...headers } });

function valid(resource: FhirResource | Json): Json {
  const r = resource as Json;
  validateResource(r as never);
  for (const e of r.entry ?? []) validateResource(e.resource);
  return r;
}

beforeAll(async () => {
  loadRdaDefinitions(); // the peer validates every Bundle it gets against the guide (and indexes base R4)
  t = await startTestProduct({ allowHttpServices: true });
  server = t.app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  a = await createOrg(t, 'Clinica Documentos');
  b = await createOrg(t, 'Clinica Otra Documentos');
  peer = await startIhcePeer();

  const create = async (org: Org, overrides: Record<string, unknown>) => {
    const res = await t.http.post('/api/v1/patients').set(bearer(org.tokens.admin)).send(patientBody(overrides));
    if (res.status !== 201) throw new Error(JSON.stringify(res.body));
    return res.body.id as number;
  };
  patients.maria = await create(a, { first_name: 'maría', last_name: 'documento' });
  patients.juan = await create(a, { first_name: 'juan', last_name: 'documento' });
  patients.other = await create(b, { first_name: 'otra', last_name: 'documento' });

  // A sends to the loopback Ministry; B keeps its document 'sin enviar'.
  const settings = await t.http.put(`/api/v1/clients/${a.clientId}/ihce`).set(bearer(a.tokens.admin)).send(peerSettings(peer));
  expect(settings.status, JSON.stringify(settings.body)).toBe(200);

  docs.mariaConsulta = await keep(a, patients.maria, 'consulta', new Date('2026-11-10T15:00:00Z'));
  docs.mariaPaciente = await keep(a, patients.maria, 'paciente', new Date('2026-11-12T15:00:00Z'));
  docs.juanConsulta = await keep(a, patients.juan, 'consulta', new Date('2026-11-20T15:00:00Z'));
  docs.otherConsulta = await keep(b, patients.other, 'consulta', new Date('2026-11-10T15:00:00Z'));
  await t.jobs.drain({ kinds: ['rda.send'] });

  helper = fhirClient(t, await makeClientKey('RS384', 'k1'), { host: HOST, now: () => new Date() });
  // A client registered for every type asks for the RDA's Composition alone, as a ministry system would.
  tokens.full = await helper.token(a, 'Sistema de información', ['system/*.rs']);
  tokens.patientOnly = await helper.token(a, 'Solo pacientes', ['system/Patient.rs']);
  tokens.orgB = await helper.token(b, 'HIS Vecino', ['system/*.rs']);
  kit = new Client({ baseUrl: `${origin}/fhir/R4` });
  kit.bearerToken = tokens.full;
}, 180_000);

afterAll(async () => {
  if (server) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
  await peer?.close();
  await t?.stop();
});

const rda = (d: { id: number }) => `rda${d.id}`;

describe('GET /fhir/R4/Composition/{id}', () => {
  it('answers the document’s Composition as it was built, named rda<n>, its patient as Patient/p<n>', async () => {
    const c = valid(await kit.read({ resourceType: 'Composition', id: rda(docs.mariaConsulta) }));
    const built = docs.mariaConsulta.bundle.entry[0].resource as Json;
    expect(c).toEqual({
      ...built,
      id: rda(docs.mariaConsulta),
      meta: { ...built.meta, versionId: '1', lastUpdated: '2026-11-10T15:00:00.000Z' },
      subject: { reference: `Patient/p${patients.maria}` },
    });
    expect(c.type.coding[0]).toMatchObject({ system: 'http://loinc.org', code: CONSULTA });
    expect(c.section).toHaveLength(9);
    const statement = valid(await kit.read({ resourceType: 'Composition', id: rda(docs.mariaPaciente) }));
    expect(statement.type.coding[0].code).toBe(PACIENTE);
  });

  it('is 404 (OperationOutcome) for another organisation’s document, an unknown one and an id of another form', async () => {
    for (const [id, token] of [
      [rda(docs.mariaConsulta), tokens.orgB],
      [rda(docs.otherConsulta), tokens.full],
      ['rda999999', tokens.full],
      [String(docs.mariaConsulta.id), tokens.full],
      [docs.mariaConsulta.bundle.entry[0].resource.id as string, tokens.full],
    ]) {
      const res = await fetchFhir(`/Composition/${id}`, token);
      expect(res.status, id).toBe(404);
      const outcome = valid((await res.json()) as Json);
      expect(outcome.issue[0].code).toBe('not-found');
    }
  });

  it('refuses a token without the Composition scope (403) and no token (401)', async () => {
    for (const path of [`/Composition/${rda(docs.mariaConsulta)}`, '/Composition', `/Composition/${rda(docs.mariaConsulta)}/$document`]) {
      const res = await fetchFhir(path, tokens.patientOnly);
      expect(res.status, path).toBe(403);
      const outcome = (await res.json()) as Json;
      expect(outcome.issue[0]).toMatchObject({ code: 'forbidden' });
      expect(outcome.issue[0].diagnostics).toMatch(/system\/Composition\.[rs]/);
      expect((await fetchFhir(path, null)).status).toBe(401);
    }
  });

  it('grants system/Composition.rs alone to a client registered for every type, and reads nothing else with it', async () => {
    const config = await t.http.get('/fhir/R4/.well-known/smart-configuration').set('Host', HOST);
    expect(config.body.scopes_supported).toContain('system/Composition.rs');
    const key = await makeClientKey('ES384', 'rda-1');
    const reg = await t.http
      .post('/api/v1/api_clients')
      .set(bearer(a.tokens.admin))
      .send({ name: 'Solo RDA', jwks: { keys: [key.publicJwk] }, scopes: ['system/*.rs'] });
    expect(reg.status).toBe(201);
    const assertion = await signAssertion({
      alg: 'ES384',
      kid: 'rda-1',
      key: key.privateKey,
      iss: reg.body.client_id,
      sub: reg.body.client_id,
      aud: `http://${HOST}/oauth/token`,
      exp: Math.floor(Date.now() / 1000) + 240,
    });
    const token = await t.http.post('/oauth/token').set('Host', HOST).type('form').send({
      grant_type: 'client_credentials',
      client_assertion_type: ASSERTION_TYPE,
      client_assertion: assertion,
      scope: 'system/Composition.rs',
    });
    expect(token.status, JSON.stringify(token.body)).toBe(200);
    expect(token.body.scope).toBe('system/Composition.rs');
    expect((await fetchFhir(`/Composition/${rda(docs.juanConsulta)}`, token.body.access_token)).status).toBe(200);
    expect((await fetchFhir(`/Patient/p${patients.juan}`, token.body.access_token)).status).toBe(403);
  });
});

describe('GET /fhir/R4/Composition (search)', () => {
  const ids = (bundle: Json) => matchIds(bundle);

  it('finds a patient’s documents by patient and by type, as fhir-kit-client asks', async () => {
    const all = valid(await kit.search({ resourceType: 'Composition', searchParams: { patient: `Patient/p${patients.maria}` } }));
    expect(all.type).toBe('searchset');
    expect(ids(all)).toEqual([rda(docs.mariaConsulta), rda(docs.mariaPaciente)]);
    expect(all.total).toBe(2);
    const consultas = valid(
      await kit.search({
        resourceType: 'Composition',
        searchParams: { patient: `p${patients.maria}`, type: `http://loinc.org|${CONSULTA}` },
      }),
    );
    expect(ids(consultas)).toEqual([rda(docs.mariaConsulta)]);
    const statements = valid(await kit.search({ resourceType: 'Composition', searchParams: { type: PACIENTE } }));
    expect(ids(statements)).toEqual([rda(docs.mariaPaciente)]);
    const otherSystem = valid(
      await kit.search({ resourceType: 'Composition', searchParams: { type: `http://snomed.info/sct|${CONSULTA}` } }),
    );
    expect(ids(otherSystem)).toEqual([]);
  });

  it('filters by date and _id, and pages by next links (never another organisation’s)', async () => {
    const since = valid(await kit.search({ resourceType: 'Composition', searchParams: { date: 'ge2026-11-11' } }));
    expect(ids(since)).toEqual([rda(docs.mariaPaciente), rda(docs.juanConsulta)]);
    const range = await helper.allPages('/Composition?date=ge2026-11-01&date=lt2026-11-13', tokens.full);
    expect(range.ids).toEqual([rda(docs.mariaConsulta), rda(docs.mariaPaciente)]);
    const byId = await helper.allPages(`/Composition?_id=${rda(docs.juanConsulta)},${rda(docs.otherConsulta)},x1`, tokens.full);
    expect(byId.ids).toEqual([rda(docs.juanConsulta)]);
    const paged = await helper.allPages('/Composition?_count=1', tokens.full);
    expect(paged.ids).toEqual([rda(docs.mariaConsulta), rda(docs.mariaPaciente), rda(docs.juanConsulta)]);
    expect(paged.pages).toBe(3);
    for (const bundle of paged.bundles)
      for (const e of bundle.entry ?? []) expect(e.fullUrl).toBe(`http://${HOST}/fhir/R4/Composition/${e.resource.id}`);
    const fromB = await helper.allPages('/Composition', tokens.orgB);
    expect(fromB.ids).toEqual([rda(docs.otherConsulta)]);
    const count = fhirJson(await helper.get('/Composition?_summary=count', tokens.full));
    expect(count.total).toBe(3);
  });

  it('reports an unknown parameter, refuses it under handling=strict, and names a malformed one', async () => {
    const lenient = fhirJson(await helper.get('/Composition?status=final', tokens.full));
    expect(lenient.entry.at(-1)).toMatchObject({ search: { mode: 'outcome' } });
    expect(ids(lenient)).toHaveLength(3);
    const strict = await helper.get('/Composition?status=final', tokens.full).set('Prefer', 'handling=strict');
    expect(strict.status).toBe(400);
    for (const [query, param] of [
      ['date=2026-13', 'date'],
      ['patient=Group/g1', 'patient'],
      ['_count=x', '_count'],
    ]) {
      const res = await helper.get(`/Composition?${query}`, tokens.full);
      expect(res.status, query).toBe(400);
      expect(JSON.parse(res.text).issue[0].expression).toEqual([param]);
    }
  });
});

describe('GET /fhir/R4/Composition (pages of at most 100 documents)', () => {
  it('answers a _count above 100 in pages of 100, each document once', async () => {
    const c = await createOrg(t, 'Clinica Muchos Documentos');
    const res = await t.http
      .post('/api/v1/patients')
      .set(bearer(c.tokens.admin))
      .send(patientBody({ first_name: 'muchos' }));
    expect(res.status).toBe(201);
    const text = JSON.stringify(docs.juanConsulta.bundle);
    const at = new Date('2026-11-05T10:00:00Z');
    for (let i = 0; i < 101; i++) {
      const id = await insertReturningId(
        t.sequelize,
        `INSERT INTO rdas (client_id, patient_id, kind, identifier, version, status, attempts, created_at, updated_at)
         VALUES (:clientId, :patientId, 'consulta', :identifier, 1, 'sin_enviar', 0, :at, :at) RETURNING id`,
        { clientId: c.clientId, patientId: res.body.id, identifier: crypto.randomUUID(), at },
      );
      await execute(t.sequelize, 'INSERT INTO rda_documents (rda_id, bundle) VALUES (:id, :text)', { id, text });
    }
    const token = await helper.token(c, 'HIS Muchos', ['system/*.rs']);
    const first = fhirJson(await helper.get('/Composition?_count=1000', token));
    expect(matchIds(first)).toHaveLength(100);
    expect(first.link.map((l: Json) => l.relation)).toEqual(['self', 'next']);
    const all = await helper.allPages('/Composition?_count=1000', token);
    expect(all.pages).toBe(2);
    expect(new Set(all.ids).size).toBe(101);
  });
});

describe('GET /fhir/R4/Composition/{id}/$document', () => {
  it('answers the Bundle kept byte for byte, the one the Ministry’s platform received', async () => {
    for (const d of [docs.mariaConsulta, docs.mariaPaciente, docs.juanConsulta]) {
      const res = await fetchFhir(`/Composition/${rda(d)}/$document`, tokens.full);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe(FHIR_JSON);
      const text = await res.text();
      const [row] = await select<{ bundle: string; status: string }>(
        t.sequelize,
        'SELECT d.bundle, r.status FROM rdas r JOIN rda_documents d ON d.rda_id = r.id WHERE r.id = :id',
        { id: d.id },
      );
      expect(text).toBe(row.bundle);
      expect(text).toBe(JSON.stringify(d.bundle));
      expect(row.status).toBe('enviado');
      const received = peer.documents.get(d.bundle.identifier.value)!;
      expect(received).toBeDefined();
      expect(text).toBe(JSON.stringify(received.bundle));
      // The Composition read is the document's first entry, named by the API.
      const read = valid(await kit.read({ resourceType: 'Composition', id: rda(d) }));
      expect({ ...read, id: null, meta: null, subject: null }).toEqual({
        ...received.bundle.entry[0].resource,
        id: null,
        meta: null,
        subject: null,
      });
    }
    const viaKit = valid(
      await kit.operation({ name: '$document', resourceType: 'Composition', id: rda(docs.juanConsulta), method: 'GET' }),
    );
    expect(viaKit).toEqual(docs.juanConsulta.bundle);
  });

  it('is in the patient’s audit trail: who read which document', async () => {
    // Earlier tests read her documents too: their events are written after their answers, so let
    // them land, and only an event newer than all of them is this read's.
    const reads = async (): Promise<Json[]> => {
      await flushAuditTrail(t.sequelize);
      const hers = await t.http.get(`/api/v1/patients/${patients.maria}/audit_events?_end=100`).set(bearer(a.tokens.admin));
      expect(hers.status).toBe(200);
      return (hers.body as Json[]).filter((e) => e.path === '/fhir/R4/Composition/:id/$document');
    };
    const before = Math.max(0, ...(await reads()).map((e) => e.id as number));
    const res = await fetchFhir(`/Composition/${rda(docs.mariaPaciente)}/$document`, tokens.full);
    expect(res.status).toBe(200);
    let event: Json | undefined;
    for (let i = 0; i < 100 && !event; i++) {
      event = (await reads()).find((e) => (e.id as number) > before);
      if (!event) await new Promise((r) => setTimeout(r, 30));
    }
    expect(event).toMatchObject({
      action: 'fhir_read',
      actor_kind: 'system',
      resource: 'fhir',
      resource_id: rda(docs.mariaPaciente),
      summary: `Leyó Composition/${rda(docs.mariaPaciente)}; cliente de API Sistema de información`,
    });
  });

  it('is 404 across organisations', async () => {
    expect((await fetchFhir(`/Composition/${rda(docs.otherConsulta)}/$document`, tokens.full)).status).toBe(404);
    expect((await fetchFhir(`/Composition/${rda(docs.mariaConsulta)}/$document`, tokens.orgB)).status).toBe(404);
  });
});

describe('GET /fhir/R4/metadata', () => {
  it('lists Composition with read, search-type, its parameters and $document', async () => {
    const cs = (await (await fetchFhir('/metadata', null)).json()) as Json;
    validateResource(cs);
    const composition = cs.rest[0].resource.find((r: Json) => r.type === 'Composition');
    expect(composition.interaction).toEqual([{ code: 'read' }, { code: 'search-type' }]);
    expect(composition.searchParam.map((p: Json) => p.name)).toEqual(['patient', 'subject', 'type', 'date', '_id', '_lastUpdated']);
    expect(composition.operation).toEqual([
      { name: 'document', definition: 'http://hl7.org/fhir/OperationDefinition/Composition-document' },
    ]);
  });
});

describe('a corrected document (a newer version replaces the first)', () => {
  it('keeps the id of its first version and answers the latest version’s Composition and Bundle', async () => {
    const at = new Date('2026-11-25T15:00:00Z');
    const bundle = ambulatoryDocument(fixtureConsultation(), freshOptions(at)) as Json;
    const first = docs.juanConsulta;
    const v2 = await insertReturningId(
      t.sequelize,
      `INSERT INTO rdas (client_id, patient_id, encounter_id, kind, identifier, version, replaces_id, status, attempts, created_at, updated_at)
       VALUES (:clientId, :patientId, NULL, 'consulta', :identifier, 2, :replaces, 'sin_enviar', 0, :at, :at) RETURNING id`,
      {
        clientId: a.clientId,
        patientId: patients.juan,
        identifier: bundle.identifier.value,
        replaces: first.id,
        at,
      },
    );
    await execute(t.sequelize, 'INSERT INTO rda_documents (rda_id, bundle) VALUES (:id, :bundle)', {
      id: v2,
      bundle: JSON.stringify(bundle),
    });
    await execute(t.sequelize, "UPDATE rdas SET status = 'corregido' WHERE id = :id", { id: first.id });
    try {
      const c = valid(await kit.read({ resourceType: 'Composition', id: rda(first) }));
      expect(c.meta).toMatchObject({ versionId: '2', lastUpdated: at.toISOString() });
      expect(c.section).toEqual(bundle.entry[0].resource.section);
      const doc = await fetchFhir(`/Composition/${rda(first)}/$document`, tokens.full);
      expect(await doc.text()).toBe(JSON.stringify(bundle));
      expect((await fetchFhir(`/Composition/rda${v2}`, tokens.full)).status).toBe(404);
      const listed = await helper.allPages(`/Composition?patient=p${patients.juan}`, tokens.full);
      expect(listed.ids).toEqual([rda(first)]);
      expect((await helper.allPages(`/Composition?_id=${rda(first)}`, tokens.full)).ids).toEqual([rda(first)]);
      expect((await helper.allPages('/Composition?_lastUpdated=ge2026-11-25', tokens.full)).ids).toEqual([rda(first)]);
    } finally {
      // Back as it was, for the export below.
      await execute(t.sequelize, 'DELETE FROM rdas WHERE id = :id', { id: v2 });
      await execute(t.sequelize, "UPDATE rdas SET status = 'enviado' WHERE id = :id", { id: first.id });
    }
  });
});

describe('Bulk export', () => {
  async function exportToEnd(pathAndQuery: string, token = tokens.full): Promise<Json> {
    const k = await helper.get(`/${pathAndQuery}`, token).set('Prefer', 'respond-async');
    expect(k.status, k.text).toBe(202);
    await t.jobs.drain();
    const status = (k.headers['content-location'] as string).slice(`http://${HOST}/fhir/R4`.length);
    const done = await helper.get(status, token);
    expect(done.status, done.text).toBe(200);
    return JSON.parse(done.text) as Json;
  }
  async function linesOf(manifest: Json, type: string, token = tokens.full): Promise<Json[]> {
    const out: Json[] = [];
    for (const file of (manifest.output as Json[]).filter((o) => o.type === type)) {
      expect(file.url).toMatch(/\/Composition\.\d+\.ndjson$/);
      const res = await fetch(`${origin}${new URL(file.url).pathname}`, { headers: { Authorization: `Bearer ${token}` } });
      expect(res.status).toBe(200);
      const lines = (await res.text()).split('\n').filter(Boolean);
      expect(lines).toHaveLength(file.count);
      for (const line of lines) out.push(valid(JSON.parse(line)));
    }
    return out;
  }

  it('exports the organisation’s Compositions with _type=Composition, the same the API reads, none of another organisation', async () => {
    const manifest = await exportToEnd('$export?_type=Composition');
    expect(manifest.output.map((o: Json) => o.type)).toEqual(['Composition']);
    const lines = await linesOf(manifest, 'Composition');
    expect(lines.map((c) => c.id)).toEqual([rda(docs.mariaConsulta), rda(docs.mariaPaciente), rda(docs.juanConsulta)]);
    expect(lines[0]).toEqual(valid(await kit.read({ resourceType: 'Composition', id: rda(docs.mariaConsulta) })));
    const fromB = await linesOf(await exportToEnd('$export?_type=Composition', tokens.orgB), 'Composition', tokens.orgB);
    expect(fromB.map((c) => c.id)).toEqual([rda(docs.otherConsulta)]);
  });

  it('includes them in the export of every type, honours _since, and in a Group’s export only its patients’', async () => {
    const all = await exportToEnd('$export');
    expect((await linesOf(all, 'Composition')).map((c) => c.id)).toHaveLength(3);
    const since = await exportToEnd('$export?_type=Composition&_since=2026-11-11T00:00:00Z');
    expect((await linesOf(since, 'Composition')).map((c) => c.id)).toEqual([rda(docs.mariaPaciente), rda(docs.juanConsulta)]);
    const tag = await t.http.post('/api/v1/tags').set(bearer(a.tokens.admin)).send({ name: 'Cohorte RDA', color: 'blue' });
    expect(tag.status).toBe(201);
    await execute(t.sequelize, 'INSERT INTO patient_tags (patient_id, tag_id) VALUES (:patientId, :tagId)', {
      patientId: patients.juan,
      tagId: tag.body.id,
    });
    const group = await exportToEnd(`Group/g${tag.body.id}/$export?_type=Composition`);
    expect((await linesOf(group, 'Composition')).map((c) => c.id)).toEqual([rda(docs.juanConsulta)]);
  });

  it('refuses _type=Composition to a token without its scope', async () => {
    const res = await helper.get('/$export?_type=Composition', tokens.patientOnly).set('Prefer', 'respond-async');
    expect(res.status).toBe(403);
  });
});
