import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { OpenApiOperation } from '@vigia/contract/rules/schema';
import { loadContract } from '../../api/src/http/contract';
import { select } from '../../api/src/db/sql';
import { startTestProduct, createOrg, bearer, patientBody, requestFor, type TestProduct, type Org } from '../support/product';
import { EXPORT_FILE, rdaOf, requiredQuery, SAMPLE_JWKS } from './fixtures';
import { recordRda } from '../../api/src/modules/rdas/rdas.service';

/**
 * Tenant isolation matrix (D14), generated from openapi.yaml: every operation whose path carries
 * an id is called by each role of client B with client A's ids. The answer is 404 (403 for a role
 * that may never do it), exactly as for an id that does not exist, and client A's rows are unchanged. A new operation is covered as soon
 * as it is in the contract; one whose id or body this file cannot supply fails until it can.
 */
let t: TestProduct;
let a: Org;
let b: Org;
const ids: Record<string, number> = {};

beforeAll(async () => {
  t = await startTestProduct();
  a = await createOrg(t, 'Clinica Alfa');
  b = await createOrg(t, 'Clinica Beta');
  ids.tags = (await t.http.post('/api/v1/tags').set(bearer(a.tokens.admin)).send({ name: 'privada', color: 'red' })).body.id;
  ids.patients = (
    await t.http
      .post('/api/v1/patients')
      .set(bearer(a.tokens.admin))
      .send(patientBody({ nid: '5566778899', tag_ids: [ids.tags] }))
  ).body.id;
  ids.clients = a.clientId;
  // An RDA of client A's patient (issue 51): read, and 'Reenviar', out of B's reach.
  ids.rdas = (await recordRda({ sequelize: t.sequelize, jobs: t.jobs, now: t.now }, rdaOf(a, ids.patients))).id;
  ids.api_clients = (
    await t.http
      .post('/api/v1/api_clients')
      .set(bearer(a.tokens.admin))
      .send({ name: 'Sistema Alfa', jwks: SAMPLE_JWKS, scopes: ['system/*.rs'] })
  ).body.id;
  ids.fhir_exports = (
    await t.http
      .post('/api/v1/fhir_exports')
      .set(bearer(a.tokens.admin))
      .send({ types: ['Patient'] })
  ).body.id;
  // A webhook delivery of client A (its 'Reenviar' must be out of B's reach).
  await t.sequelize.query(
    "INSERT INTO webhook_deliveries (client_id, patient_id, event_type, event_key, webhook_id, resource_type, payload, status, attempts, resends, created_at, updated_at) VALUES (:c, NULL, 'test', 'test:tenancy', 'msg_tenancy', 'Parameters', '{}', 'failed', 1, 0, :now, :now)",
    { replacements: { c: a.clientId, now: new Date() } },
  );
  ids.webhooks = Number(
    (await select<{ id: number }>(t.sequelize, 'SELECT id FROM webhook_deliveries WHERE client_id = :c', { c: a.clientId }))[0].id,
  );
  // Orders and activities (issue 4): one scheduled order of client A and its first activity.
  ids.orderId = (
    await t.http
      .post(`/api/v1/patients/${ids.patients}/orders/bulk`)
      .set(bearer(a.tokens.admin))
      .send({ orders: [{ order_type: 0, clinical_element: 1, hours: ['08:00'], start_at: '2099-01-01T00:00:00Z' }] })
  ).body.order_ids[0];
  ids.activityId = (
    await t.http.get(`/api/v1/patients/${ids.patients}/orders/${ids.orderId}/activities`).set(bearer(a.tokens.admin))
  ).body[0].id;
  ids.devices = (await t.http.post('/api/v1/devices').set(bearer(a.tokens.admin)).send({ card_id: 'TENANCY-A' })).body.id;
  ids.mid = (
    await t.http.post(`/api/v1/patients/${ids.patients}/measurements`).set(bearer(a.tokens.admin)).send({ clinical_element: 1, value: 72 })
  ).body[0].id;
  // Administration (issue 5): a user, a supply, a batch, an encounter and its observation of client A.
  ids.users = a.users.medico.id;
  // A session is a UUID and these ids are numbers: client B's calls end none of their own sessions
  // with it (404, as for a missing id); ending another client's real session: tests/api/sessions.test.ts.
  ids.sessions = 123456789;
  // A passkey of client A's user ('Seguridad', /me/factors/passkeys/{id}): another user's is a 404.
  await t.sequelize.query(
    "INSERT INTO user_passkeys (user_id, client_id, credential_id, public_key, counter, name, created_at) VALUES (:u, :c, 'tenancy-cred', 'AA', 0, 'Llave Alfa', :now)",
    { replacements: { u: a.users.medico.id, c: a.clientId, now: new Date() } },
  );
  ids.me = Number(
    (await select<{ id: number }>(t.sequelize, 'SELECT id FROM user_passkeys WHERE client_id = :c', { c: a.clientId }))[0].id,
  );
  ids.supplies = (
    await t.http
      .post('/api/v1/supplies')
      .set(bearer(a.tokens.admin))
      .send({ type: 'biologico', tradename: 'Vacuna Alfa', generic_name: 'Influenza' })
  ).body.id;
  ids.stocks = (
    await t.http
      .post('/api/v1/stocks')
      .set(bearer(a.tokens.admin))
      .send({ type: 'biologico', serial: 'ALFA000000000001', medical_supply_id: ids.supplies, expiration_date: '2299-12-31', cuantity: 5 })
  ).body.id;
  ids.encounters = (
    await t.http.post(`/api/v1/patients/${ids.patients}/encounters`).set(bearer(a.tokens.admin)).send({ kind: 'generic' })
  ).body.id;
  ids.observations = (
    await t.http
      .post('/api/v1/observations')
      .set(bearer(a.tokens.admin))
      .send({ encounter_id: ids.encounters, clinical_element: 1, value: '72' })
  ).body.id;
  // Patient record (AI instructions, notes, conditions, caregivers) of client A.
  const record = `/api/v1/patients/${ids.patients}`;
  ids.promptId = (await t.http.post(`${record}/prompts`).set(bearer(a.tokens.admin)).send({ text: 'Instrucción privada' })).body.id;
  ids.observationId = (
    await t.http.post(`${record}/observations`).set(bearer(a.tokens.admin)).send({ observation_type: 0, value_text: 'Nota privada' })
  ).body.id;
  ids.conditionId = (await t.http.post(`${record}/conditions`).set(bearer(a.tokens.admin)).send({ condition_type_id: 1 })).body.id;
  ids.allergyId = (
    await t.http.post(`${record}/allergies`).set(bearer(a.tokens.admin)).send({ allergy_type: '01', description: 'Penicilina' })
  ).body.id;
  ids.familyHistoryId = (
    await t.http.post(`${record}/family_history`).set(bearer(a.tokens.admin)).send({ relationship: '01', description: 'Asma' })
  ).body.id;
  ids.caregiverId = (
    await t.http.post(`${record}/caregivers`).set(bearer(a.tokens.admin)).send({
      id_type: 1,
      nid: '52000111',
      first_name: 'ana',
      last_name: 'privada',
      country_id: 26,
      prefix: '+57',
      cellphone: '3001112233',
    })
  ).body.id;
  ids.alarms = (
    await t.http
      .post('/api/v1/alarms')
      .set(bearer(a.tokens.admin))
      .send({ name: 'Privada', clinical_element: 1, priority: 1, minimum_condition: 50, maximum_condition: 110 })
  ).body.id;
  await t.http
    .put(record)
    .set(bearer(a.tokens.admin))
    .send({ alarm_ids: [ids.alarms] });
  await t.http.post(`${record}/measurements`).set(bearer(a.tokens.admin)).send({ clinical_element: 1, value: 190 });
  ids.alertId = (await t.http.get(`${record}/alerts?status=1`).set(bearer(a.tokens.admin))).body[0].id;
});
afterAll(() => t.stop());

