import crypto from 'node:crypto';
import { derefSchema, type OpenApiOperation, type OpenApiParameter } from '@vigia/contract/rules/schema';
import { loadContract } from '../../api/src/http/contract';
import { select } from '../../api/src/db/sql';
import { recordRda } from '../../api/src/modules/rdas/rdas.service';
import { bearer, patientBody, type TestProduct, type Org } from '../support/product';

/**
 * Shared by the security suite: the contract's operations, one patient record with a row of every
 * kind hanging from it, valid sample bodies per request schema, a real patient (portal) token.
 */
const { doc } = loadContract();
export type Operation = { path: string; method: string; op: OpenApiOperation; name: string };

export const operations: Operation[] = Object.entries(doc.paths).flatMap(([path, item]) =>
  Object.entries(item as Record<string, OpenApiOperation>)
    .filter(([m]) => ['get', 'post', 'put', 'patch', 'delete'].includes(m))
    .map(([method, op]) => ({ path, method, op, name: `${method.toUpperCase()} ${path}` })),
);

/**
 * Writes: every call but a GET, and the GETs the contract marks `x-writes` (01 §7's legacy
 * 'set caregiver' link is a GET that changes data).
 */
export const isWrite = (o: Operation) => o.method !== 'get' || (o.op as { 'x-writes'?: boolean })['x-writes'] === true;

/** Calls that are not made with a staff session: login, one-time codes, SSO, device and channel callbacks. */
export const isPublic = (o: Operation) => Array.isArray(o.op.security);

/** The request schema's name; inline schemas are named after the operation. */
export const schemaOf = (o: Operation) => {
  const schema = o.op.requestBody?.content?.['application/json']?.schema;
  if (!schema) return undefined;
  return schema.$ref?.split('/').pop() ?? `${o.name}:body`;
};

export type Ids = Record<string, number>;

