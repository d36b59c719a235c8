import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { validateResource } from '@medplum/core';
import { execute } from '../../api/src/db/sql';
import { expireExports } from '../../api/src/modules/fhir_exports/fhir-exports.service';
import { exportSettings } from '../../api/src/modules/fhir_exports/fhir-exports.rules';
import { startTestProduct, createOrg, bearer, type TestProduct, type Org } from '../support/product';
import { storeReadings } from '../support/readings';
import { addCohort, addPatientsWithReadings, setExportEnv } from '../support/exports';
import { makeClientKey } from '../support/smart-client';
import { fhirClient, loadFhirDefinitions, type Json } from '../support/fhir';

/**
 * FHIR Bulk Data export (issue 37), as an integrator drives it: kick-off with Prefer: respond-async,
 * the status URL polled until the manifest, every NDJSON file fetched with the same client's token,
 * each line a valid FHIR resource of the organisation, the lines adding up to the manifest's counts.
 * Files are split at FHIR_EXPORT_FILE_RESOURCES (4 here, so a type spans several files).
 */
const HOST = 'vigia.test';
const BASE = `http://${HOST}/fhir/R4`;

let t: TestProduct;
let a: Org;
let b: Org;
const tokens: Record<'full' | 'second' | 'patientOnly' | 'orgB', string> = { full: '', second: '', patientOnly: '', orgB: '' };
const patientIds: { a: number[]; b: number[] } = { a: [], b: [] };
let tagId = 0;
let restoreEnv = () => {};

const get = (url: string, token: string | null) => {
  const req = t.http.get(url.startsWith('http') ? url.slice(`http://${HOST}`.length) : url).set('Host', HOST);
  return token ? req.set(bearer(token)) : req;
};
const kickOff = (pathAndQuery: string, token: string, prefer: string | null = 'respond-async') => {
  const req = get(`/fhir/R4/${pathAndQuery}`, token).set('Accept', 'application/fhir+json');
  return prefer ? req.set('Prefer', prefer) : req;
};

/** Kick-off → jobs run → manifest; answers the manifest and the status URL. */
async function exportToEnd(pathAndQuery: string, token = tokens.full): Promise<{ manifest: Json; status: string; expires: string }> {
  const k = await kickOff(pathAndQuery, token);
  expect(k.status, k.text).toBe(202);
  const status = k.headers['content-location'] as string;
  expect(status).toMatch(new RegExp(`^${BASE.replace(/\$/g, '\\$')}/\\$export-status/\\d+$`));
  await t.jobs.drain();
  const done = await get(status, token);
  expect(done.status, done.text).toBe(200);
  return { manifest: JSON.parse(done.text), status, expires: done.headers.expires as string };
}

/** Every file of a manifest, fetched with `token`: its lines parsed and validated, checked against the file's count. */
async function linesOf(manifest: Json, token = tokens.full): Promise<Json[]> {
  const all: Json[] = [];
  for (const out of manifest.output as Json[]) {
    const res = await get(out.url, token)
      .buffer(true)
      .parse((r, cb) => {
        let text = '';
        r.setEncoding('utf8');
        r.on('data', (c: string) => (text += c));
        r.on('end', () => cb(null, text));
      });
    expect(res.status, `${out.url}: ${String(res.body)}`).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/fhir\+ndjson/);
    const lines = (res.body as string).split('\n').filter((l) => l !== '');
    expect(lines.length, out.url).toBe(out.count);
    expect((res.body as string).endsWith('\n')).toBe(true);
    for (const line of lines) {
      const resource = JSON.parse(line) as Json;
      validateResource(resource);
      expect(resource.resourceType).toBe(out.type);
      all.push(resource);
    }
  }
  return all;
}

/** The patient row id a resource is about (its subject, patient, or itself). */
function patientOf(r: Json): number | null {
  if (r.resourceType === 'Patient') return Number(String(r.id).slice(1));
  const ref: string | undefined = r.subject?.reference ?? r.patient?.reference;
  return ref ? Number(ref.replace(/^Patient\/p/, '')) : null;
}