/** A valid body per request schema, so the refusal is about tenancy and not about validation. */
const SAMPLE_BODIES: Record<string, unknown> = {
  TagUpdate: { name: 'robada', color: 'blue' },
  PasskeyRename: { name: 'robada' },
  PatientUpdate: { first_name: 'intruso' },
  ChatMessageInput: { text: 'mensaje ajeno' },
  SmeInfoUpdate: { sme_enabled: false },
  MeasurementInput: { clinical_element: 1, value: 72 },
  MeasurementUpdate: { status: 1, comment: 'Lectura tomada por error' },
  ClientSettingsInput: { webhook_alerts: false, residents_enabled: false },
  UserUpdate: { status: 1, role_name: 'consulta' },
  BreakGlassInput: { break_glass: true },
  SupplyUpdate: { active: false },
  StockUpdate: { active: false },
  EncounterInput: { kind: 'generic' },
  EncounterUpdate: { observations: 'ajena' },
  TeleconsultationUpdate: { reason: 'ajena' },
  TeleconsultationAmendment: { reason: 'Corrección ajena del plan', changes: { plan: 'ajeno' } },
  EncounterObservationUpdate: { value: '99' },
  OrderInput: { order_type: 0, clinical_element: 1, hours: ['08:00'] },
  OrderUpdate: { notify: false },
  BulkOrdersInput: { orders: [{ order_type: 0, clinical_element: 1, hours: ['08:00'], start_at: '2099-01-01T00:00:00Z' }] },
  ActivityUpdate: { status: 3 },
  PromptInput: { text: 'Instrucción ajena', status: 1 },
  PromptUpdate: { text: 'Instrucción cambiada' },
  ObservationInput: { observation_type: 0, value_text: 'Nota ajena' },
  ConditionInput: { condition_type_id: 1, active: true, notes: 'ajeno' },
  ConditionUpdate: { notes: 'ajeno' },
  AllergyInput: { allergy_type: '01', description: 'ajena' },
  AllergyUpdate: { active: false },
  FamilyHistoryInput: { relationship: '01', description: 'ajeno' },
  FamilyHistoryUpdate: { description: 'ajeno' },
  ClinicalObservationInput: { clinical_variable_id: 1, value: 7 },
  CaregiverInput: {
    id_type: 1,
    nid: '52123456',
    first_name: 'intrusa',
    last_name: 'ajena',
    country_id: 26,
    prefix: '+57',
    cellphone: '3001112233',
  },
  CaregiverUpdate: { relationship: 'ajena' },
  AlarmUpdate: { name: 'Robada', minimum_condition: 1 },
  AlertClose: { status: 2, close_type: 'false_alert', description: 'Cierre desde otro cliente' },
  AlertEntryInput: { description: 'Entrada desde otro cliente' },
  ApiClientUpdate: { status: 'suspended', scopes: ['system/*.rs'] },
  IhceSettingsInput: { enabled: false, base_url: 'https://ihce.example.co/fhir' },
};