/** Client-level rows every write can point at (tag, alarm, device, supply, stock, spare user, client prompt). */
export async function seedClient(t: TestProduct, org: Org, suffix: string): Promise<Ids> {
  const h = bearer(org.tokens.admin);
  const post = async (url: string, body: object) => {
    const res = await t.http.post(`/api/v1${url}`).set(h).send(body);
    if (res.status >= 300) throw new Error(`${url}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const ids: Ids = { clients: org.clientId, clientId: org.clientId };
  ids.tags = (await post('/tags', { name: `etiqueta ${suffix}`, color: 'red' })).id;
  ids.alarms = (
    await post('/alarms', { name: `Alarma ${suffix}`, clinical_element: 1, priority: 1, minimum_condition: 50, maximum_condition: 110 })
  ).id;
  ids.devices = (await post('/devices', { card_id: `CARD-${suffix}` })).id;
  ids.supplies = (await post('/supplies', { type: 'biologico', tradename: `Vacuna ${suffix}`, generic_name: 'Influenza' })).id;
  ids.stocks = (
    await post('/stocks', {
      type: 'biologico',
      serial: `SER${suffix}`.padEnd(16, '0'),
      medical_supply_id: ids.supplies,
      expiration_date: '2299-12-31',
      cuantity: 50,
    })
  ).id;
  ids.users = (
    await post('/users', {
      first_name: 'objetivo',
      last_name: 'pruebas',
      email: `objetivo.${suffix.toLowerCase()}@example.co`,
      password: 'Objetivo@2026',
      password_confirmation: 'Objetivo@2026',
      cellphone: '3005556677',
      prefix: '+57',
      country_id: 26,
      city_id: 2611001,
      role_name: 'consulta',
    })
  ).id;
  // Sessions are UUIDs and Ids holds numbers: the calls that end one of the caller's own sessions get
  // an id no session has (404), as ending a real one would end the session the calls run on.
  ids.sessions = 987654321;
  // A passkey of the administrator ('Seguridad', /me/factors/passkeys/{id}): renamed and deleted by the calls.
  await t.sequelize.query(
    "INSERT INTO user_passkeys (user_id, client_id, credential_id, public_key, counter, name, created_at) VALUES (:u, :c, :cred, 'AA', 0, 'Llave', :now)",
    { replacements: { u: org.users.admin.id, c: org.clientId, cred: `cred-${suffix}`, now: new Date() } },
  );
  ids.me = Number(
    (await select<{ id: number }>(t.sequelize, 'SELECT id FROM user_passkeys WHERE credential_id = :cred', { cred: `cred-${suffix}` }))[0]
      .id,
  );
  ids.promptId = (await post('/client_prompts', { text: `Instrucción ${suffix}` })).id;
  ids.api_clients = (await post('/api_clients', sampleBody('ApiClientInput', ids)!)).id;
  // A FHIR export of the organisation (issue 37), left queued: the calls read, download from and cancel it.
  ids.fhir_exports = (await post('/fhir_exports', sampleBody('FhirExportInput', ids)!)).id;
  ids.tagPromptId = (await post(`/tags/${ids.tags}/prompts`, { text: `Instrucción etiqueta ${suffix}` })).id;
  await t.sequelize.query(
    "INSERT INTO webhook_deliveries (client_id, patient_id, event_type, event_key, webhook_id, resource_type, payload, status, attempts, resends, created_at, updated_at) VALUES (:c, NULL, 'test', :k, :w, 'Parameters', '{}', 'failed', 1, 0, :now, :now)",
    { replacements: { c: org.clientId, k: `test:${suffix}`, w: `msg_${suffix}`, now: new Date() } },
  );
  ids.webhookDelivery = Number(
    (await select<{ id: number }>(t.sequelize, 'SELECT id FROM webhook_deliveries WHERE webhook_id = :w', { w: `msg_${suffix}` }))[0].id,
  );
  return ids;
}

/** One patient with a row of every kind the patient record holds, then moved to `status`. */
export async function seedPatient(t: TestProduct, org: Org, client: Ids, nid: string, status?: 0 | 3): Promise<Ids> {
  const h = bearer(org.tokens.admin);
  const post = async (url: string, body?: object) => {
    const res = await t.http.post(`/api/v1${url}`).set(h).send(body);
    if (res.status >= 300) throw new Error(`${url}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const ids: Ids = {};
  ids.patients = (await post('/patients', patientBody({ nid, tag_ids: [client.tags] }))).id;
  const record = `/patients/${ids.patients}`;
  ids.orderId = (
    await post(`${record}/orders/bulk`, {
      orders: [{ order_type: 0, clinical_element: 1, hours: ['08:00'], start_at: '2099-01-01T00:00:00Z' }],
    })
  ).order_ids[0];
  ids.activityId = (await t.http.get(`/api/v1${record}/orders/${ids.orderId}/activities`).set(h)).body[0].id;
  ids.mid = (await post(`${record}/measurements`, { clinical_element: 1, value: 72 }))[0].id;
  ids.encounters = (await post(`${record}/encounters`, { kind: 'generic' })).id;
  ids.observations = (await post('/observations', { encounter_id: ids.encounters, clinical_element: 1, value: '72' })).id;
  ids.patientPromptId = (await post(`${record}/prompts`, { text: 'Instrucción del paciente' })).id;
  ids.observationId = (await post(`${record}/observations`, { observation_type: 0, value_text: 'Nota' })).id;
  ids.conditionId = (await post(`${record}/conditions`, { condition_type_id: 1 })).id;
  ids.allergyId = (await post(`${record}/allergies`, { allergy_type: '01', description: 'Penicilina' })).id;
  ids.familyHistoryId = (await post(`${record}/family_history`, { relationship: '01', description: 'Hipertensión arterial' })).id;
  ids.caregiverId = (
    await post(`${record}/caregivers`, {
      id_type: 1,
      nid: `5${nid.slice(-7)}`,
      first_name: 'ana',
      last_name: 'cuidadora',
      country_id: 26,
      prefix: '+57',
      cellphone: '3001112233',
    })
  ).id;
  await t.http
    .put(`/api/v1${record}`)
    .set(h)
    .send({ alarm_ids: [client.alarms] });
  await post(`${record}/measurements`, { clinical_element: 1, value: 190 });
  ids.alertId = (await t.http.get(`/api/v1${record}/alerts?status=1`).set(h)).body[0].id;
  ids.rdas = (await recordRda({ sequelize: t.sequelize, jobs: t.jobs, now: t.now }, rdaOf(org, ids.patients))).id;
  if (status != null) {
    const res = await t.http.put(`/api/v1${record}`).set(h).send({ status });
    if (res.status !== 200) throw new Error(`status ${status}: ${res.status} ${JSON.stringify(res.body)}`);
  }
  return ids;
}

/**
 * An RDA of the patient as recordRda keeps it (issue 51): its store and routes read a document
 * Bundle by its identifier and do not judge its profile, which the RDA builder and the platform do.
 */
export function rdaOf(org: Org, patientId: number) {
  // A Composition first, as every document opens: the FHIR API's Composition search reaches it too.
  const composition = {
    resourceType: 'Composition',
    id: crypto.randomUUID(),
    status: 'final',
    type: { coding: [{ system: 'http://loinc.org', code: '102089-0' }] },
    subject: { reference: `urn:uuid:${crypto.randomUUID()}` },
    date: '2026-11-30T14:40:00.000Z',
    author: [{ reference: `urn:uuid:${crypto.randomUUID()}` }],
    title: 'Resumen Digital de Atención en Salud - RDA de paciente',
  };
  const bundle = {
    resourceType: 'Bundle',
    type: 'document',
    identifier: { value: crypto.randomUUID() },
    entry: [{ fullUrl: `urn:uuid:${composition.id}`, resource: composition }],
  };
  return { clientId: org.clientId, patientId, kind: 'paciente' as const, bundle };
}

/** An RSA public key in a JWKS, as an API client registers it (only its shape is checked on registration). */
export const SAMPLE_JWKS = {
  keys: [
    {
      kty: 'RSA',
      kid: 'muestra',
      alg: 'RS384',
      use: 'sig',
      e: 'AQAB',
      n: 'u1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gunVTLw7onLRnrq0_IzW7yWR7QkrmBL7jTKEn5u-qKhbwKfBstIs-bMY2Zkp18gnTxKLxoS2tFczGkPLPgizskuemMghRniWaoLcyehkd3qqGElvW_VDL5AaWTg0nLVkjRo9z-40RQzuVaE8AkAFmxZzow3x-VJYKdjykkJ0iT9wCS0DRTXu269V264Vf_3jvredZiKRkgwlL9xNAwxXFg0x_XFw005UWVRIkdgcKWTjpBP2dPwVZ4WWC-9aGVd-Gyn1o0CLelf4rEjGoXbAAEgAqeGUxrcIlbjXfbcmw',
    },
  ],
};

/** A valid body per request schema, so an answer is about permissions and not about validation. */
export function sampleBody(schema: string, ids: Ids): object | undefined {
  const bodies: Record<string, object> = {
    ClientSettingsInput: { webhook_alerts: false, residents_enabled: false },
    FeedbackInput: { qualification: 1, message: 'Muy útil' },
    TagInput: { name: `nueva ${Math.random().toString(36).slice(2, 8)}`, color: 'blue' },
    TagUpdate: { color: 'blue' },
    PatientInput: patientBody(),
    PatientUpdate: { neighborhood: 'el chicó' },
    MeasurementInput: { clinical_element: 1, value: 73 },
    MeasurementUpdate: { status: 1, comment: 'Lectura tomada por error' },
    DeviceInput: { card_id: `CARD-${Math.random().toString(36).slice(2, 10)}` },
    PromptInput: { text: 'Instrucción nueva' },
    PromptUpdate: { text: 'Instrucción cambiada' },
    ObservationInput: { observation_type: 0, value_text: 'Nota nueva' },
    ConditionInput: { condition_type_id: 2 },
    ConditionUpdate: { notes: 'cambiada' },
    AllergyInput: { allergy_type: '02', description: 'Maní' },
    AllergyUpdate: { active: false },
    FamilyHistoryInput: { relationship: '02', description: 'Diabetes', icd10: 'E119' },
    FamilyHistoryUpdate: { description: 'Diabetes tipo 2' },
    ClinicalObservationInput: { clinical_variable_id: 1, value: 7 },
    CaregiverInput: {
      id_type: 1,
      nid: String(52_000_000 + Math.floor(Math.random() * 999_999)),
      first_name: 'luis',
      last_name: 'cuidador',
      country_id: 26,
      prefix: '+57',
      cellphone: '3001112299',
    },
    CaregiverUpdate: { relationship: 'hijo' },
    OrderInput: { order_type: 0, clinical_element: 1, hours: ['09:00'] },
    BulkOrdersInput: { orders: [{ order_type: 0, clinical_element: 1, hours: ['10:00'], start_at: '2099-01-01T00:00:00Z' }] },
    OrderUpdate: { notify: false },
    ActivityUpdate: { status: 3 },
    AlarmInput: { name: 'Nueva', clinical_element: 1, priority: 2, minimum_condition: 40, maximum_condition: 120 },
    AlarmUpdate: { name: 'Cambiada' },
    AlertClose: { status: 2, close_type: 'false_alert', description: 'Cierre de prueba' },
    AlertEntryInput: { description: 'Entrada de prueba' },
    UserInput: {
      first_name: 'nuevo',
      last_name: 'usuario',
      email: `nuevo.${Math.random().toString(36).slice(2, 8)}@example.co`,
      password: 'Nuevo@2026',
      password_confirmation: 'Nuevo@2026',
      cellphone: '3005556688',
      prefix: '+57',
      country_id: 26,
      city_id: 2611001,
      role_name: 'consulta',
    },
    UserUpdate: { first_name: 'cambiado' },
    BreakGlassInput: { break_glass: false },
    SupplyInput: { type: 'biologico', tradename: `Vacuna ${Math.random().toString(36).slice(2, 6)}` },
    SupplyUpdate: { generic_name: 'Influenza estacional' },
    StockInput: {
      type: 'biologico',
      serial: `S${Date.now()}${Math.floor(Math.random() * 99)}`.padEnd(16, '0').slice(0, 16),
      medical_supply_id: ids.supplies,
      expiration_date: '2299-12-31',
      cuantity: 5,
    },
    StockUpdate: { active: true },
    MoveInput: { type: 'entrada', amount: 1, stock_id: ids.stocks },
    EncounterInput: { kind: 'generic' },
    VaccinationEncounterInput: { patient_id: ids.patients },
    EncounterUpdate: { observations: 'sin novedad' },
    TeleconsultationUpdate: { reason: 'Control de presión arterial' },
    TeleconsultationAmendment: { reason: 'Corrección del plan de control', changes: { plan: 'Control semanal' } },
    EncounterObservationInput: { encounter_id: ids.encounters, clinical_element: 1, value: '74' },
    EncounterObservationUpdate: { value: '75' },
    ChatMessageInput: { text: 'Hola' },
    'POST /patients/validate:body': { id_type: 1, nid: '9999999999' },
    SmeInfoUpdate: { sme_enabled: true },
    MyNotificationsInput: { priority_low: false },
    PasswordResetRequest: { email: 'nadie@example.co' },
    PasswordResetInput: { password: 'Nueva@2026', password_confirmation: 'Nueva@2026' },
    ApiClientInput: { name: `Sistema ${Math.random().toString(36).slice(2, 8)}`, jwks: SAMPLE_JWKS, scopes: ['system/Patient.rs'] },
    ApiClientUpdate: { status: 'suspended' },
    FhirExportInput: { types: ['Patient'] },
    IhceSettingsInput: { enabled: false, scope: 'api://ihce/.default' },
  };
  return bodies[schema];
}

/** The URL of an operation with every path parameter filled from `ids`. */
/** The file an export's download names in the calls ({file}): the first Patient file. */
export const EXPORT_FILE = 'Patient.1.ndjson';

export function urlOf(o: Operation, ids: Ids): string {
  const byParam: Record<string, string> = {
    '/tags/{id}/prompts/{promptId}': 'tagPromptId',
    '/patients/{id}/prompts/{promptId}': 'patientPromptId',
    '/webhooks/deliveries/{id}/resend': 'webhookDelivery',
  };
  const resource = o.path.split('/')[1];
  return `/api/v1${o.path.replace(/\{(\w+)\}/g, (_m, p: string) => {
    // A file of an export is a name, not an id.
    if (p === 'file') return EXPORT_FILE;
    const key =
      p === 'id'
        ? o.path.startsWith('/webhooks/')
          ? 'webhookDelivery'
          : resource
        : p === 'promptId'
          ? (byParam[o.path] ?? 'promptId')
          : p;
    const v = ids[key];
    if (v == null) throw new Error(`no fixture for {${p}} in ${o.path}`);
    return String(v);
  })}${requiredQuery(o, ids)}`;
}

/** The fixture id each required query parameter of an operation is filled from. */
const QUERY_FIXTURES: Record<string, string> = { caregiver_id: 'caregiverId' };

/**
 * `?name=value&…` with the required query parameters of the operation that have a fixture in `ids`
 * ('' when none has); one without is left out, so the call answers 400 and a test that needs a
 * valid call says so.
 */
export function requiredQuery(o: Operation, ids: Ids): string {
  const params = (o.op.parameters ?? []).map((p) => derefSchema(doc, p) as OpenApiParameter);
  const pairs = params
    .filter((p) => p.in === 'query' && p.required && p.name)
    .map((p) => [p.name!, ids[QUERY_FIXTURES[p.name!] ?? p.name!]] as const)
    .filter(([, v]) => v != null)
    .map(([name, v]) => `${name}=${v}`);
  return pairs.length ? `?${pairs.join('&')}` : '';
}

/** A real portal session of the patient with this document: request a code, read the SMS, verify. */
export async function patientToken(t: TestProduct, org: Org, nid: string, phone: string): Promise<string> {
  const outbox = () => t.http.get(`/api/v1/sms_outbox?to=${phone}`).set(bearer(org.tokens.admin));
  const before = (await outbox()).body.length;
  const req = await t.http.post('/api/v1/request_otp').send({ nid });
  if (req.status !== 200) throw new Error(`request_otp: ${req.status}`);
  for (let i = 0; i < 500; i++) {
    const rows = (await outbox()).body as Array<{ body: string }>;
    if (rows.length > before) {
      const code = rows[0].body.match(/\d{4,8}/)![0];
      const res = await t.http.post('/api/v1/verify_otp').send({ nid, otp_code: code, challenge_id: req.body.challenge_id });
      if (res.status !== 200) throw new Error(`verify_otp: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.token;
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('no SMS');
}

/** Every operation but logout (it would end the session the calls use), reads first and deletions last, so earlier calls still find their rows. */
const METHOD_ORDER: Record<string, number> = { get: 0, post: 1, put: 2, patch: 3, delete: 4 };
export const operationsInCallOrder: Operation[] = operations
  .filter((o) => o.name !== 'DELETE /sessions')
  .sort((x, y) => METHOD_ORDER[x.method] - METHOD_ORDER[y.method]);

/** urlOf, with the path parameters that are not a row id (a listing's name, a token, a card) filled too; `card` is the client's device card. */
export function urlWithTextParams(o: Operation, ids: Ids, card: string): string {
  const text: Record<string, string> = { list_name: 'countries', token: 'x', code: '1', medicineId: '1', card_id: card };
  return urlOf({ ...o, path: o.path.replace(/\{(\w+)\}/g, (m, p: string) => text[p] ?? m) }, ids);
}
