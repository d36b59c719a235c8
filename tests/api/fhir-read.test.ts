import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { validateResource } from '@medplum/core';
import { execute, insertReturningId } from '../../api/src/db/sql';
import { startTestProduct, createOrg, bearer, patientBody, type TestProduct, type Org } from '../support/product';
import { storeReadings } from '../support/readings';
import { makeClientKey } from '../support/smart-client';
import {
  FHIR_JSON,
  FHIR_TYPES,
  fhirClient,
  fhirJson as json,
  loadFhirDefinitions,
  matchIds as ids,
  type FhirClient,
  type Json,
} from '../support/fhir';

/**
 * The FHIR R4 read/search API (issue 37), driven as an integrator would: keys made with jose, a
 * token from /oauth/token, then reads and searches at /fhir/R4, paged to the end by the `next`
 * links. Organisation B's client never sees A's rows.
 */
const HOST = 'vigia.test';
const BASE = `http://${HOST}/fhir/R4`;

let t: TestProduct;
let a: Org;
let b: Org;
let client: FhirClient;
const tokens: Record<'full' | 'patientOnly' | 'orgB', string> = { full: '', patientOnly: '', orgB: '' };
const patients: Record<'maria' | 'juan' | 'inactive' | 'other', Json> = {} as never;
let bpIds: number[] = [];
let glucoseId = 0;
let lonelySystolicId = 0;
const alertIds: number[] = [];
const conditionIds: number[] = [];

const fhir = (path: string, token: string | null = tokens.full) => client.get(path, token);
const allPages = (path: string, token = tokens.full) => client.allPages(path, token);

const at = (iso: string) => new Date(iso);

