import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { select } from '../../api/src/db/sql';
import { startTestProduct, createOrg, bearer, requestFor, type TestProduct, type Org } from '../support/product';
import {
  operations,
  isPublic,
  isWrite,
  schemaOf,
  sampleBody,
  seedClient,
  seedPatient,
  urlOf,
  patientToken,
  type Ids,
  type Operation,
} from './fixtures';

/**
 * Role matrix (D13, P1, P2), generated from openapi.yaml: every staff write is called with each
 * role's token and with a patient (portal) token; the answer must match the table below, which is
 * written from the specification, not imported from the implementation. Then every write that
 * changes a patient or adds to its record is tried on an inactive and on a deceased patient.
 * A write added to the contract without a row here fails until someone decides who may do it.
 */

type Role = 'admin' | 'medico' | 'enfermeria' | 'consulta';
const ROLES: Role[] = ['consulta', 'enfermeria', 'medico', 'admin']; // least privilege first

/** Who may do each kind of write (D13, P1). */
const KINDS = {
  administer: ['admin'], // users, alarm rules, tags, client/tag AI instructions, webhooks, devices, inventory, settings
  orders: ['admin', 'medico'], // creating and editing orders, alarm assignment, declaring death
  clinical: ['admin', 'medico', 'enfermeria'], // patients, readings, notes, conditions, caregivers, activities, alerts, chat
  staff: ['admin', 'medico', 'enfermeria', 'consulta'], // opinion form, form validation (no record changes)
} as const satisfies Record<string, readonly Role[]>;
type Kind = keyof typeof KINDS;