const { doc } = loadContract();
const withIds = Object.entries(doc.paths).flatMap(([path, item]) =>
  Object.entries(item as Record<string, OpenApiOperation>)
    .filter(([m]) => ['get', 'post', 'put', 'patch', 'delete'].includes(m) && path.includes('{id}'))
    .map(([method, op]) => ({ path, method, op })),
);

/** Everything client A owns, read straight from the database. */
async function snapshotOfA() {
  return {
    patients: await select(t.sequelize, 'SELECT * FROM patients WHERE client_id = :c ORDER BY id', { c: a.clientId }),
    tags: await select(t.sequelize, 'SELECT * FROM tags WHERE client_id = :c ORDER BY id', { c: a.clientId }),
    patient_tags: await select(
      t.sequelize,
      'SELECT pt.* FROM patient_tags pt JOIN tags g ON g.id = pt.tag_id WHERE g.client_id = :c ORDER BY pt.patient_id, pt.tag_id',
      { c: a.clientId },
    ),
    clients: await select(t.sequelize, 'SELECT * FROM clients WHERE id = :c', { c: a.clientId }),
    measurements: await select(t.sequelize, 'SELECT * FROM measurements WHERE client_id = :c ORDER BY id', { c: a.clientId }),
    devices: await select(t.sequelize, 'SELECT * FROM devices WHERE client_id = :c ORDER BY id', { c: a.clientId }),
    users: await select(t.sequelize, 'SELECT * FROM users WHERE client_id = :c ORDER BY id', { c: a.clientId }),
    stocks: await select(t.sequelize, 'SELECT * FROM stocks WHERE client_id = :c ORDER BY id', { c: a.clientId }),
    encounters: await select(t.sequelize, 'SELECT * FROM encounters WHERE client_id = :c ORDER BY id', { c: a.clientId }),
    alarms: await select(t.sequelize, 'SELECT * FROM alarms WHERE client_id = :c ORDER BY id', { c: a.clientId }),
    alerts: await select(t.sequelize, 'SELECT * FROM alerts WHERE client_id = :c ORDER BY id', { c: a.clientId }),
    alert_entries: await select(
      t.sequelize,
      'SELECT e.* FROM alert_entries e JOIN alerts al ON al.id = e.alert_id WHERE al.client_id = :c ORDER BY e.id',
      { c: a.clientId },
    ),
    orders: await select(t.sequelize, 'SELECT * FROM orders WHERE client_id = :c ORDER BY id', { c: a.clientId }),
    activities: await select(t.sequelize, 'SELECT * FROM activities WHERE client_id = :c ORDER BY id', { c: a.clientId }),
    encounter_observations: await select(t.sequelize, 'SELECT * FROM encounter_observations WHERE client_id = :c ORDER BY id', {
      c: a.clientId,
    }),
    prompts: await select(t.sequelize, 'SELECT * FROM prompts WHERE client_id = :c ORDER BY id', { c: a.clientId }),
    observations: await select(t.sequelize, 'SELECT * FROM observations WHERE client_id = :c ORDER BY id', { c: a.clientId }),
    patient_conditions: await select(t.sequelize, 'SELECT * FROM patient_conditions WHERE client_id = :c ORDER BY id', { c: a.clientId }),
    patient_allergies: await select(t.sequelize, 'SELECT * FROM patient_allergies WHERE client_id = :c ORDER BY id', { c: a.clientId }),
    patient_family_history: await select(t.sequelize, 'SELECT * FROM patient_family_history WHERE client_id = :c ORDER BY id', {
      c: a.clientId,
    }),
    caregivers: await select(t.sequelize, 'SELECT * FROM caregivers WHERE client_id = :c ORDER BY id', { c: a.clientId }),
    user_passkeys: await select(t.sequelize, 'SELECT * FROM user_passkeys WHERE client_id = :c ORDER BY id', { c: a.clientId }),
    api_clients: await select(t.sequelize, 'SELECT * FROM api_clients WHERE client_id = :c ORDER BY id', { c: a.clientId }),
    fhir_exports: await select(t.sequelize, 'SELECT * FROM fhir_exports WHERE client_id = :c ORDER BY id', { c: a.clientId }),
    rdas: await select(t.sequelize, 'SELECT * FROM rdas WHERE client_id = :c ORDER BY id', { c: a.clientId }),
    ihce_settings: await select(t.sequelize, 'SELECT * FROM ihce_settings WHERE client_id = :c', { c: a.clientId }),
  };
}

