import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { startTestProduct, createOrg, bearer, patientBody, type TestProduct, type Org } from '../support/product';
import { storeReadings } from '../support/readings';
import { DEFAULT_COUNT } from '../../api/src/modules/fhir/fhir.search.rules';
import { makeClientKey } from '../support/smart-client';
import { fhirClient, type FhirClient, type Json } from '../support/fhir';

/**
 * Issue 37: every FHIR read and search is an audit event (who, which type, how many), listed by
 * GET /api/v1/audit_events as 'Auditoría' shows it: the API client as a 'system' actor named in the
 * summary, a staff user by their own user. The path keeps the query's names, never its values.
 */
const HOST = 'vigia.test';

let t: TestProduct;
let a: Org;
let b: Org;
let client: FhirClient;
let fullToken = '';
let patientOnlyToken = '';
let maria: Json;
const readingCount = 5;

const fhir = (path: string, token: string) => client.get(path, token);

/** The organisation's FHIR events as 'Auditoría' lists them, newest first. */
async function fhirEvents(org: Org = a): Promise<Json[]> {
  const res = await t.http.get('/api/v1/audit_events?resource=fhir&_end=100').set(bearer(org.tokens.admin));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as Json[];
}

/** The batched writer writes after the answer (up to ~100 ms later): wait, briefly, for an event. */
async function eventWhere(match: (e: Json) => boolean, org: Org = a): Promise<Json> {
  for (let i = 0; i < 100; i++) {
    const found = (await fhirEvents(org)).find(match);
    if (found) return found;
    await new Promise((r) => setTimeout(r, 30));
  }
  throw new Error('no such audit event');
}

beforeAll(async () => {
  t = await startTestProduct({ allowHttpServices: true });
  a = await createOrg(t, 'Clinica Auditada');
  b = await createOrg(t, 'Clinica Ajena');
  client = fhirClient(t, await makeClientKey('RS384', 'k1'), { host: HOST, now: () => new Date() });
  fullToken = await client.token(a, 'HIS Central', ['system/*.rs']);
  patientOnlyToken = await client.token(a, 'Solo Pacientes', ['system/Patient.rs']);
  const res = await t.http
    .post('/api/v1/patients')
    .set(bearer(a.tokens.admin))
    .send(patientBody({ first_name: 'eulalia', last_name: 'zambrano' }));
  if (res.status !== 201) throw new Error(JSON.stringify(res.body));
  maria = res.body;
  await storeReadings(
    t,
    { clientId: a.clientId, patientId: maria.id },
    Array.from({ length: readingCount }, (_, i) => ({ clinical_element: 1, value: 70 + i, when: new Date(Date.UTC(2026, 10, 1 + i, 12)) })),
    new Date('2026-11-20T00:00:00Z'),
  );
}, 120_000);
afterAll(async () => {
  await t?.stop();
});