/** The permission table: operation → kind of write. `portal: true` marks the one write a patient token may also make. */
const PERMISSIONS: Record<string, { kind: Kind; portal?: true }> = {
  'PUT /clients/{id}': { kind: 'administer' },
  'PATCH /clients/{id}': { kind: 'administer' },
  'POST /feedbacks': { kind: 'staff' },
  'POST /tags': { kind: 'administer' },
  'PUT /tags/{id}': { kind: 'administer' },
  'PATCH /tags/{id}': { kind: 'administer' },
  'DELETE /tags/{id}': { kind: 'administer' },
  'POST /patients': { kind: 'clinical' },
  'POST /patients/validate': { kind: 'staff' },
  'PUT /patients/{id}': { kind: 'clinical' },
  'PATCH /patients/{id}': { kind: 'clinical' },
  'DELETE /patients/{id}/portal_lock': { kind: 'clinical' },
  'POST /patients/{id}/measurements': { kind: 'clinical' },
  'PUT /patients/{id}/measurements/{mid}': { kind: 'clinical' },
  'PATCH /patients/{id}/measurements/{mid}': { kind: 'clinical' },
  'POST /devices': { kind: 'administer' },
  'DELETE /devices/{id}': { kind: 'administer' },
  'POST /devices/{id}/secret': { kind: 'administer' },
  'POST /client_prompts': { kind: 'administer' },
  'PUT /client_prompts/{promptId}': { kind: 'administer' },
  'PATCH /client_prompts/{promptId}': { kind: 'administer' },
  'DELETE /client_prompts/{promptId}': { kind: 'administer' },
  'POST /tags/{id}/prompts': { kind: 'administer' },
  'PUT /tags/{id}/prompts/{promptId}': { kind: 'administer' },
  'PATCH /tags/{id}/prompts/{promptId}': { kind: 'administer' },
  'DELETE /tags/{id}/prompts/{promptId}': { kind: 'administer' },
  // A patient's own AI instruction is part of its clinical record (P97).
  'POST /patients/{id}/prompts': { kind: 'clinical' },
  'PUT /patients/{id}/prompts/{promptId}': { kind: 'clinical' },
  'PATCH /patients/{id}/prompts/{promptId}': { kind: 'clinical' },
  'DELETE /patients/{id}/prompts/{promptId}': { kind: 'clinical' },
  'POST /patients/{id}/observations': { kind: 'clinical' },
  'DELETE /patients/{id}/observations/{observationId}': { kind: 'clinical' },
  'POST /patients/{id}/conditions': { kind: 'clinical' },
  'PUT /patients/{id}/conditions/{conditionId}': { kind: 'clinical' },
  'PATCH /patients/{id}/conditions/{conditionId}': { kind: 'clinical' },
  'DELETE /patients/{id}/conditions/{conditionId}': { kind: 'clinical' },
  // The history the patient states for the RDA (issue 51): written by whoever writes conditions.
  'POST /patients/{id}/allergies': { kind: 'clinical' },
  'PUT /patients/{id}/allergies/{allergyId}': { kind: 'clinical' },
  'DELETE /patients/{id}/allergies/{allergyId}': { kind: 'clinical' },
  'POST /patients/{id}/family_history': { kind: 'clinical' },
  'PUT /patients/{id}/family_history/{familyHistoryId}': { kind: 'clinical' },
  'DELETE /patients/{id}/family_history/{familyHistoryId}': { kind: 'clinical' },
  'POST /patients/{id}/clinical_observations': { kind: 'clinical' },
  'POST /patients/{id}/caregivers': { kind: 'clinical' },
  'PUT /patients/{id}/caregivers/{caregiverId}': { kind: 'clinical' },
  'PATCH /patients/{id}/caregivers/{caregiverId}': { kind: 'clinical' },
  'DELETE /patients/{id}/caregivers/{caregiverId}': { kind: 'clinical' },
  // 01 §7 'set caregiver': a GET that links a caregiver (the PUT above under another name).
  'GET /patients/patient_id={id}/set_caregiver': { kind: 'clinical' },
  'POST /patients/{id}/orders': { kind: 'orders' },
  'POST /patients/{id}/orders/bulk': { kind: 'orders' },
  // The sample body only switches notifications: managing activities, not editing the order.
  'PUT /patients/{id}/orders/{orderId}': { kind: 'clinical' },
  'PATCH /patients/{id}/orders/{orderId}': { kind: 'clinical' },
  'POST /patients/{id}/orders/{orderId}/activities': { kind: 'clinical' },
  'PUT /patients/{id}/orders/{orderId}/activities/{activityId}': { kind: 'clinical' },
  'PATCH /patients/{id}/orders/{orderId}/activities/{activityId}': { kind: 'clinical' },
  // Medication confirmation: staff who manage activities, or the patient itself (D11, P53).
  'POST /patients/{id}/activities/{activityId}/confirm': { kind: 'clinical', portal: true },
  'POST /alarms': { kind: 'administer' },
  'PUT /alarms/{id}': { kind: 'administer' },
  'PATCH /alarms/{id}': { kind: 'administer' },
  'DELETE /alarms/{id}': { kind: 'administer' },
  'PUT /patients/{id}/alerts/{alertId}': { kind: 'clinical' },
  'PATCH /patients/{id}/alerts/{alertId}': { kind: 'clinical' },
  'POST /patients/{id}/alerts/{alertId}/alert_entries': { kind: 'clinical' },
  'POST /users': { kind: 'administer' },
  'PUT /users/{id}': { kind: 'administer' },
  'PATCH /users/{id}': { kind: 'administer' },
  'DELETE /users/{id}/sessions': { kind: 'administer' },
  'DELETE /users/{id}/factors': { kind: 'administer' },
  'PUT /users/{id}/break_glass': { kind: 'administer' },
  'POST /supplies': { kind: 'administer' },
  'PUT /supplies/{id}': { kind: 'administer' },
  'PATCH /supplies/{id}': { kind: 'administer' },
  'POST /stocks': { kind: 'administer' },
  'PUT /stocks/{id}': { kind: 'administer' },
  'PATCH /stocks/{id}': { kind: 'administer' },
  'POST /moves': { kind: 'administer' },
  'POST /patients/{id}/encounters': { kind: 'clinical' },
  'POST /patients/create_Encounter_vacunation': { kind: 'clinical' },
  'PUT /encounters/{id}': { kind: 'clinical' },
  'PATCH /encounters/{id}': { kind: 'clinical' },
  // The teleconsultation (issue 51): written and closed by whoever writes encounters.
  'PATCH /encounters/{id}/teleconsultation': { kind: 'clinical' },
  'POST /encounters/{id}/close': { kind: 'clinical' },
  // Its nota aclaratoria, by the same writers (issue 51).
  'POST /encounters/{id}/amendments': { kind: 'clinical' },
  'POST /observations': { kind: 'clinical' },
  'PUT /observations/{id}': { kind: 'clinical' },
  'PATCH /observations/{id}': { kind: 'clinical' },
  'POST /webhooks/deliveries/{id}/resend': { kind: 'administer' },
  // Integration credentials (issue 37), as the webhook settings.
  'POST /api_clients': { kind: 'administer' },
  'PATCH /api_clients/{id}': { kind: 'administer' },
  'DELETE /api_clients/{id}': { kind: 'administer' },
  'POST /fhir_exports': { kind: 'administer' },
  'DELETE /fhir_exports/{id}': { kind: 'administer' },
  // Issue 51: the Ministry's platform credentials and a document's resend, as the webhook's.
  'PUT /clients/{id}/ihce': { kind: 'administer' },
  'POST /clients/{id}/ihce/test': { kind: 'administer' },
  'POST /rdas/{id}/resend': { kind: 'administer' },
  'POST /patients/{id}/messages': { kind: 'clinical' },
  'PUT /patients/{id}/sme_info': { kind: 'clinical' },
  'PATCH /patients/{id}/sme_info': { kind: 'clinical' },
  'POST /patients/{id}/welcome': { kind: 'clinical' },
  // 'Mis notificaciones' (issue 20): every user changes their own channels and priorities.
  'PUT /my_notifications': { kind: 'staff' },
  'PATCH /my_notifications': { kind: 'staff' },
};