describe('tenant isolation matrix', () => {
  it('covers every operation with an id in the contract', () => {
    expect(withIds.length).toBeGreaterThan(0);
  });

  it.each(withIds.map((o) => [`${o.method.toUpperCase()} ${o.path}`, o] as const))(
    "%s: client B gets 404 for client A's id",
    async (_n, o) => {
      const resource = o.path.split('/')[1];
      expect(ids[resource], `no fixture id for ${o.path}`).toBeDefined();
      const schemaRef = o.op.requestBody?.content?.['application/json']?.schema?.$ref;
      const body = schemaRef ? SAMPLE_BODIES[schemaRef.split('/').pop()!] : undefined;
      if (schemaRef) expect(body, `no sample body for ${schemaRef}`).toBeDefined();

      const before = await snapshotOfA();
      for (const role of ['admin', 'medico', 'enfermeria', 'consulta'] as const) {
        const call = (id: number) => {
          const req = requestFor(
            t,
            o.method,
            `/api/v1${o.path.replace('{id}', String(id)).replace(/\{(\w+)\}/g, (_m: string, p: string) => (p === 'file' ? EXPORT_FILE : String(ids[p] ?? 1)))}${requiredQuery({ ...o, name: `${o.method.toUpperCase()} ${o.path}` }, ids)}`,
          ).set(bearer(b.tokens[role]));
          return body ? req.send(body) : req;
        };
        const foreign = await call(ids[resource]);
        const missing = await call(987654321);
        // A role that may never do this gets 403 whatever the id; every other answer is 404.
        // Either way the foreign id is answered exactly like a missing one.
        expect([403, 404], `${role}: ${JSON.stringify(foreign.body)}`).toContain(foreign.status);
        if (role === 'admin') expect(foreign.status).toBe(404);
        expect(foreign.status).toBe(missing.status);
        expect(foreign.body).toEqual(missing.body);
      }
      expect(await snapshotOfA()).toEqual(before);
    },
  );

  it.each([
    ['/api/v1/patients', 'patients'],
    ['/api/v1/tags', 'tags'],
    ['/api/v1/sms_outbox', 'sms'],
    ['/api/v1/api_clients', 'api_clients'],
    ['/api/v1/fhir_exports', 'fhir_exports'],
    ['/api/v1/rdas', 'rdas'],
  ])("list %s never shows client A's rows to client B", async (url) => {
    const res = await t.http.get(url).set(bearer(b.tokens.admin));
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
  });
});