beforeAll(async () => {
  loadFhirDefinitions();
  // Organisation A's 15 readings are written in two halves at once, the second in a worker thread; B's 6 in one part, all in the worker thread.
  restoreEnv = setExportEnv({ files: '4', splitAt: '10' });
  t = await startTestProduct({ allowHttpServices: true });
  a = await createOrg(t, 'Clinica Exporta');
  b = await createOrg(t, 'Clinica Ajena');
  const client = fhirClient(t, await makeClientKey('RS384', 'k1'), { host: HOST, now: () => new Date() });
  tokens.full = await client.token(a, 'HIS Nocturno', ['system/*.rs']);
  tokens.second = await client.token(a, 'Analitica', ['system/*.rs']);
  tokens.patientOnly = await client.token(a, 'Solo pacientes', ['system/Patient.rs']);
  tokens.orgB = await client.token(b, 'HIS Vecino', ['system/*.rs']);
  patientIds.a = await addPatientsWithReadings(t, a, 5);
  patientIds.b = await addPatientsWithReadings(t, b, 2);
  tagId = await addCohort(t, a, 'Cohorte exportada', [patientIds.a[0], patientIds.a[1]]);
});

afterAll(async () => {
  await t?.stop();
  restoreEnv();
});

describe('GET /fhir/R4/$export (kick-off)', () => {
  it.each([
    ['without Prefer: respond-async', '$export', null, 400, 'Prefer'],
    ['an unknown _type', '$export?_type=Patient,Banana', 'respond-async', 400, '_type'],
    ['an _outputFormat other than NDJSON', '$export?_outputFormat=text/csv', 'respond-async', 400, '_outputFormat'],
    ['a _since without a zone', '$export?_since=2026-11-01T00:00:00', 'respond-async', 400, '_since'],
    ['an unknown parameter under handling=strict', '$export?_typeFilter=x', 'respond-async, handling=strict', 400, '_typeFilter'],
    ['a Group of another shape', 'Group/12/$export', 'respond-async', 404, undefined],
    ['a Group id past INTEGER', 'Group/g2147483648/$export', 'respond-async', 404, undefined],
  ])('refuses %s', async (_name, url, prefer, status, field) => {
    const res = await kickOff(url, tokens.full, prefer);
    expect(res.status, res.text).toBe(status);
    const outcome = JSON.parse(res.text);
    expect(outcome.resourceType).toBe('OperationOutcome');
    validateResource(outcome);
    if (field) expect(outcome.issue[0].expression).toEqual([field]);
  });

  it('refuses a type the token does not cover (403) and a request without a token (401)', async () => {
    const scoped = await kickOff('$export?_type=Observation', tokens.patientOnly);
    expect(scoped.status).toBe(403);
    expect(JSON.parse(scoped.text).issue[0].code).toBe('forbidden');
    const anonymous = await t.http.get('/fhir/R4/$export').set('Host', HOST).set('Prefer', 'respond-async');
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers['www-authenticate']).toMatch(/^Bearer/);
  });

  it('refuses a nurse (403): an export is the organisation’s whole data, for administrators and API clients', async () => {
    const res = await kickOff('$export', a.tokens.enfermeria);
    expect(res.status).toBe(403);
  });

  it('refuses a Group of another organisation (404)', async () => {
    const res = await kickOff(`Group/g${tagId}/$export`, tokens.orgB);
    expect(res.status).toBe(404);
  });
});

