import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { execute, insertReturningId } from '../../api/src/db/sql';
import { SEARCHES, patientBound, type SearchInput } from '../../api/src/modules/fhir/fhir.search';
import { SEARCH_TYPES, type SearchType } from '../../api/src/modules/fhir/fhir.search.rules';
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
 * The FHIR API's care and order types (issue 37): Device, RelatedPerson, Group, MedicationRequest
 * and ServiceRequest read and searched as an integrator would (a jose-signed assertion, a token,
 * GETs paged to the end), `_id` and `_lastUpdated` on every type, and the group restriction the
 * Bulk export's /Group/{id}/$export reads through. Organisation B's client never sees A's rows.
 */
const HOST = 'vigia.test';
// 10:00 in Bogotá: rows written during the setup carry this instant; orders start tomorrow.
const clock = new Date('2026-11-21T15:00:00Z');
/** The last test moves the product’s clock two minutes on (the tokens are still valid). */
let movedTo: Date | null = null;
const now = () => movedTo ?? clock;

let t: TestProduct;
let fhir: FhirClient;
let a: Org;
let b: Org;
const tokens: Record<'full' | 'patientOnly' | 'orgB', string> = { full: '', patientOnly: '', orgB: '' };
const patients: Record<'maria' | 'juan' | 'lucia' | 'other', number> = { maria: 0, juan: 0, lucia: 0, other: 0 };
const tags: Record<'hyper' | 'diabetes' | 'empty' | 'other', number> = { hyper: 0, diabetes: 0, empty: 0, other: 0 };
const devices: Record<'maria' | 'free' | 'other', number> = { maria: 0, free: 0, other: 0 };
const caregivers: Record<'luz' | 'pedro' | 'other', number> = { luz: 0, pedro: 0, other: 0 };
const orders: Record<'mariaPill' | 'mariaPressure' | 'juanGlucose' | 'juanPill' | 'otherPill' | 'otherVital', number> = {
  mariaPill: 0,
  mariaPressure: 0,
  juanGlucose: 0,
  juanPill: 0,
  otherPill: 0,
  otherVital: 0,
};
const readings: Record<'mariaPulse' | 'juanPulse' | 'juanSys' | 'juanDia', number> = {
  mariaPulse: 0,
  juanPulse: 0,
  juanSys: 0,
  juanDia: 0,
};
const alerts: Record<'maria' | 'juan', number> = { maria: 0, juan: 0 };
const conditions: Record<'maria' | 'juan', number> = { maria: 0, juan: 0 };

const get = (path: string, token: string | null = tokens.full) => fhir.get(path, token);