beforeAll(async () => {
  loadFhirDefinitions();
  t = await startTestProduct({ allowHttpServices: true });
  a = await createOrg(t, 'Clinica Lectura');
  b = await createOrg(t, 'Clinica Vecina');
  // The product runs on the wall clock: the assertion's exp is reckoned from it too.
  client = fhirClient(t, await makeClientKey('RS384', 'k1'), { host: HOST, now: () => new Date() });
  tokens.full = await client.token(a, 'HIS Lectura', ['system/*.rs']);
  tokens.patientOnly = await client.token(a, 'Solo pacientes', ['system/Patient.rs']);
  tokens.orgB = await client.token(b, 'HIS Vecino', ['system/*.rs']);

  const create = async (org: Org, overrides: Record<string, unknown>) => {
    const res = await t.http.post('/api/v1/patients').set(bearer(org.tokens.admin)).send(patientBody(overrides));
    if (res.status !== 201) throw new Error(JSON.stringify(res.body));
    return res.body as Json;
  };
  patients.maria = await create(a, { first_name: 'maría josé', last_name: 'pérez gómez', birth_date: '1950-05-17', gender: 0 });
  patients.juan = await create(a, { first_name: 'juan', last_name: 'ríos', birth_date: '1980-01-02', gender: 1 });
  patients.inactive = await create(a, { first_name: 'lucía', last_name: 'pérez', birth_date: '1990-12-31', gender: 0 });
  await execute(t.sequelize, 'UPDATE patients SET status = 0 WHERE id = :id', { id: patients.inactive.id });
  patients.other = await create(b, { first_name: 'maría', last_name: 'pérez', birth_date: '1950-05-17', gender: 0 });

  // María: 12 moments in November 2026, each a blood-pressure pair and a heart rate; one glucose; a systolic alone.
  const readings = [];
  for (let i = 0; i < 12; i++) {
    const when = new Date(Date.UTC(2026, 10, 1 + i, 12, 0, 0));
    readings.push(
      { clinical_element: 3, value: 120 + i, when },
      { clinical_element: 1, value: 70 + i, when },
      { clinical_element: 4, value: 80, when },
    );
  }
  const stored = await storeReadings(t, { clientId: a.clientId, patientId: patients.maria.id }, readings, at('2026-11-20T00:00:00Z'));
  bpIds = [stored[0], stored[2]];
  [glucoseId] = await storeReadings(t, { clientId: a.clientId, patientId: patients.maria.id }, [
    { clinical_element: 6, value: 95, when: at('2026-11-15T08:00:00Z') },
  ]);
  [lonelySystolicId] = await storeReadings(t, { clientId: a.clientId, patientId: patients.maria.id }, [
    { clinical_element: 3, value: 140, when: at('2026-11-16T08:00:00Z') },
  ]);
  await storeReadings(t, { clientId: a.clientId, patientId: patients.juan.id }, [
    { clinical_element: 1, value: 64, when: at('2026-11-03T09:30:00Z') },
    { clinical_element: 7, value: 36.6, when: at('2026-11-03T09:30:00Z') },
  ]);
  // Alerts: a value alert on the glucose, a measurement-compliance alert; one of B's.
  const alert = (org: Org, patientId: number, type: number, priority: number, measurementId: number | null, createdAt: string) =>
    insertReturningId(
      t.sequelize,
      `INSERT INTO alerts (client_id, patient_id, alert_type, status, priority, description, measurement_id, created_at, updated_at)
       VALUES (:client, :patient, :type, 1, :priority, :description, :measurement, :at, :at) RETURNING id`,
      {
        client: org.clientId,
        patient: patientId,
        type,
        priority,
        description: 'Glucosa alta',
        measurement: measurementId,
        at: at(createdAt),
      },
    );
  alertIds.push(await alert(a, patients.maria.id, 0, 1, glucoseId, '2026-11-15T08:00:05Z'));
  alertIds.push(await alert(a, patients.juan.id, 1, 2, null, '2026-11-18T10:00:00Z'));
  alertIds.push(await alert(b, patients.other.id, 1, 3, null, '2026-11-18T10:00:00Z'));
  // Conditions: María has hypertension (active) and asthma (resolved).
  const conditionType = async (q: string) =>
    (await t.http.get(`/api/v1/condition_types?q=${encodeURIComponent(q)}`).set(bearer(a.tokens.admin))).body[0].id as number;
  for (const [q, active] of [
    ['Hipertensión arterial', true],
    ['asma', false],
  ] as const) {
    const res = await t.http
      .post(`/api/v1/patients/${patients.maria.id}/conditions`)
      .set(bearer(a.tokens.admin))
      .send({ condition_type_id: await conditionType(q), active, notes: 'Desde 2010' });
    if (res.status !== 201) throw new Error(JSON.stringify(res.body));
    conditionIds.push(res.body.id);
  }
  await storeReadings(t, { clientId: b.clientId, patientId: patients.other.id }, [
    { clinical_element: 1, value: 90, when: at('2026-11-03T09:30:00Z') },
  ]);
}, 120_000);
afterAll(async () => {
  await t?.stop();
});

describe('the FHIR validator', () => {
  it('refuses what the API must never answer', () => {
    expect(() => validateResource({ resourceType: 'Patient', birthDate: '17/05/1950' } as never)).toThrow(/Invalid date format/);
    expect(() => validateResource({ resourceType: 'Observation', status: 'final' } as never)).toThrow(/Observation.code/);
    expect(() => validateResource({ resourceType: 'Bundle' } as never)).toThrow(/Bundle.type/);
  });
});