describe('an export from kick-off to files', () => {
  it('answers 202 with X-Progress while queued, then the whole manifest with Expires', async () => {
    const k = await kickOff('$export?_type=Patient,Observation', tokens.full);
    expect(k.status).toBe(202);
    const statusUrl = k.headers['content-location'] as string;
    const waiting = await get(statusUrl, tokens.full);
    expect(waiting.status).toBe(202);
    expect(waiting.headers['x-progress']).toBeTruthy();
    expect(Number(waiting.headers['retry-after'])).toBeGreaterThan(0);
    await t.jobs.drain();
    const done = await get(statusUrl, tokens.full);
    expect(done.status, done.text).toBe(200);
    expect(done.headers['content-type']).toMatch(/^application\/fhir\+json/);
    const expires = new Date(done.headers.expires as string).getTime();
    const manifest = JSON.parse(done.text) as Json;
    expect(expires - new Date(manifest.transactionTime).getTime()).toBeGreaterThan(23 * 3600_000);
    expect(manifest.request).toBe(`${BASE}/$export?_type=Patient,Observation`);
    expect(manifest.requiresAccessToken).toBe(true);
    expect(manifest.error).toEqual([]);
    // 5 patients in files of 4: two Patient files; 15 readings in two halves (5 and 10, see below): five Observation files.
    expect(manifest.output.map((o: Json) => [o.type, o.count])).toEqual([
      ['Patient', 4],
      ['Patient', 1],
      ['Observation', 4],
      ['Observation', 4],
      ['Observation', 1],
      ['Observation', 4],
      ['Observation', 2],
    ]);
    const resources = await linesOf(manifest);
    const patients = resources.filter((r) => r.resourceType === 'Patient').map((r) => Number(r.id.slice(1)));
    expect(patients.sort((x, y) => x - y)).toEqual([...patientIds.a].sort((x, y) => x - y));
    expect(new Set(resources.map(patientOf)).size).toBe(5);
    for (const r of resources) expect(patientIds.a).toContain(patientOf(r));
  });

  it('without _type exports every type the client may read; the counts add up to the resources written', async () => {
    const { manifest } = await exportToEnd('$export');
    const types = new Set((manifest.output as Json[]).map((o) => o.type));
    expect(types.has('Patient') && types.has('Observation') && types.has('Group')).toBe(true);
    const resources = await linesOf(manifest);
    expect(resources.length).toBe((manifest.output as Json[]).reduce((n, o) => n + o.count, 0));
    for (const r of resources) if (patientOf(r) !== null) expect(patientIds.a).toContain(patientOf(r));
    const onlyPatients = await exportToEnd('$export', tokens.patientOnly);
    expect(new Set(onlyPatients.manifest.output.map((o: Json) => o.type))).toEqual(new Set(['Patient']));
  });

  it('writes many readings in two halves of their time span at once, the second in a worker thread: each reading once', async () => {
    const { manifest } = await exportToEnd('$export?_type=Observation');
    // Part k of 2 numbers its files k+1, k+3, …, listed by number: both parts wrote (the first half,
    // 1 November, is 5 readings in files 1 and 3; the second 10 in files 2, 4 and 6).
    const numbers = (manifest.output as Json[]).map((o) => Number(String(o.url).split('.').at(-2)));
    expect(numbers).toEqual([1, 2, 3, 4, 6]);
    expect((manifest.output as Json[]).map((o) => o.count)).toEqual([4, 4, 1, 4, 2]);
    const ids = (await linesOf(manifest)).map((r) => String(r.id));
    expect(ids).toHaveLength(15);
    expect(new Set(ids).size).toBe(15);
    // Organisation B's 6 readings, under the split threshold: one part.
    const other = await exportToEnd('$export?_type=Observation', tokens.orgB);
    expect((other.manifest.output as Json[]).map((o) => Number(String(o.url).split('.').at(-2)))).toEqual([1, 2]);
  });

  it('exports a Group: only its patients and their data', async () => {
    const { manifest } = await exportToEnd(`Group/g${tagId}/$export?_type=Patient,Observation`);
    const resources = await linesOf(manifest);
    expect(new Set(resources.map(patientOf))).toEqual(new Set([patientIds.a[0], patientIds.a[1]]));
    expect(resources.filter((r) => r.resourceType === 'Observation')).toHaveLength(6);
  });

  it('Patient/$export refuses a type outside the patients’ compartment', async () => {
    const res = await kickOff('Patient/$export?_type=Group', tokens.full);
    expect(res.status).toBe(400);
  });

  it('_since leaves out what did not change after it', async () => {
    const { manifest } = await exportToEnd('$export?_type=Observation&_since=2026-11-21T00:00:00Z');
    expect(manifest.output).toEqual([]);
    await storeReadings(t, { clientId: a.clientId, patientId: patientIds.a[2] }, [
      { clinical_element: 1, value: 77, when: new Date('2026-11-22T08:00:00Z') },
    ]);
    const later = await exportToEnd('$export?_type=Observation&_since=2026-11-21T00:00:00Z');
    expect(later.manifest.output.map((o: Json) => o.count)).toEqual([1]);
  });

  it('serves files only to the client that asked: another client of the same organisation or of another gets 404, no token 401', async () => {
    const { manifest } = await exportToEnd('$export?_type=Patient');
    const url = manifest.output[0].url as string;
    expect((await get(url, tokens.second)).status).toBe(404);
    expect((await get(url, tokens.orgB)).status).toBe(404);
    expect((await get(url, null)).status).toBe(401);
    expect((await get(url.replace(/Patient\.1\.ndjson$/, '..%2Fsecrets.json'), tokens.full)).status).toBe(404);
    expect((await get(`${BASE}/$export-status/9999999999`, tokens.full)).status).toBe(404);
    expect((await get(`${BASE}/$export-file/2147483648/Patient.1.ndjson`, tokens.full)).status).toBe(404);
    // An administrator of the organisation sees it (it is listed in 'Integraciones').
    expect((await get(url, a.tokens.admin)).status).toBe(200);
  });

  it('organisation B’s export never holds A’s rows', async () => {
    const { manifest } = await exportToEnd('$export', tokens.orgB);
    const resources = await linesOf(manifest, tokens.orgB);
    expect(resources.length).toBeGreaterThan(0);
    for (const r of resources) if (patientOf(r) !== null) expect(patientIds.b).toContain(patientOf(r));
  });
});