/** Patient updates whose permission depends on the fields sent (01 §6). */
const PATIENT_UPDATE_VARIANTS: Array<{ name: string; body: (ids: Ids) => object; kind: Kind }> = [
  { name: 'alarm assignment (config_alerts)', body: (ids) => ({ alarm_ids: [ids.alarms] }), kind: 'orders' },
  { name: 'tags and clinical history (add_tags)', body: (ids) => ({ tag_ids: [ids.tags], clinic_history: 'HC-1' }), kind: 'clinical' },
  { name: 'status change (change_status)', body: () => ({ status: 1 }), kind: 'clinical' },
];

/** Writes that change a patient or add to its record: tried on an inactive and a deceased patient. */
const onPatient = (o: Operation) =>
  o.path.startsWith('/patients/{id}') ||
  [
    '/encounters/{id}',
    '/encounters/{id}/teleconsultation',
    '/encounters/{id}/close',
    '/encounters/{id}/amendments',
    '/observations',
    '/observations/{id}',
    '/patients/create_Encounter_vacunation',
    '/patients/patient_id={id}/set_caregiver',
  ].includes(o.path);

/** An inactive patient keeps its record editable but gets no readings (01 §4), orders, activity changes or alert configuration (P2). */
const REFUSED_WHEN_INACTIVE = new Set([
  'POST /patients/{id}/measurements',
  'POST /patients/{id}/orders',
  'POST /patients/{id}/orders/bulk',
  'PUT /patients/{id}/orders/{orderId}',
  'PATCH /patients/{id}/orders/{orderId}',
  'POST /patients/{id}/orders/{orderId}/activities',
  'PUT /patients/{id}/orders/{orderId}/activities/{activityId}',
  'PATCH /patients/{id}/orders/{orderId}/activities/{activityId}',
  'POST /patients/{id}/activities/{activityId}/confirm',
]);