describe('GET /fhir/R4/metadata', () => {
  it('is a CapabilityStatement listing exactly the types and parameters served', async () => {
    const res = await fhir('/metadata', null);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe(FHIR_JSON);
    const cs = json(res);
    expect(cs).toMatchObject({
      resourceType: 'CapabilityStatement',
      status: 'active',
      kind: 'instance',
      fhirVersion: '4.0.1',
      format: ['json'],
    });
    const rest = cs.rest[0];
    expect(rest.mode).toBe('server');
    expect(rest.security.service[0].coding[0].code).toBe('SMART-on-FHIR');
    expect(rest.security.extension[0].extension[0]).toEqual({ url: 'token', valueUri: `http://${HOST}/oauth/token` });
    expect(rest.resource.map((r: Json) => r.type)).toEqual(FHIR_TYPES);
    // Bulk Data export: the system's, all patients' and a Group's.
    const bulk = 'http://hl7.org/fhir/uv/bulkdata/OperationDefinition';
    expect(rest.operation).toEqual([{ name: 'export', definition: `${bulk}/export` }]);
    expect(rest.resource[0].operation).toEqual([{ name: 'export', definition: `${bulk}/patient-export` }]);
    expect(rest.resource.find((r: Json) => r.type === 'Group').operation).toEqual([{ name: 'export', definition: `${bulk}/group-export` }]);
    for (const r of rest.resource) expect(r.interaction).toEqual([{ code: 'read' }, { code: 'search-type' }]);
    expect(rest.resource[0].searchParam.map((p: Json) => p.name)).toEqual([
      '_id',
      'identifier',
      'name',
      'family',
      'birthdate',
      'active',
      '_lastUpdated',
    ]);
    expect(rest.resource[1].searchParam.map((p: Json) => p.name)).toEqual([
      'patient',
      'subject',
      'code',
      'category',
      'date',
      '_sort',
      '_id',
      '_lastUpdated',
    ]);
  });
});

describe('authentication and scopes', () => {
  it('answers 401 with WWW-Authenticate and an OperationOutcome without a token or with a bad one', async () => {
    for (const token of [null, 'no-es-un-jwt']) {
      const res = await fhir('/Patient', token);
      expect(res.status).toBe(401);
      expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
      expect(res.headers['content-type']).toBe(FHIR_JSON);
      expect(json(res)).toMatchObject({ resourceType: 'OperationOutcome', issue: [{ severity: 'error', code: 'login' }] });
    }
  });

  it('stops a suspended client’s token at once', async () => {
    const token = await client.token(a, 'Suspendido pronto', ['system/Patient.rs']);
    expect((await fhir('/Patient', token)).status).toBe(200);
    const list = await t.http.get('/api/v1/api_clients').set(bearer(a.tokens.admin));
    const id = list.body.find((c: Json) => c.name === 'Suspendido pronto').id;
    expect((await t.http.patch(`/api/v1/api_clients/${id}`).set(bearer(a.tokens.admin)).send({ status: 'suspended' })).status).toBe(200);
    const res = await fhir('/Patient', token);
    expect(res.status).toBe(401);
    expect(json(res).issue[0].code).toBe('login');
  });

  it('refuses Observation to a Patient-only token with 403, and serves it Patient', async () => {
    const res = await fhir('/Observation', tokens.patientOnly);
    expect(res.status).toBe(403);
    expect(json(res).issue[0]).toMatchObject({ code: 'forbidden', diagnostics: 'El token no tiene el alcance system/Observation.s.' });
    expect((await fhir(`/Observation/m${glucoseId}`, tokens.patientOnly)).status).toBe(403);
    expect((await fhir(`/Patient/p${patients.maria.id}`, tokens.patientOnly)).status).toBe(200);
  });

  it('serves a staff session of any role', async () => {
    for (const role of ['admin', 'consulta'] as const) {
      const res = await fhir(`/Observation?patient=p${patients.juan.id}`, a.tokens[role]);
      expect(res.status).toBe(200);
      expect(ids(json(res))).toHaveLength(2);
    }
  });

  it('answers an unknown type with 404 not-supported', async () => {
    const res = await fhir('/Encounter');
    expect(res.status).toBe(404);
    expect(json(res).issue[0]).toMatchObject({ code: 'not-supported', diagnostics: 'Tipo de recurso no admitido: Encounter' });
  });
});