describe('the patients’ compartment (issue 49)', () => {
  it('Patient/$export and Group/$export hold only the gateways of a patient; $export holds every gateway', async () => {
    const register = async (body: object) => {
      const res = await t.http.post('/api/v1/devices').set(bearer(a.tokens.admin)).send(body);
      if (res.status !== 201) throw new Error(JSON.stringify(res.body));
      return `d${res.body.id as number}`;
    };
    await execute(t.sequelize, 'UPDATE clients SET multipatient = :yes WHERE id = :id', { yes: true, id: a.clientId });
    // A card assigned to a patient of the group, one not yet assigned, and a gateway that serves several patients.
    const assigned = await register({ card_id: 'GW-ASIGNADA' });
    await execute(t.sequelize, 'UPDATE patients SET card_id = :card WHERE id = :id', { card: 'GW-ASIGNADA', id: patientIds.a[0] });
    const unassigned = await register({ card_id: 'GW-SIN-ASIGNAR' });
    const shared = await register({ card_id: 'GW-SALA', multipatient: true });
    const devicesOf = async (pathAndQuery: string) => {
      const { manifest } = await exportToEnd(pathAndQuery);
      return (await linesOf(manifest)).map((r) => ({ id: String(r.id), patient: patientOf(r) }));
    };
    expect((await devicesOf('$export?_type=Device')).map((d) => d.id).sort()).toEqual([assigned, unassigned, shared].sort());
    expect(await devicesOf('Patient/$export?_type=Device')).toEqual([{ id: assigned, patient: patientIds.a[0] }]);
    expect(await devicesOf(`Group/g${tagId}/$export?_type=Device`)).toEqual([{ id: assigned, patient: patientIds.a[0] }]);
    // Without _type, every resource of a Patient-level export is a patient or names one of them.
    const { manifest } = await exportToEnd('Patient/$export');
    for (const r of await linesOf(manifest)) expect(patientIds.a, `${r.resourceType}/${r.id}`).toContain(patientOf(r));
  });
});

describe('limits, cancel and expiry', () => {
  it('a client runs at most 2 exports at once: the third is 429 with Retry-After', async () => {
    const first = await kickOff('$export?_type=Patient', tokens.second);
    const second = await kickOff('$export?_type=Patient', tokens.second);
    expect([first.status, second.status]).toEqual([202, 202]);
    const third = await kickOff('$export?_type=Patient', tokens.second);
    expect(third.status).toBe(429);
    expect(Number(third.headers['retry-after'])).toBeGreaterThan(0);
    expect(JSON.parse(third.text).issue[0].code).toBe('throttled');
    // Another client of the same organisation is not held back by it.
    expect((await kickOff('$export?_type=Patient', tokens.full)).status).toBe(202);
    // DELETE cancels: the status URL is then 404 and a new one may start.
    const cancel = await t.http
      .delete(first.headers['content-location'].slice(`http://${HOST}`.length))
      .set('Host', HOST)
      .set(bearer(tokens.second));
    expect(cancel.status).toBe(202);
    expect((await get(first.headers['content-location'], tokens.second)).status).toBe(404);
    expect((await kickOff('$export?_type=Patient', tokens.second)).status).toBe(202);
    await t.jobs.drain();
  });

  it('deletes the files when the export expires (24 hours by default)', async () => {
    expect(exportSettings({}).expiryHours).toBe(24);
    const { manifest, status } = await exportToEnd('$export?_type=Patient');
    const id = Number(status.split('/').at(-1));
    const dir = path.join(t.dataDir, 'fhir-exports', String(id));
    expect(fs.readdirSync(dir)).toEqual(['Patient.1.ndjson', 'Patient.2.ndjson']);
    const deps = {
      sequelize: t.sequelize,
      now: t.now,
      log: () => {},
      dir: path.join(t.dataDir, 'fhir-exports'),
      settings: exportSettings({}),
    };
    expect(await expireExports(deps, new Date(Date.now() + 23 * 3600_000))).toBe(0);
    expect(await expireExports(deps, new Date(Date.now() + 25 * 3600_000))).toBeGreaterThanOrEqual(1);
    expect(fs.existsSync(dir)).toBe(false);
    expect((await get(status, tokens.full)).status).toBe(404);
    expect((await get(manifest.output[0].url, tokens.full)).status).toBe(404);
  });
});