/**
 * What a patient (portal) token may read (03 §2, P146): the portal's own calls and nothing else. Every
 * other read of the contract answers it 401, as staff-only calls do; alerts, staff notes and staff
 * names, catalogues and the client's tags never reach it.
 */
const PORTAL_READS = new Set([
  'GET /patients/{id}',
  'GET /patients/{id}/measurements',
  'GET /patients/{id}/show_pdf',
  'GET /patients/{id}/alarms',
]);
const staffReads = operations.filter((o) => o.method === 'get' && !isPublic(o));

/**
 * Session endpoints are not writes on a resource: logout is covered by tokens.test.ts. A user's own
 * second factor ('Seguridad', any role, their own account only) is covered by tests/api/factors.test.ts.
 */
const NOT_A_RESOURCE = new Set([
  'DELETE /sessions',
  'DELETE /sessions/mine',
  'DELETE /sessions/{id}',
  'POST /me/factors/totp',
  'POST /me/factors/totp/confirm',
  'POST /me/factors/totp/remove',
  'POST /me/factors/recovery-codes',
  'POST /me/factors/passkeys/options',
  'POST /me/factors/passkeys',
  'PATCH /me/factors/passkeys/{id}',
  'DELETE /me/factors/passkeys/{id}',
]);

const ORDER = { post: 0, get: 1, put: 1, patch: 2, delete: 3 } as Record<string, number>;
const staffWrites = operations
  .filter((o) => isWrite(o) && !isPublic(o) && !NOT_A_RESOURCE.has(o.name))
  .sort((x, y) => ORDER[x.method] - ORDER[y.method]); // deletions last, so earlier writes still find their rows

let t: TestProduct;
let org: Org;
let client: Ids;
let active: Ids;
let inactive: Ids;
let deceased: Ids;
let portalToken: string;
const figures = { operations: 0, calls: 0, refused403: 0, refused401: 0, allowedOk: 0, allowedOther: 0, statusChecks: 0 };

beforeAll(async () => {
  t = await startTestProduct();
  org = await createOrg(t, 'Clinica Roles');
  client = await seedClient(t, org, 'ROL');
  active = { ...client, ...(await seedPatient(t, org, client, '7100000001')) };
  inactive = { ...client, ...(await seedPatient(t, org, client, '7100000002', 0)) };
  deceased = { ...client, ...(await seedPatient(t, org, client, '7100000003', 3)) };
  portalToken = await patientToken(t, org, '7100000001', '3001234567');
}, 120_000);
afterAll(async () => {
  console.info(`[security] roles: ${JSON.stringify(figures)}`);
  await t?.stop();
});

/** Every row of the client, read straight from the database. */
async function snapshot() {
  const out: Record<string, unknown[]> = {};
  const byClient = [
    'patients',
    'tags',
    'clients',
    'measurements',
    'devices',
    'users',
    'supplies',
    'stocks',
    'moves',
    'encounters',
    'alarms',
    'alerts',
    'orders',
    'activities',
    'encounter_observations',
    'prompts',
    'observations',
    'patient_conditions',
    'patient_allergies',
    'patient_family_history',
    'caregivers',
    'webhook_deliveries',
    'feedbacks',
    'api_clients',
    'fhir_exports',
    'rdas',
    'ihce_settings',
  ];
  for (const table of byClient) {
    const where = table === 'clients' ? 'id = :c' : table === 'supplies' || table === 'feedbacks' ? '1 = 1' : 'client_id = :c';
    out[table] = await select(t.sequelize, `SELECT * FROM ${table} WHERE ${where} ORDER BY 1`, { c: org.clientId });
  }
  out.patient_messaging = await select(t.sequelize, 'SELECT * FROM patient_messaging WHERE client_id = :c ORDER BY 1', { c: org.clientId });
  out.patient_tags = await select(
    t.sequelize,
    'SELECT pt.* FROM patient_tags pt JOIN tags g ON g.id = pt.tag_id WHERE g.client_id = :c ORDER BY 1, 2',
    { c: org.clientId },
  );
  out.alert_entries = await select(
    t.sequelize,
    'SELECT e.* FROM alert_entries e JOIN alerts al ON al.id = e.alert_id WHERE al.client_id = :c ORDER BY e.id',
    { c: org.clientId },
  );
  return out;
}