describe('GET /fhir/R4 reads and searches in the audit trail', () => {
  it('records an API client’s search: a system actor named in the summary, the type, how many, the parameter names only', async () => {
    const res = await fhir(`/Observation?patient=p${maria.id}&code=http://loinc.org|8867-4&_count=3`, fullToken);
    expect(res.status).toBe(200);
    const e = await eventWhere((x) => x.action === 'fhir_search' && x.summary.includes('HIS Central') && x.path.includes('Observation'));
    expect(e).toMatchObject({
      actor_kind: 'system',
      user_id: null,
      user_name: null,
      action: 'fhir_search',
      resource: 'fhir',
      resource_id: null,
      summary: 'Buscó 3 Observation (página de hasta 3); cliente de API HIS Central',
      // Every reading found is María's: the event is hers too.
      patient_id: maria.id,
      method: 'GET',
      path: '/fhir/R4/Observation?patient&code&_count',
      status: 200,
    });
    expect(e.ip).toBeTruthy();
  });

  it('records an API client’s read with the resource’s id', async () => {
    expect((await fhir(`/Patient/p${maria.id}`, fullToken)).status).toBe(200);
    const e = await eventWhere((x) => x.action === 'fhir_read' && x.actor_kind === 'system');
    expect(e).toMatchObject({
      user_id: null,
      resource: 'fhir',
      resource_id: `p${maria.id}`,
      patient_id: maria.id,
      summary: `Leyó Patient/p${maria.id}; cliente de API HIS Central`,
      path: '/fhir/R4/Patient/:id',
      status: 200,
    });
  });

  it('records a staff administrator’s search and read under their own user, and a count-only search', async () => {
    const admin = a.users.admin;
    expect((await fhir(`/Observation?patient=p${maria.id}`, a.tokens.admin)).status).toBe(200);
    expect((await fhir(`/Patient/p${maria.id}`, a.tokens.admin)).status).toBe(200);
    expect((await fhir(`/Observation?patient=p${maria.id}&_summary=count`, a.tokens.admin)).status).toBe(200);
    const search = await eventWhere((x) => x.action === 'fhir_search' && x.actor_kind === 'staff' && x.path.endsWith('?patient'));
    expect(search).toMatchObject({
      user_id: admin.id,
      user_name: expect.stringMatching(/Ana/),
      resource: 'fhir',
      summary: `Buscó ${readingCount} Observation (página de hasta ${DEFAULT_COUNT}; ${readingCount} en total)`,
    });
    const read = await eventWhere((x) => x.action === 'fhir_read' && x.actor_kind === 'staff');
    expect(read).toMatchObject({ user_id: admin.id, resource_id: `p${maria.id}`, summary: `Leyó Patient/p${maria.id}` });
    const counted = await eventWhere((x) => x.actor_kind === 'staff' && x.path.endsWith('?patient&_summary'));
    expect(counted.summary).toBe(`Buscó Observation: ${readingCount} en total (solo el recuento)`);
    // A count names no resource, so no patient; the patient's own trail lists the others.
    expect(counted.patient_id).toBeNull();
    const hers = await t.http.get(`/api/v1/patients/${maria.id}/audit_events?_end=100`).set(bearer(a.tokens.admin));
    expect(hers.status).toBe(200);
    expect(
      (hers.body as Json[])
        .filter((x) => x.resource === 'fhir' && x.user_id === admin.id)
        .map((x) => x.action)
        .sort(),
    ).toEqual(['fhir_read', 'fhir_search']);
    // The user filter of 'Auditoría' finds them.
    const byUser = await t.http.get(`/api/v1/audit_events?resource=fhir&user_id=${admin.id}`).set(bearer(a.tokens.admin));
    expect(byUser.status).toBe(200);
    expect((byUser.body as Json[]).map((x) => x.action).sort()).toEqual(['fhir_read', 'fhir_search', 'fhir_search']);
  });

  it('keeps no searched value in the trail: a name searched for is in neither the path nor the summary', async () => {
    expect((await fhir('/Patient?name=eulalia&family=zambrano', fullToken)).status).toBe(200);
    const e = await eventWhere((x) => x.path === '/fhir/R4/Patient?name&family');
    expect(e.summary).toBe(`Buscó 1 Patient (página de hasta ${DEFAULT_COUNT}; 1 en total); cliente de API HIS Central`);
    // What the trail stores (the patient the answer was about is named when the list is read, as for every patient event).
    const stored = (await fhirEvents()).map(({ patient_name: _shown, ...kept }) => kept);
    expect(JSON.stringify(stored)).not.toMatch(/eulalia|zambrano/i);
    expect(e.patient_id).toBe(maria.id);
  });

  it('writes no event for a refused search (403 scope) or a resource not found, and none in another organisation', async () => {
    const refused = await fhir(`/Observation?patient=p${maria.id}&_count=7`, patientOnlyToken);
    expect(refused.status).toBe(403);
    expect((await fhir('/Patient/p999999', patientOnlyToken)).status).toBe(404);
    // A later successful search by the same client proves the writer has caught up with the refusals.
    expect((await fhir('/Patient?_count=2', patientOnlyToken)).status).toBe(200);
    await eventWhere((x) => x.summary.includes('Solo Pacientes') && x.path === '/fhir/R4/Patient?_count');
    const mine = (await fhirEvents()).filter((x) => x.summary.includes('Solo Pacientes'));
    expect(mine.map((x) => x.summary)).toEqual(['Buscó 1 Patient (página de hasta 2; 1 en total); cliente de API Solo Pacientes']);
    expect(await fhirEvents(b)).toEqual([]);
  });
});