async function post(org: Org, url: string, body: object): Promise<Json> {
  const res = await t.http.post(url).set(bearer(org.tokens.admin)).send(body);
  if (res.status !== 201) throw new Error(`${url}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

beforeAll(async () => {
  loadFhirDefinitions();
  t = await startTestProduct({ now, allowHttpServices: true });
  a = await createOrg(t, 'Clinica Cuidado');
  b = await createOrg(t, 'Clinica Vecina');
  fhir = fhirClient(t, await makeClientKey('RS384', 'k1'), { host: HOST, now });
  tokens.full = await fhir.token(a, 'HIS Cuidado', ['system/*.rs']);
  tokens.patientOnly = await fhir.token(a, 'Solo pacientes', ['system/Patient.rs']);
  tokens.orgB = await fhir.token(b, 'HIS Vecino', ['system/*.rs']);

  tags.hyper = (await post(a, '/api/v1/tags', { name: 'Hipertensos', color: 'red' })).id;
  tags.diabetes = (await post(a, '/api/v1/tags', { name: 'Diabéticos', color: 'blue' })).id;
  tags.empty = (await post(a, '/api/v1/tags', { name: 'Hipotiroidismo', color: 'amber' })).id;
  tags.other = (await post(b, '/api/v1/tags', { name: 'Hipertensos', color: 'red' })).id;

  // The catalogue engine stamps tags with the wall clock, not the product's: pinned here so _lastUpdated is deterministic.
  await execute(t.sequelize, 'UPDATE tags SET updated_at = :clock', { clock });

  const patient = (org: Org, over: Record<string, unknown>) => post(org, '/api/v1/patients', patientBody(over)).then((p) => p.id as number);
  patients.maria = await patient(a, { first_name: 'maría', last_name: 'pérez', tag_ids: [tags.hyper] });
  patients.juan = await patient(a, { first_name: 'juan', last_name: 'ríos', gender: 1, tag_ids: [tags.hyper, tags.diabetes] });
  patients.lucia = await patient(a, { first_name: 'lucía', last_name: 'gómez', tag_ids: [] });
  patients.other = await patient(b, { first_name: 'maría', last_name: 'pérez', tag_ids: [tags.other] });

  // A single-patient gateway is assigned by giving the patient its card.
  for (const [org, id, card] of [
    [a, patients.maria, 'GW-MARIA'],
    [b, patients.other, 'GW-OTRA'],
  ] as const) {
    const res = await t.http.patch(`/api/v1/patients/${id}`).set(bearer(org.tokens.admin)).send({ card_id: card });
    if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  }
  devices.maria = (await post(a, '/api/v1/devices', { card_id: 'GW-MARIA', name: 'Casa de María' })).id;
  devices.free = (await post(a, '/api/v1/devices', { card_id: 'GW-LIBRE' })).id;
  devices.other = (await post(b, '/api/v1/devices', { card_id: 'GW-OTRA' })).id;

  const caregiver = (nid: string, first: string, relationship: string | null) => ({
    caregiver: {
      id_type: 1,
      nid,
      first_name: first,
      last_name: 'gómez ruiz',
      country_id: 26,
      email: `${first}@example.co`,
      prefix: '+57',
      cellphone: `315${nid.slice(-7)}`,
      notification: true,
      relationship,
    },
  });
  caregivers.luz = (await post(a, `/api/v1/patients/${patients.maria}/caregivers`, caregiver('52123456', 'luz', 'hija'))).id;
  // The same document links the same caregiver to Juan: one caregiver, two RelatedPersons.
  await post(a, `/api/v1/patients/${patients.juan}/caregivers`, caregiver('52123456', 'luz', null));
  caregivers.pedro = (await post(a, `/api/v1/patients/${patients.juan}/caregivers`, caregiver('79123456', 'pedro', 'hermano'))).id;
  caregivers.other = (await post(b, `/api/v1/patients/${patients.other}/caregivers`, caregiver('52123456', 'luz', 'hija'))).id;

  const order = (org: Org, patientId: number, body: object) =>
    post(org, `/api/v1/patients/${patientId}/orders`, { order: body }).then((o) => o.id as number);
  const pill = { order_type: 1, medicine_id: 17, frecuency: 8, time_unit: 0, during: 2, amount: '1 1/2', medication_unit: 3 };
  const pressure = { order_type: 0, clinical_element: 3, frequency_type: 1, days: [1, 4], hours: ['08:00', '20:00'], during: 2 };
  orders.mariaPill = await order(a, patients.maria, pill);
  orders.mariaPressure = await order(a, patients.maria, pressure);
  orders.juanGlucose = await order(a, patients.juan, {
    order_type: 0,
    clinical_element: 6,
    frequency_type: 0,
    hours: ['07:00'],
    during: 3,
  });
  orders.juanPill = await order(a, patients.juan, { ...pill, during: 1 });
  orders.otherPill = await order(b, patients.other, pill);
  orders.otherVital = await order(b, patients.other, pressure);
  // María's pressure order scheduled from tomorrow 07:00 in Bogotá: Programada (active).
  const scheduled = await t.http
    .put(`/api/v1/patients/${patients.maria}/orders/${orders.mariaPressure}`)
    .set(bearer(a.tokens.medico))
    .send({ order: { start_at: '2026-11-22T12:00:00Z' } });
  if (scheduled.status !== 200) throw new Error(JSON.stringify(scheduled.body));
  const generated = await t.http
    .post(`/api/v1/patients/${patients.maria}/orders/${orders.mariaPressure}/activities`)
    .set(bearer(a.tokens.medico));
  if (generated.status !== 201) throw new Error(JSON.stringify(generated.body));
  // Juan's glucose order was cancelled and his pill completed (the lifecycle's end states), a week ago.
  const weekAgo = new Date('2026-11-14T15:00:00Z');
  await execute(t.sequelize, 'UPDATE orders SET status = 3, updated_at = :at WHERE id = :id', { id: orders.juanGlucose, at: weekAgo });
  await execute(t.sequelize, 'UPDATE orders SET status = 4, updated_at = :at WHERE id = :id', { id: orders.juanPill, at: weekAgo });

  // Readings, an alert and a condition each for María and Juan, for the group restriction and the new parameters.
  [readings.mariaPulse] = await storeReadings(
    t,
    { clientId: a.clientId, patientId: patients.maria },
    [{ clinical_element: 1, value: 72, when: new Date('2026-11-20T12:00:00Z') }],
    new Date('2026-11-20T12:00:05Z'),
  );
  [readings.juanPulse, readings.juanSys, readings.juanDia] = await storeReadings(
    t,
    { clientId: a.clientId, patientId: patients.juan },
    [
      { clinical_element: 1, value: 64, when: new Date('2026-11-21T12:00:00Z') },
      { clinical_element: 3, value: 130, when: new Date('2026-11-21T12:00:00Z') },
      { clinical_element: 4, value: 85, when: new Date('2026-11-21T12:00:00Z') },
    ],
    clock,
  );
  await storeReadings(
    t,
    { clientId: b.clientId, patientId: patients.other },
    [{ clinical_element: 1, value: 90, when: new Date('2026-11-21T12:00:00Z') }],
    clock,
  );
  const alert = (patientId: number, createdAt: string, updatedAt: string) =>
    insertReturningId(
      t.sequelize,
      `INSERT INTO alerts (client_id, patient_id, alert_type, status, priority, description, measurement_id, created_at, updated_at)
       VALUES (:client, :patient, 1, 1, 2, 'Sin mediciones', NULL, :created, :updated) RETURNING id`,
      { client: a.clientId, patient: patientId, created: new Date(createdAt), updated: new Date(updatedAt) },
    );
  // María's alert was followed up on the 20th, Juan's not since it opened on the 18th.
  alerts.maria = await alert(patients.maria, '2026-11-15T08:00:00Z', '2026-11-20T09:00:00Z');
  alerts.juan = await alert(patients.juan, '2026-11-18T10:00:00Z', '2026-11-18T10:00:00Z');
  const conditionType = async (q: string) =>
    (await t.http.get(`/api/v1/condition_types?q=${encodeURIComponent(q)}`).set(bearer(a.tokens.admin))).body[0].id as number;
  conditions.maria = (
    await post(a, `/api/v1/patients/${patients.maria}/conditions`, {
      condition_type_id: await conditionType('Hipertensión arterial'),
      active: true,
    })
  ).id;
  conditions.juan = (
    await post(a, `/api/v1/patients/${patients.juan}/conditions`, { condition_type_id: await conditionType('asma'), active: true })
  ).id;
  await execute(t.sequelize, 'UPDATE patient_conditions SET updated_at = :at WHERE id = :id', {
    id: conditions.juan,
    at: new Date('2026-11-10T00:00:00Z'),
  });
}, 180_000);
afterAll(async () => {
  await t?.stop();
});

const rp = (patient: keyof typeof patients, caregiver: keyof typeof caregivers) => `r${patients[patient]}-${caregivers[caregiver]}`;
/** Replaces PAT:<name> with the patient's FHIR id in a query. */
const withIds = (q: string) => q.replace(/PAT:(\w+)/g, (_m, k: keyof typeof patients) => `p${patients[k]}`);

describe('GET /fhir/R4/metadata', () => {
  it('lists every type of the API with its parameters, _id and _lastUpdated on each', async () => {
    const cs = json(await get('/metadata', null));
    const resources = cs.rest[0].resource as Json[];
    expect(resources.map((r) => r.type)).toEqual(FHIR_TYPES);
    const names = (type: string) =>
      resources
        .find((r) => r.type === type)!
        .searchParam.map((p: Json) => p.name)
        .sort();
    expect(names('Device')).toEqual(['_id', '_lastUpdated', 'patient']);
    expect(names('RelatedPerson')).toEqual(['_id', '_lastUpdated', 'patient']);
    expect(names('MedicationRequest')).toEqual(['_id', '_lastUpdated', 'patient', 'status', 'subject']);
    expect(names('ServiceRequest')).toEqual(['_id', '_lastUpdated', 'patient', 'status', 'subject']);
    expect(names('Group')).toEqual(['_id', '_lastUpdated', 'name']);
    for (const r of resources) expect(r.searchParam.map((p: Json) => p.name)).toEqual(expect.arrayContaining(['_id', '_lastUpdated']));
  });
});

describe('GET /fhir/R4/Device', () => {
  it('reads a gateway with the patient whose card it is, never another organisation’s', async () => {
    const res = await get(`/Device/d${devices.maria}`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe(FHIR_JSON);
    expect(json(res)).toEqual({
      resourceType: 'Device',
      id: `d${devices.maria}`,
      meta: { lastUpdated: clock.toISOString() },
      identifier: [{ system: 'urn:vigia:card', value: 'GW-MARIA' }],
      status: 'active',
      deviceName: [{ name: 'Casa de María', type: 'user-friendly-name' }],
      type: { text: 'Pasarela' },
      patient: { reference: `Patient/p${patients.maria}` },
    });
    expect(json(await get(`/Device/d${devices.free}`))).not.toHaveProperty('patient');
    expect((await get(`/Device/d${devices.other}`)).status).toBe(404);
    expect((await get(`/Device/d${devices.maria}`, tokens.orgB)).status).toBe(404);
    expect((await get(`/Device/${devices.maria}`)).status).toBe(404);
  });

  it.each([
    ['', ['maria', 'free']],
    ['?patient=PAT:maria', ['maria']],
    ['?patient=Patient/PAT:juan', []],
    ['?_id=DEV:free,DEV:other', ['free']],
    ['?_lastUpdated=2026-11-21', ['maria', 'free']],
    ['?_lastUpdated=lt2026-11-21T15:00:00Z', []],
    ['?_lastUpdated=ge2026-11-21T15:00:00Z&_lastUpdated=le2026-11-21T15:00:00Z', ['maria', 'free']],
  ])('search %s', async (query, want) => {
    const q = withIds(query).replace(/DEV:(\w+)/g, (_m, k: keyof typeof devices) => `d${devices[k]}`);
    const bundle = json(await get(`/Device${q}`));
    expect(ids(bundle)).toEqual(want.map((k) => `d${devices[k as keyof typeof devices]}`));
    expect(bundle.total).toBe(want.length);
  });
});

describe('GET /fhir/R4/RelatedPerson', () => {
  it('reads a caregiver of one patient, with the relationship of that link, never another organisation’s', async () => {
    const res = await get(`/RelatedPerson/${rp('maria', 'luz')}`);
    expect(res.status).toBe(200);
    expect(json(res)).toMatchObject({
      resourceType: 'RelatedPerson',
      id: rp('maria', 'luz'),
      meta: { lastUpdated: clock.toISOString() },
      identifier: [{ system: 'urn:vigia:id-type:CO:CC', value: '52123456' }],
      patient: { reference: `Patient/p${patients.maria}` },
      relationship: [{ text: 'HIJA' }],
      name: [{ family: 'GÓMEZ RUIZ', given: ['LUZ'] }],
      telecom: [
        { system: 'phone', value: '+57 3152123456', use: 'mobile' },
        { system: 'email', value: 'luz@example.co' },
      ],
    });
    expect(json(await get(`/RelatedPerson/${rp('juan', 'luz')}`))).not.toHaveProperty('relationship');
    // The link of B's patient, and A's caregiver with B's patient (no such link), are not found.
    expect((await get(`/RelatedPerson/r${patients.other}-${caregivers.other}`)).status).toBe(404);
    expect((await get(`/RelatedPerson/r${patients.other}-${caregivers.luz}`)).status).toBe(404);
    expect((await get(`/RelatedPerson/${rp('maria', 'luz')}`, tokens.orgB)).status).toBe(404);
    expect((await get(`/RelatedPerson/r${patients.maria}`)).status).toBe(404);
  });

  it.each([
    [
      '',
      [
        ['maria', 'luz'],
        ['juan', 'luz'],
        ['juan', 'pedro'],
      ],
    ],
    [
      '?patient=PAT:juan',
      [
        ['juan', 'luz'],
        ['juan', 'pedro'],
      ],
    ],
    ['?patient=PAT:maria,PAT:lucia', [['maria', 'luz']]],
    [
      '?_id=RP:juan-pedro,RP:maria-luz,r1',
      [
        ['maria', 'luz'],
        ['juan', 'pedro'],
      ],
    ],
    [
      '?_lastUpdated=eq2026-11-21',
      [
        ['maria', 'luz'],
        ['juan', 'luz'],
        ['juan', 'pedro'],
      ],
    ],
    ['?_lastUpdated=gt2026-11-21', []],
  ] as const)('search %s', async (query, want) => {
    const q = withIds(query).replace(/RP:(\w+)-(\w+)/g, (_m, p: keyof typeof patients, c: keyof typeof caregivers) => rp(p, c));
    const bundle = json(await get(`/RelatedPerson${q}`));
    expect(ids(bundle)).toEqual(want.map(([p, c]) => rp(p, c)));
  });
});

describe('GET /fhir/R4/Group', () => {
  it('reads a tag as an actual Group whose members are its patients, never another organisation’s', async () => {
    const res = await get(`/Group/g${tags.hyper}`);
    expect(res.status).toBe(200);
    expect(json(res)).toEqual({
      resourceType: 'Group',
      id: `g${tags.hyper}`,
      meta: { lastUpdated: clock.toISOString() },
      type: 'person',
      actual: true,
      name: 'HIPERTENSOS',
      quantity: 2,
      member: [{ entity: { reference: `Patient/p${patients.maria}` } }, { entity: { reference: `Patient/p${patients.juan}` } }],
    });
    expect(json(await get(`/Group/g${tags.empty}`))).toMatchObject({ quantity: 0 });
    expect((await get(`/Group/g${tags.other}`)).status).toBe(404);
    expect((await get(`/Group/g${tags.hyper}`, tokens.orgB)).status).toBe(404);
  });

  it.each([
    ['', ['hyper', 'diabetes', 'empty']],
    ['?name=hip', ['hyper', 'empty']],
    ['?name=DIAB,nada', ['diabetes']],
    ['?name=diabé', ['diabetes']],
    ['?name=Hipo', ['empty']],
    ['?name=hipe&_id=TAG:hyper,TAG:diabetes', ['hyper']],
    ['?_id=TAG:other', []],
    ['?_lastUpdated=ge2026-11-21', ['hyper', 'diabetes', 'empty']],
    ['?_lastUpdated=lt2026-11-21', []],
  ])('search %s', async (query, want) => {
    const q = query.replace(/TAG:(\w+)/g, (_m, k: keyof typeof tags) => `g${tags[k]}`);
    const bundle = json(await get(`/Group${q}`));
    expect(ids(bundle)).toEqual(want.map((k) => `g${tags[k as keyof typeof tags]}`));
  });

  it('shows organisation B only its own tag', async () => {
    expect(ids(json(await get('/Group?name=Hipertensos', tokens.orgB)))).toEqual([`g${tags.other}`]);
  });
});

describe('GET /fhir/R4/MedicationRequest', () => {
  it('reads a medication order with its medicine, dose and frequency; a measurement order’s id is not one', async () => {
    const res = await get(`/MedicationRequest/x${orders.mariaPill}`);
    expect(res.status).toBe(200);
    const mr = json(res);
    expect(mr).toMatchObject({
      resourceType: 'MedicationRequest',
      id: `x${orders.mariaPill}`,
      identifier: [{ system: 'urn:vigia:order', value: String(orders.mariaPill) }],
      status: 'draft',
      intent: 'order',
      medicationCodeableConcept: { coding: [{ system: 'urn:vigia:medicine', code: '17' }] },
      subject: { reference: `Patient/p${patients.maria}` },
      authoredOn: clock.toISOString(),
      dosageInstruction: [
        {
          timing: { repeat: { boundsDuration: { value: 2, code: 'd' }, frequency: 1, period: 8, periodUnit: 'h' } },
          doseAndRate: [{ doseQuantity: { value: 1.5, unit: 'tableta(s)' } }],
        },
      ],
    });
    expect(mr.dosageInstruction[0].text).toMatch(/^Tomar 1 1\/2 de tableta\(s\) de .+ cada 8 horas durante 2 días\.$/);
    expect((await get(`/MedicationRequest/x${orders.mariaPressure}`)).status).toBe(404);
    expect((await get(`/MedicationRequest/s${orders.mariaPill}`)).status).toBe(404);
    expect((await get(`/MedicationRequest/x${orders.otherPill}`)).status).toBe(404);
    expect((await get(`/MedicationRequest/x${orders.mariaPill}`, tokens.orgB)).status).toBe(404);
  });

  it.each([
    ['', ['mariaPill', 'juanPill']],
    ['?patient=PAT:juan', ['juanPill']],
    ['?subject=Patient/PAT:maria', ['mariaPill']],
    ['?status=draft', ['mariaPill']],
    ['?status=completed,cancelled', ['juanPill']],
    ['?status=http://hl7.org/fhir/CodeSystem/medicationrequest-status|active', []],
    ['?status=revoked', []],
    ['?_id=ORD:juanPill,ORD:juanGlucose', ['juanPill']],
    ['?_lastUpdated=lt2026-11-15', ['juanPill']],
    ['?_lastUpdated=ge2026-11-21T15:00:00Z', ['mariaPill']],
  ])('search %s', async (query, want) => {
    const q = withIds(query).replace(/ORD:(\w+)/g, (_m, k: keyof typeof orders) => `x${orders[k]}`);
    const bundle = json(await get(`/MedicationRequest${q}`));
    expect(ids(bundle)).toEqual(want.map((k) => `x${orders[k as keyof typeof orders]}`));
  });
});

describe('GET /fhir/R4/ServiceRequest', () => {
  it('reads a measurement order coded with the LOINC of what it measures, on its days and hours', async () => {
    const res = await get(`/ServiceRequest/s${orders.mariaPressure}`);
    expect(res.status).toBe(200);
    expect(json(res)).toMatchObject({
      resourceType: 'ServiceRequest',
      id: `s${orders.mariaPressure}`,
      status: 'active',
      intent: 'order',
      code: { coding: [{ system: 'http://loinc.org', code: '85354-9' }], text: 'Presión arterial' },
      subject: { reference: `Patient/p${patients.maria}` },
      occurrenceTiming: {
        repeat: {
          boundsPeriod: { start: '2026-11-22T12:00:00.000Z', end: '2026-12-06T12:00:00.000Z' },
          dayOfWeek: ['mon', 'thu'],
          timeOfDay: ['08:00:00', '20:00:00'],
        },
      },
      patientInstruction: 'Medir Presión arterial los días lunes, jueves a las 08:00, 20:00 durante 2 semanas.',
    });
    const glucose = json(await get(`/ServiceRequest/s${orders.juanGlucose}`));
    expect(glucose).toMatchObject({ status: 'revoked', code: { coding: [{ code: '2339-0' }] } });
    expect(glucose.occurrenceTiming.repeat).not.toHaveProperty('dayOfWeek');
    expect((await get(`/ServiceRequest/s${orders.mariaPill}`)).status).toBe(404);
    expect((await get(`/ServiceRequest/s${orders.otherVital}`)).status).toBe(404);
    expect((await get(`/ServiceRequest/s${orders.mariaPressure}`, tokens.orgB)).status).toBe(404);
  });

  it.each([
    ['', ['mariaPressure', 'juanGlucose']],
    ['?patient=PAT:maria', ['mariaPressure']],
    ['?subject=PAT:juan', ['juanGlucose']],
    ['?status=active', ['mariaPressure']],
    ['?status=revoked', ['juanGlucose']],
    ['?status=cancelled', []],
    ['?status=http://hl7.org/fhir/request-status|', ['mariaPressure', 'juanGlucose']],
    ['?_id=ORD:juanGlucose,ORD:juanPill', ['juanGlucose']],
    ['?_lastUpdated=ge2026-11-15', ['mariaPressure']],
  ])('search %s', async (query, want) => {
    const q = withIds(query).replace(/ORD:(\w+)/g, (_m, k: keyof typeof orders) => `s${orders[k]}`);
    const bundle = json(await get(`/ServiceRequest${q}`));
    expect(ids(bundle)).toEqual(want.map((k) => `s${orders[k as keyof typeof orders]}`));
  });
});

describe('_id and _lastUpdated on the first four types', () => {
  const m = (k: keyof typeof readings) => `m${readings[k]}`;
  it.each([
    ['Patient by _id', () => `/Patient?_id=p${patients.lucia},p${patients.other}`, () => [`p${patients.lucia}`]],
    ['Observation by _id', () => `/Observation?_id=${m('mariaPulse')}`, () => [m('mariaPulse')]],
    // A panel is found by the pair it is listed as, not by its systolic alone.
    [
      'Observation by a panel’s _id',
      () => `/Observation?_id=${m('juanSys')}-${readings.juanDia},${m('juanSys')}`,
      () => [`${m('juanSys')}-${readings.juanDia}`],
    ],
    ['Observation by _lastUpdated (when stored)', () => '/Observation?_lastUpdated=lt2026-11-21', () => [m('mariaPulse')]],
    [
      'Observation by _lastUpdated to the second',
      () => '/Observation?_lastUpdated=2026-11-21T15:00:00Z',
      () => [m('juanPulse'), `${m('juanSys')}-${readings.juanDia}`],
    ],
    ['DetectedIssue by _id', () => `/DetectedIssue?_id=a${alerts.juan}`, () => [`a${alerts.juan}`]],
    ['DetectedIssue by _lastUpdated', () => '/DetectedIssue?_lastUpdated=ge2026-11-20', () => [`a${alerts.maria}`]],
    [
      'DetectedIssue by _lastUpdated and identified',
      () => '/DetectedIssue?_lastUpdated=lt2026-11-20&identified=ge2026-11-16',
      () => [`a${alerts.juan}`],
    ],
    ['Condition by _id', () => `/Condition?_id=c${conditions.maria}`, () => [`c${conditions.maria}`]],
    ['Condition by _lastUpdated', () => '/Condition?_lastUpdated=le2026-11-10', () => [`c${conditions.juan}`]],
  ])('%s', async (_name, query, want) => {
    expect(ids(json(await get(query())))).toEqual(want());
  });

  it('gives a pulled DetectedIssue the alert’s last change as meta.lastUpdated', async () => {
    expect(json(await get(`/DetectedIssue/a${alerts.maria}`)).meta).toEqual({ lastUpdated: '2026-11-20T09:00:00.000Z' });
  });
});

describe('paging, tenancy and scopes of the new types', () => {
  const NEW_TYPES = ['Device', 'RelatedPerson', 'Group', 'MedicationRequest', 'ServiceRequest'] as const;

  it.each(NEW_TYPES)('%s pages by keyset with _count=1 to the end: the same rows as one page, no repeats', async (type) => {
    const whole = ids(json(await get(`/${type}?_count=1000`)));
    expect(whole.length).toBeGreaterThan(1);
    const paged = await fhir.allPages(`/${type}?_count=1`, tokens.full);
    expect(paged.ids).toEqual(whole);
    expect(paged.pages).toBe(whole.length);
    for (const bundle of paged.bundles.slice(1)) expect(bundle.link[0].url).toMatch(/_cursor=/);
    expect(json(await get(`/${type}?_summary=count`)).total).toBe(whole.length);
  });

  it.each(NEW_TYPES)('%s: organisation B never sees A’s rows', async (type) => {
    const ours = new Set(ids(json(await get(`/${type}?_count=1000`))));
    const theirs = ids(json(await get(`/${type}?_count=1000`, tokens.orgB)));
    expect(theirs.length).toBeGreaterThan(0);
    for (const id of theirs) expect(ours.has(id)).toBe(false);
  });

  it.each(NEW_TYPES)('%s: a Patient-only token gets 403 on search and read', async (type) => {
    const search = await get(`/${type}`, tokens.patientOnly);
    expect(search.status).toBe(403);
    expect(json(search).issue[0]).toMatchObject({ code: 'forbidden', diagnostics: `El token no tiene el alcance system/${type}.s.` });
    const first = ids(json(await get(`/${type}?_count=1`)))[0];
    const read = await get(`/${type}/${first}`, tokens.patientOnly);
    expect(read.status).toBe(403);
    expect(json(read).issue[0].diagnostics).toBe(`El token no tiene el alcance system/${type}.r.`);
  });

  it.each([
    ['/Device?patient=12', 'patient'],
    ['/RelatedPerson?_lastUpdated=ayer', '_lastUpdated'],
    ['/MedicationRequest?status=a|b|c', 'status'],
    ['/ServiceRequest?subject=Group/g1', 'subject'],
    ['/Group?name=', 'name'],
    ['/Group?_cursor=' + Buffer.from('["Device:_id",1]').toString('base64url'), '_cursor'],
    ['/RelatedPerson?_cursor=' + Buffer.from('["RelatedPerson:_id",1]').toString('base64url'), '_cursor'],
    ['/Condition?_lastUpdated=2026-11-21T10:00', '_lastUpdated'],
  ])('answers 400 naming the parameter for %s', async (path, param) => {
    const res = await get(path);
    expect(res.status).toBe(400);
    const issue = json(res).issue[0];
    expect(issue).toMatchObject({ severity: 'error', code: 'invalid', expression: [param] });
    expect(issue.diagnostics).toMatch(new RegExp(`^${param} `));
  });

  it('ignores and reports a parameter the type lacks (patient on Group)', async () => {
    const bundle = json(await get(`/Group?patient=p${patients.maria}`));
    expect(ids(bundle)).toHaveLength(3);
    expect(bundle.entry.at(-1)).toMatchObject({ search: { mode: 'outcome' }, resource: { issue: [{ expression: ['patient'] }] } });
  });
});

describe('the group restriction of a Bulk export (SearchInput.groupId)', () => {
  const deps = () => ({ sequelize: t.sequelize });
  const input = (groupId: number | null, params: Array<[string, string[]]> = []): SearchInput => ({
    params: new Map(params),
    count: 1000,
    summaryCount: false,
    wantTotal: false,
    groupId,
  });
  const TYPES = Object.keys(SEARCH_TYPES) as SearchType[];

  it('answers the Patient compartment for every type but Group', () => {
    expect(TYPES.filter((type) => !patientBound(type))).toEqual(['Group']);
  });

  it('keeps, for each type, only the rows of the tag’s patients; Group only that group', async () => {
    const juanOnly: Record<SearchType, string[]> = {
      Patient: [`p${patients.juan}`],
      Observation: [`m${readings.juanPulse}`, `m${readings.juanSys}-${readings.juanDia}`],
      DetectedIssue: [`a${alerts.juan}`],
      Condition: [`c${conditions.juan}`],
      Device: [],
      RelatedPerson: [rp('juan', 'luz'), rp('juan', 'pedro')],
      MedicationRequest: [`x${orders.juanPill}`],
      ServiceRequest: [`s${orders.juanGlucose}`],
      Composition: [],
      Group: [`g${tags.diabetes}`],
    };
    for (const type of TYPES) {
      const page = await SEARCHES[type].search(deps(), a.clientId, input(tags.diabetes));
      for (const r of page.resources) expect(() => json({ text: JSON.stringify(r) }), type).not.toThrow();
      expect(page.resources.map((r) => r.id).sort(), type).toEqual([...juanOnly[type]].sort());
    }
    const hyper = await SEARCHES.Device.search(deps(), a.clientId, input(tags.hyper));
    expect(hyper.resources.map((r) => r.id)).toEqual([`d${devices.maria}`]);
    const patientsOfHyper = await SEARCHES.Patient.search(deps(), a.clientId, input(tags.hyper));
    expect(patientsOfHyper.resources.map((r) => r.id)).toEqual([`p${patients.maria}`, `p${patients.juan}`]);
  });

  it('combines with the export’s _lastUpdated bounds and pages by keyset', async () => {
    const first = await SEARCHES.Observation.search(deps(), a.clientId, {
      ...input(tags.hyper, [
        ['_lastUpdated', ['ge2026-11-01T00:00:00Z', 'lt2026-11-22T00:00:00Z']],
        ['_sort', ['_lastUpdated']],
      ]),
      count: 2,
    });
    expect(first.resources.map((r) => r.id)).toEqual([`m${readings.mariaPulse}`, `m${readings.juanPulse}`]);
    const rest = await SEARCHES.Observation.search(deps(), a.clientId, {
      ...input(tags.hyper, [
        ['_lastUpdated', ['ge2026-11-01T00:00:00Z', 'lt2026-11-22T00:00:00Z']],
        ['_sort', ['_lastUpdated']],
        ['_cursor', [first.next!]],
      ]),
      count: 2,
    });
    expect(rest.resources.map((r) => r.id)).toEqual([`m${readings.juanSys}-${readings.juanDia}`]);
    expect(rest.next).toBeNull();
  });

  it('finds nothing for a tag nobody carries, nor for another organisation’s tag', async () => {
    for (const type of TYPES) {
      const groupOf = (groupId: number) => SEARCHES[type].search(deps(), a.clientId, input(groupId));
      const empty = (await groupOf(tags.empty)).resources.map((r) => r.id);
      expect(empty, type).toEqual(type === 'Group' ? [`g${tags.empty}`] : []);
      expect((await groupOf(tags.other)).resources, type).toEqual([]);
    }
  });
});

describe('a link that changed is an update of its Group and its Device (_lastUpdated, an export’s _since)', () => {
  it('Lucía joins Diabéticos, and María’s gateway goes to Lucía: that Group and that Device were updated then', async () => {
    movedTo = new Date('2026-11-21T15:02:00Z');
    const patch = async (id: number, body: object) => {
      const res = await t.http.patch(`/api/v1/patients/${id}`).set(bearer(a.tokens.admin)).send(body);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    };
    await patch(patients.lucia, { tag_ids: [tags.diabetes] });
    await patch(patients.maria, { card_id: null });
    await patch(patients.lucia, { card_id: 'GW-MARIA' });
    const since = '_lastUpdated=gt2026-11-21T15:00:00Z';
    expect(ids(json(await get(`/Group?${since}`)))).toEqual([`g${tags.diabetes}`]);
    const device = json(await get(`/Device?${since}`));
    expect(ids(device)).toEqual([`d${devices.maria}`]);
    expect(device.entry[0].resource.patient).toEqual({ reference: `Patient/p${patients.lucia}` });
    // Saving the same tags again changes no Group.
    await patch(patients.juan, { tag_ids: [tags.diabetes, tags.hyper] });
    expect(ids(json(await get(`/Group?${since}`)))).toEqual([`g${tags.diabetes}`]);
  });
});