function call(o: Operation, ids: Ids, token: string, body?: object) {
  const schema = schemaOf(o);
  const payload = body ?? (schema ? sampleBody(schema, ids) : undefined);
  if (schema) expect(payload, `no sample body for ${schema}`).toBeDefined();
  const req = requestFor(t, o.method, urlOf(o, ids)).set(bearer(token));
  return payload !== undefined ? req.send(payload) : req;
}

// Before the role matrix, whose writes change the patient's tags and alerts.
describe('portal token reach (P146)', () => {
  /** Required query values (the contract checks them before the session) and path parameters the write fixtures do not hold. */
  const QUERY: Record<string, string> = {
    'GET /listings/id_types_full': '?country_id=26',
    'GET /search': '?type=cities',
    'GET /reports/client_measurements': '?hours=24',
  };
  const readUrl = (o: Operation) =>
    urlOf({ ...o, path: o.path.replace('{list_name}', 'tags').replace('{code}', '0001') }, { ...active, medicineId: 1 }) +
    (QUERY[o.name] ?? '');

  it('has the portal reads in the contract', () => {
    expect([...PORTAL_READS].filter((n) => !staffReads.some((o) => o.name === n))).toEqual([]);
  });

  it.each(staffReads.map((o) => [o.name, o] as const))('%s answers a patient token as the portal needs', async (_n, o) => {
    const res = await t.http.get(readUrl(o)).set(bearer(portalToken));
    figures.calls++;
    if (PORTAL_READS.has(o.name)) {
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      figures.allowedOk++;
    } else {
      expect(res.status, `patient token: ${JSON.stringify(res.body)}`).toBe(401);
      expect(res.body).toEqual({ code: 'unauthorized', message: 'Su sesión no es válida o ha expirado. Inicie sesión de nuevo.' });
      figures.refused401++;
    }
  });

  it("gives the patient its own record without the staff's tags or alert count", async () => {
    const url = `/api/v1/patients/${active.patients}`;
    const staff = (await t.http.get(url).set(bearer(org.tokens.admin))).body;
    expect(staff.tags.map((g: { id: number }) => g.id)).toContain(client.tags);
    expect(staff.active_alerts_count).toBeGreaterThan(0);
    const own = await t.http.get(url).set(bearer(portalToken));
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ id: active.patients, nid: staff.nid, tags: [], tag_ids: [], active_alerts_count: null });
    expect(Object.values(own.body.permissions)).not.toContain(true);
  });
});