describe('GET /fhir/R4/Patient', () => {
  it('reads a patient of the organisation, and not another organisation’s', async () => {
    const res = await fhir(`/Patient/p${patients.maria.id}`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe(FHIR_JSON);
    expect(json(res)).toMatchObject({
      resourceType: 'Patient',
      id: `p${patients.maria.id}`,
      active: true,
      gender: 'female',
      birthDate: '1950-05-17',
      identifier: [{ system: 'urn:vigia:id-type:CO:CC', value: patients.maria.nid }],
    });
    const other = await fhir(`/Patient/p${patients.other.id}`);
    expect(other.status).toBe(404);
    expect(json(other).issue[0]).toMatchObject({ code: 'not-found', diagnostics: `No existe Patient/p${patients.other.id}` });
    expect((await fhir(`/Patient/p${patients.maria.id}`, tokens.orgB)).status).toBe(404);
    expect((await fhir('/Patient/12')).status).toBe(404);
  });

  const p = (k: keyof typeof patients) => `p${patients[k].id}`;
  it.each([
    ['', ['maria', 'juan', 'inactive']],
    ['?_id=ID:juan,ID:other', ['juan']],
    ['?identifier=NID:maria', ['maria']],
    ['?identifier=urn:vigia:id-type:CO:CC|NID:juan', ['juan']],
    ['?identifier=urn:vigia:id-type:CO:TI|NID:juan', []],
    ['?name=perez', ['maria', 'inactive']],
    ['?name=JOSE', ['maria']],
    ['?name=gom,juan', ['maria', 'juan']],
    ['?family=PÉREZ', ['maria', 'inactive']],
    ['?family=ríos', ['juan']],
    ['?birthdate=1950-05-17', ['maria']],
    ['?birthdate=ge1980&birthdate=lt1990-12-31', ['juan']],
    ['?birthdate=gt1980-01-02', ['inactive']],
    ['?birthdate=le1980', ['maria', 'juan']],
    ['?active=false', ['inactive']],
    ['?active=true&name=perez', ['maria']],
    ['?_lastUpdated=ge2000-01-01', ['maria', 'juan', 'inactive']],
    ['?_lastUpdated=lt2000-01-01', []],
  ])('search %s', async (query, want) => {
    const q = query.replace(/(ID|NID):(\w+)/g, (_m, kind: string, k: keyof typeof patients) =>
      kind === 'ID' ? p(k) : String(patients[k].nid),
    );
    const res = await fhir(`/Patient${q}`);
    expect(res.status, res.text).toBe(200);
    const bundle = json(res);
    expect(bundle).toMatchObject({ resourceType: 'Bundle', type: 'searchset' });
    expect(ids(bundle)).toEqual(want.map((k) => p(k as keyof typeof patients)));
    expect(bundle.total).toBe(want.length);
    for (const e of bundle.entry ?? []) expect(e.fullUrl).toBe(`${BASE}/Patient/${e.resource.id}`);
  });

  it('pages by _count with next links to the end, and _summary=count answers the total only', async () => {
    const paged = await allPages('/Patient?_count=1');
    expect(paged.ids).toEqual([p('maria'), p('juan'), p('inactive')]);
    expect(paged.pages).toBe(3);
    expect(paged.bundles[0].link[0]).toEqual({ relation: 'self', url: `${BASE}/Patient?_count=1` });
    expect(paged.bundles[1].link[0].url).toMatch(/_cursor=/);
    const counted = json(await fhir('/Patient?_summary=count'));
    expect(counted).toEqual({
      resourceType: 'Bundle',
      type: 'searchset',
      total: 3,
      link: [{ relation: 'self', url: `${BASE}/Patient?_summary=count` }],
    });
  });

  it('never shows organisation B another organisation’s patients', async () => {
    const res = json(await fhir('/Patient?name=maria', tokens.orgB));
    expect(ids(res)).toEqual([p('other')]);
  });
});

describe('GET /fhir/R4/Observation', () => {
  const obsOf = async (query: string) => json(await fhir(`/Observation${query}`));

  it('reads a reading by its id, a blood-pressure panel by both ids, never another organisation’s', async () => {
    const glucose = await fhir(`/Observation/m${glucoseId}`);
    expect(glucose.status).toBe(200);
    expect(json(glucose)).toMatchObject({
      resourceType: 'Observation',
      id: `m${glucoseId}`,
      status: 'final',
      category: [{ coding: [{ code: 'laboratory' }] }],
      code: { coding: [{ system: 'http://loinc.org', code: '2339-0' }] },
      subject: { reference: `Patient/p${patients.maria.id}` },
      effectiveDateTime: '2026-11-15T08:00:00.000Z',
      valueQuantity: { value: 95, code: 'mg/dL' },
    });
    const panel = json(await fhir(`/Observation/m${bpIds[0]}-${bpIds[1]}`));
    expect(panel.code.coding[0].code).toBe('85354-9');
    expect(panel.component.map((c: Json) => c.valueQuantity.value)).toEqual([120, 80]);
    expect((await fhir(`/Observation/m${bpIds[1]}-${bpIds[0]}`)).status).toBe(404);
    expect((await fhir(`/Observation/m${glucoseId}`, tokens.orgB)).status).toBe(404);
    expect((await fhir('/Observation/x1')).status).toBe(404);
  });

  it('lists a patient’s readings, each blood-pressure pair as one panel at its moment', async () => {
    const bundle = await obsOf(`?patient=Patient/p${patients.maria.id}&_count=1000`);
    // 12 panels + 12 heart rates + 1 glucose + 1 lone systolic.
    expect(bundle.total).toBe(26);
    const codes = bundle.entry.map((e: Json) => e.resource.code.coding[0].code);
    expect(codes.filter((c: string) => c === '85354-9')).toHaveLength(12);
    expect(codes.filter((c: string) => c === '8462-4')).toHaveLength(0);
    expect(codes.filter((c: string) => c === '8480-6')).toHaveLength(1);
    const times = bundle.entry.map((e: Json) => e.resource.effectiveDateTime);
    expect([...times].sort()).toEqual(times);
  });

  it.each([
    ['code=http://loinc.org|85354-9', 12],
    ['code=8480-6', 1],
    ['code=8867-4,2339-0', 13],
    ['code=http://snomed.info/sct|8867-4', 0],
    ['code=http://loinc.org|', 26],
    ['category=vital-signs', 25],
    ['category=http://terminology.hl7.org/CodeSystem/observation-category|laboratory', 1],
    ['date=2026-11-03', 2],
    ['date=ge2026-11-10&date=lt2026-11-12', 4],
    ['date=gt2026-11-11T12:00:00Z', 4],
    ['date=gt2026-11-11', 4],
    ['date=ge2026-11-11T12:00:00Z', 6],
    ['date=ge2026-11-11T13:00:00+01:00', 6],
    ['date=le2026-11-01', 2],
    ['subject=PID&code=8867-4', 12],
  ])('search %s → %d for María', async (query, n) => {
    const q = query.includes('subject=') ? query.replace('PID', `p${patients.maria.id}`) : `patient=p${patients.maria.id}&${query}`;
    const bundle = await obsOf(`?${q}&_count=1000`);
    expect(bundle.total, JSON.stringify(bundle.entry?.[0])).toBe(n);
    expect(ids(bundle)).toHaveLength(n);
  });

  it('searches the organisation when no patient is given, never B’s rows', async () => {
    const all = await obsOf('?date=2026-11-03T09:30:00Z&_count=1000');
    expect(all.entry.map((e: Json) => e.resource.subject.reference)).toEqual([
      `Patient/p${patients.juan.id}`,
      `Patient/p${patients.juan.id}`,
    ]);
    const ours = await obsOf('?_count=1000');
    expect(ids(ours)).toHaveLength(28);
    expect(new Set(ours.entry.map((e: Json) => e.resource.subject.reference))).toEqual(
      new Set([`Patient/p${patients.maria.id}`, `Patient/p${patients.juan.id}`]),
    );
    const fromB = json(await fhir('/Observation?_count=1000', tokens.orgB));
    expect(fromB.entry.map((e: Json) => e.resource.subject.reference)).toEqual([`Patient/p${patients.other.id}`]);
  });

  it.each(['date', '-date', '_lastUpdated'])('pages to the end by keyset under _sort=%s: no duplicates, no gaps', async (sort) => {
    const whole = await obsOf(`?patient=p${patients.maria.id}&_sort=${sort}&_count=1000`);
    const paged = await allPages(`/Observation?patient=p${patients.maria.id}&_sort=${encodeURIComponent(sort)}&_count=4`);
    expect(paged.pages).toBe(7);
    expect(new Set(paged.ids).size).toBe(paged.ids.length);
    expect(paged.ids).toEqual(ids(whole));
    expect(paged.ids).toHaveLength(26);
    for (const bundle of paged.bundles.slice(1)) {
      const next = bundle.link[0].url as string;
      expect(next).not.toMatch(/offset|_page/);
    }
    if (sort === '-date') expect(whole.entry[0].resource.effectiveDateTime).toBe('2026-11-16T08:00:00.000Z');
  });

  it('keeps its place when readings are stored between pages: no row repeats, none is skipped', async () => {
    const first = json(await fhir(`/Observation?patient=p${patients.juan.id}&_count=1`));
    expect(ids(first)).toHaveLength(1);
    // Two readings stored meanwhile: one before the cursor (an offset would shift and repeat a row), one after it.
    const [early, late] = await storeReadings(t, { clientId: a.clientId, patientId: patients.juan.id }, [
      { clinical_element: 5, value: 70, when: at('2026-10-01T00:00:00Z') },
      { clinical_element: 5, value: 71, when: at('2026-12-01T00:00:00Z') },
    ]);
    const rest: string[] = [];
    let url = first.link.find((l: Json) => l.relation === 'next').url as string;
    while (url) {
      const page = json(await fhir(url.slice(BASE.length)));
      rest.push(...ids(page));
      url = page.link.find((l: Json) => l.relation === 'next')?.url;
    }
    expect([...ids(first), ...rest]).not.toContain(`m${early}`);
    expect(rest).toContain(`m${late}`);
    expect(new Set([...ids(first), ...rest]).size).toBe(3);
    await execute(t.sequelize, 'DELETE FROM measurements WHERE id IN (:ids)', { ids: [early, late] });
  });

  it('reports an unknown parameter in an outcome entry, and refuses it under Prefer: handling=strict', async () => {
    const lenient = await obsOf(`?patient=p${patients.juan.id}&color=rojo`);
    expect(ids(lenient)).toHaveLength(2);
    const outcome = lenient.entry.find((e: Json) => e.search.mode === 'outcome');
    expect(outcome.resource.issue[0]).toMatchObject({ severity: 'warning', code: 'not-supported', expression: ['color'] });
    const strict = await fhir(`/Observation?patient=p${patients.juan.id}&color=rojo`).set('Prefer', 'handling=strict');
    expect(strict.status).toBe(400);
    expect(json(strict).issue[0]).toMatchObject({
      code: 'invalid',
      diagnostics: 'Parámetro de búsqueda no admitido para Observation: color',
    });
  });

  it.each([
    ['/Observation?date=ayer', 'date'],
    ['/Observation?code=a|b|c', 'code'],
    ['/Observation?_count=5000', '_count'],
    ['/Observation?_sort=value', '_sort'],
    ['/Observation?patient=12', 'patient'],
    ['/Observation?_cursor=500', '_cursor'],
    ['/Patient?birthdate=1950-05-17T00:00Z', 'birthdate'],
    ['/Patient?active=si', 'active'],
    ['/Patient?_format=xml', '_format'],
    ['/Patient?_summary=true', '_summary'],
    ['/Condition?clinical-status=a|b|c', 'clinical-status'],
    ['/DetectedIssue?identified=ayer', 'identified'],
    ['/Patient?_cursor=' + Buffer.from('["Observation:date","2026-01-01",1]').toString('base64url'), '_cursor'],
  ])('answers 400 naming the parameter for %s', async (path, param) => {
    const res = await fhir(path);
    expect(res.status).toBe(400);
    const issue = json(res).issue[0];
    expect(issue).toMatchObject({ severity: 'error', code: 'invalid', expression: [param] });
    expect(issue.diagnostics).toMatch(new RegExp(`^${param} `));
  });

  it('reads a systolic stored alone by its own id', async () => {
    const res = json(await fhir(`/Observation/m${lonelySystolicId}`));
    expect(res.code.coding[0].code).toBe('8480-6');
  });
});

describe('GET /fhir/R4/DetectedIssue', () => {
  it('reads an alert with the reading it was raised on contained, never another organisation’s', async () => {
    const res = await fhir(`/DetectedIssue/a${alertIds[0]}`);
    expect(res.status).toBe(200);
    const issue = json(res);
    expect(issue).toMatchObject({
      resourceType: 'DetectedIssue',
      id: `a${alertIds[0]}`,
      status: 'final',
      severity: 'high',
      code: { text: 'Medición fuera de rango' },
      detail: 'Glucosa alta',
      identifiedDateTime: '2026-11-15T08:00:05.000Z',
      contained: [{ resourceType: 'Observation', id: `m${glucoseId}` }],
      implicated: [{ reference: `#m${glucoseId}` }],
    });
    expect((await fhir(`/DetectedIssue/a${alertIds[2]}`)).status).toBe(404);
    expect((await fhir(`/DetectedIssue/a${alertIds[0]}`, tokens.orgB)).status).toBe(404);
    expect((await fhir(`/DetectedIssue/a${alertIds[0]}`, tokens.patientOnly)).status).toBe(403);
  });

  it.each([
    ['', [0, 1]],
    ['?patient=MARIA', [0]],
    ['?patient=Patient/JUAN', [1]],
    ['?identified=ge2026-11-16', [1]],
    ['?identified=2026-11-15', [0]],
  ])('search %s', async (query, want) => {
    const q = query.replace('MARIA', `p${patients.maria.id}`).replace('JUAN', `p${patients.juan.id}`);
    const bundle = json(await fhir(`/DetectedIssue${q}`));
    expect(ids(bundle)).toEqual(want.map((i) => `a${alertIds[i]}`));
  });

  it('pages by keyset to the end', async () => {
    const paged = await allPages('/DetectedIssue?_count=1');
    expect(paged.ids).toEqual([`a${alertIds[0]}`, `a${alertIds[1]}`]);
    expect(paged.pages).toBe(2);
  });
});

describe('GET /fhir/R4/Condition', () => {
  it('reads a condition, ICD-10 coded, and not another organisation’s', async () => {
    const res = await fhir(`/Condition/c${conditionIds[0]}`);
    expect(res.status).toBe(200);
    expect(json(res)).toMatchObject({
      resourceType: 'Condition',
      clinicalStatus: { coding: [{ code: 'active' }] },
      code: { coding: [{ system: 'http://hl7.org/fhir/sid/icd-10', code: 'I10' }], text: 'Hipertensión arterial' },
      subject: { reference: `Patient/p${patients.maria.id}` },
      note: [{ text: 'Desde 2010' }],
    });
    expect((await fhir(`/Condition/c${conditionIds[0]}`, tokens.orgB)).status).toBe(404);
  });

  it.each([
    ['?patient=MARIA', [0, 1]],
    ['?subject=Patient/MARIA&clinical-status=active', [0]],
    ['?patient=MARIA&clinical-status=http://terminology.hl7.org/CodeSystem/condition-clinical|resolved', [1]],
    ['?patient=JUAN', []],
  ])('search %s', async (query, want) => {
    const q = query.replace('MARIA', `p${patients.maria.id}`).replace('JUAN', `p${patients.juan.id}`);
    const bundle = json(await fhir(`/Condition${q}`));
    expect(ids(bundle)).toEqual(want.map((i) => `c${conditionIds[i]}`));
    expect(bundle.total).toBe(want.length);
  });

  it('never shows organisation B’s client A’s conditions', async () => {
    expect(json(await fhir(`/Condition?patient=p${patients.maria.id}`, tokens.orgB)).total).toBe(0);
  });
});