describe('/api/v1/fhir_exports (Integraciones → Exportaciones FHIR)', () => {
  it('an administrator starts one, sees it listed with its files, downloads one and deletes it; a nurse gets 403', async () => {
    const start = await t.http
      .post('/api/v1/fhir_exports')
      .set(bearer(a.tokens.admin))
      .send({ types: ['Patient'], group_id: tagId });
    expect(start.status, JSON.stringify(start.body)).toBe(202);
    expect(start.body).toMatchObject({ status: 'queued', level: 'group', types: ['Patient'], group_name: 'COHORTE EXPORTADA' });
    expect(start.body.requested_by).toBe('Ana Admin');
    await t.jobs.drain();
    const list = await t.http.get('/api/v1/fhir_exports?_sort=id&_order=desc&_start=0&_end=5').set(bearer(a.tokens.admin));
    expect(list.status, JSON.stringify(list.body)).toBe(200);
    expect(Number(list.headers['x-total-count'])).toBeGreaterThan(1);
    const mine = list.body.find((e: Json) => e.id === start.body.id);
    expect(mine).toMatchObject({ status: 'completed', resources: 2, files: [{ type: 'Patient', file: 'Patient.1.ndjson', count: 2 }] });
    expect(mine.expires_at).toBeTruthy();
    expect(list.body.some((e: Json) => e.requested_by === 'Cliente de API: HIS Nocturno')).toBe(true);
    const file = await t.http
      .get(`/api/v1/fhir_exports/${start.body.id}/files/Patient.1.ndjson`)
      .set(bearer(a.tokens.admin))
      .buffer(true)
      .parse((r, cb) => {
        let text = '';
        r.on('data', (c: Buffer) => (text += c.toString('utf8')));
        r.on('end', () => cb(null, text));
      });
    expect(file.status).toBe(200);
    expect((file.body as string).trim().split('\n')).toHaveLength(2);
    expect((await t.http.get(`/api/v1/fhir_exports/${start.body.id}/files/Patient.9.ndjson`).set(bearer(a.tokens.admin))).status).toBe(404);
    expect((await t.http.get('/api/v1/fhir_exports').set(bearer(a.tokens.enfermeria))).status).toBe(403);
    expect((await t.http.post('/api/v1/fhir_exports').set(bearer(a.tokens.enfermeria)).send({})).status).toBe(403);
    expect((await t.http.get(`/api/v1/fhir_exports/${start.body.id}`).set(bearer(b.tokens.admin))).status).toBe(404);
    expect((await t.http.delete(`/api/v1/fhir_exports/${start.body.id}`).set(bearer(b.tokens.admin))).status).toBe(404);
    expect((await t.http.delete(`/api/v1/fhir_exports/${start.body.id}`).set(bearer(a.tokens.admin))).status).toBe(204);
    const after = await t.http.get(`/api/v1/fhir_exports/${start.body.id}`).set(bearer(a.tokens.admin));
    expect(after.body.status).toBe('expired');
    expect(after.body.expires_at).toBeTruthy();
  });

  it('refuses a bad body with the field named', async () => {
    const bad = await t.http
      .post('/api/v1/fhir_exports')
      .set(bearer(a.tokens.admin))
      .send({ types: ['Banana'] });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('types');
    const group = await t.http
      .post('/api/v1/fhir_exports')
      .set(bearer(a.tokens.admin))
      .send({ types: ['Group'], group_id: tagId });
    expect(group.status).toBe(400);
    const other = await t.http.post('/api/v1/fhir_exports').set(bearer(b.tokens.admin)).send({ group_id: tagId });
    expect(other.status).toBe(404);
  });
});