describe('role matrix', () => {
  it('has a row for every staff write of the contract, and no row for an operation that is gone', () => {
    const names = staffWrites.map((o) => o.name);
    expect(
      names.filter((n) => !PERMISSIONS[n]),
      'writes without a row in the permission table',
    ).toEqual([]);
    expect(
      Object.keys(PERMISSIONS).filter((n) => !names.includes(n)),
      'rows for operations not in the contract',
    ).toEqual([]);
  });

  it.each(PATIENT_UPDATE_VARIANTS.map((v) => [v.name, v] as const))(
    'patient update with %s answers each role as the table says',
    async (_n, v) => {
      const o = staffWrites.find((w) => w.name === 'PUT /patients/{id}')!;
      const allowed = KINDS[v.kind] as readonly Role[];
      const before = await snapshot();
      for (const role of ROLES.filter((r) => !allowed.includes(r))) {
        expect((await call(o, active, org.tokens[role], v.body(active))).status, role).toBe(403);
        figures.calls++;
        figures.refused403++;
      }
      expect(await snapshot()).toEqual(before);
      for (const role of ROLES.filter((r) => allowed.includes(r))) {
        const res = await call(o, active, org.tokens[role], v.body(active));
        figures.calls++;
        expect(res.status, `${role}: ${JSON.stringify(res.body)}`).toBe(200);
        figures.allowedOk++;
      }
    },
  );

  it.each(staffWrites.map((o) => [o.name, o] as const))('%s answers each role as the table says', async (_n, o) => {
    const rule = PERMISSIONS[o.name];
    expect(rule, `no permission row for ${o.name}`).toBeDefined();
    figures.operations++;
    const before = await snapshot();
    // A patient (portal) token on a staff call is not a session the call accepts.
    const asPatient = await call(o, active, portalToken);
    figures.calls++;
    if (!rule.portal) {
      expect(asPatient.status, `patient token: ${JSON.stringify(asPatient.body)}`).toBe(401);
      figures.refused401++;
    } else expect(asPatient.status).toBeLessThan(500);
    const allowed = KINDS[rule.kind] as readonly Role[];
    for (const role of ROLES.filter((r) => !allowed.includes(r))) {
      const res = await call(o, active, org.tokens[role]);
      figures.calls++;
      expect(res.status, `${role}: ${JSON.stringify(res.body)}`).toBe(403);
      expect(res.body.message).toBe('Su rol no permite realizar esta acción.');
      figures.refused403++;
    }
    if (!rule.portal) expect(await snapshot(), 'a refused call changed data').toEqual(before);
    for (const role of ROLES.filter((r) => allowed.includes(r))) {
      const res = await call(o, active, org.tokens[role]);
      figures.calls++;
      expect([401, 403], `${role} is allowed: ${JSON.stringify(res.body)}`).not.toContain(res.status);
      expect(res.status, `${role}: ${JSON.stringify(res.body)}`).toBeLessThan(500);
      if (res.status < 300) figures.allowedOk++;
      else figures.allowedOther++;
    }
  });
});

describe('every patient status', () => {
  const patientWrites = staffWrites.filter(onPatient);

  it('covers the patient record writes', () => {
    expect(patientWrites.length).toBeGreaterThan(30);
  });

  it.each(patientWrites.map((o) => [o.name, o] as const))('%s: a deceased patient accepts no change', async (_n, o) => {
    const url = `/api/v1/patients/${deceased.patients}`;
    const before = { rows: await snapshot(), record: (await t.http.get(url).set(bearer(org.tokens.admin))).body };
    for (const role of ['admin', 'medico'] as const) {
      const res = await call(o, deceased, org.tokens[role]);
      figures.statusChecks++;
      // Refused as a state conflict or as a forbidden change, always saying why in Spanish.
      expect([403, 409], `${role}: ${res.status} ${JSON.stringify(res.body)}`).toContain(res.status);
      expect(res.body.message, JSON.stringify(res.body)).toMatch(/falleci/);
    }
    expect(await snapshot()).toEqual(before.rows);
    expect((await t.http.get(url).set(bearer(org.tokens.admin))).body).toEqual(before.record);
  });

  it.each(patientWrites.map((o) => [o.name, o] as const))('%s: an inactive patient answers as P2 says', async (_n, o) => {
    const res = await call(o, inactive, org.tokens.admin);
    figures.statusChecks++;
    if (REFUSED_WHEN_INACTIVE.has(o.name)) {
      expect([403, 409], `${res.status} ${JSON.stringify(res.body)}`).toContain(res.status);
      expect(res.body.message).toMatch(/inactiv/i);
    } else {
      expect([401, 403], JSON.stringify(res.body)).not.toContain(res.status);
      expect(res.status, JSON.stringify(res.body)).toBeLessThan(500);
    }
  });
});
