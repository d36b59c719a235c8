import { describe, expect, it } from 'vitest';
import { loadContract } from '../../http/contract';
import {
  AUDIT_ACTIONS,
  AUDIT_RESOURCES,
  changesText,
  describeRequest,
  fhirAccessPatient,
  fhirAccessSummary,
  type FhirAccess,
  REDACTED,
  redact,
  auditTable,
  ruleFor,
  validateRange,
  type AuditInput,
} from './audit.rules';
import { localToUtc } from '@vigia/contract/rules/activities';

const paths = (loadContract().doc as { paths: Record<string, Record<string, unknown>> }).paths;
const table = auditTable(paths);
const describe_ = (input: AuditInput) => describeRequest(input, table);

const req = (method: string, pattern: string, params: Record<string, string> = {}, body: unknown = {}, status = 200): AuditInput => ({
  method,
  pattern,
  params,
  body,
  status,
});

describe('audit rules: what a request means', () => {
  it.each([
    // method, pattern, params, → resource, action, resource_id, patient
    ['PUT', '/patients/:id', { id: '7' }, 'patient', 'update', '7', 7],
    ['PATCH', '/patients/:id', { id: '7' }, 'patient', 'update', '7', 7],
    ['POST', '/patients', {}, 'patient', 'create', null, { table: undefined, rowId: undefined }],
    ['PUT', '/patients/:id/alerts/:alertId', { id: '7', alertId: '31' }, 'alert', 'close', '31', 7],
    ['PATCH', '/patients/:id/alerts/:alertId', { id: '7', alertId: '31' }, 'alert', 'close', '31', 7],
    ['POST', '/patients/:id/alerts/:alertId/alert_entries', { id: '7', alertId: '31' }, 'alert', 'create', '31', 7],
    ['POST', '/patients/:id/orders', { id: '7' }, 'order', 'create', null, 7],
    ['POST', '/patients/:id/orders/bulk', { id: '7' }, 'order', 'create', null, 7],
    ['PUT', '/patients/:id/orders/:orderId', { id: '7', orderId: '4' }, 'order', 'update', '4', 7],
    [
      'PATCH',
      '/patients/:id/orders/:orderId/activities/:activityId',
      { id: '7', orderId: '4', activityId: '9' },
      'activity',
      'update',
      '9',
      7,
    ],
    ['POST', '/patients/:id/activities/:activityId/confirm', { id: '7', activityId: '9' }, 'activity', 'confirm', '9', 7],
    ['PUT', '/patients/:id/measurements/:mid', { id: '7', mid: '5' }, 'measurement', 'delete', '5', 7],
    ['DELETE', '/patients/:id/portal_lock', { id: '7' }, 'patient', 'unlock', '7', 7],
    ['PUT', '/patients/:id/sme_info', { id: '7' }, 'messaging', 'update', '7', 7],
    ['PUT', '/clients/:id', { id: '2' }, 'settings', 'update', '2', null],
    ['PATCH', '/clients/:id', { id: '2' }, 'settings', 'update', '2', null],
    ['POST', '/alarms', {}, 'alarm', 'create', null, null],
    ['DELETE', '/alarms/:id', { id: '3' }, 'alarm', 'delete', '3', null],
    ['PATCH', '/tags/:id', { id: '3' }, 'tag', 'update', '3', null],
    ['PUT', '/tags/:id/prompts/:promptId', { id: '3', promptId: '8' }, 'prompt', 'update', '8', null],
    ['POST', '/users', {}, 'user', 'create', null, null],
    ['POST', '/webhooks/deliveries/:id/resend', { id: '12' }, 'webhook', 'resend', '12', null],
    ['POST', '/devices/:id/secret', { id: '6' }, 'device', 'rotate_secret', '6', null],
    ['PUT', '/encounters/:id', { id: '15' }, 'encounter', 'update', '15', { table: 'encounters', rowId: '15' }],
    ['PATCH', '/observations/:id', { id: '16' }, 'encounter_observation', 'update', '16', { table: 'encounter_observations', rowId: '16' }],
    ['POST', '/sessions', {}, 'session', 'sign_in', null, null],
    ['DELETE', '/sessions', {}, 'session', 'sign_out', null, null],
    ['POST', '/verify_otp', {}, 'session', 'sign_in', null, null],
  ])('%s %s → %s %s', (method, pattern, params, resource, action, resourceId, patient) => {
    const d = describe_(req(method, pattern, params as Record<string, string>));
    expect(d).toMatchObject({ resource, action, resource_id: resourceId, patient });
  });

  it.each([
    ['GET', '/patients/:id'],
    ['POST', '/devices/:card_id/readings'],
    ['POST', '/patients/validate'],
    ['POST', '/request_otp'],
    ['POST', '/sso/authorize'],
  ])('records nothing for %s %s (a read, a check, or device traffic)', (method, pattern) => {
    expect(describe_(req(method, pattern))).toBeNull();
  });

  it.each([400, 401, 403, 404, 409, 429, 500, 503])('records nothing for a change answered %i', (status) => {
    expect(describe_(req('PUT', '/patients/:id', { id: '7' }, { first_name: 'ANA' }, status))).toBeNull();
  });

  it('turns a refused staff sign-in into sign_in_failed, but not a rate-limited one', () => {
    expect(describe_(req('POST', '/sessions', {}, { email: 'a@b.co', password: 'x' }, 401))).toMatchObject({
      action: 'sign_in_failed',
      summary: 'Intento de inicio de sesión fallido',
    });
    expect(describe_(req('POST', '/sessions', {}, { email: 'a@b.co', password: 'x' }, 429))).toBeNull();
  });

  it('names exactly the actions and resources the contract lists (openapi.yaml AuditAction, AuditResource)', () => {
    const schemas = (loadContract().doc as { components: { schemas: Record<string, { enum: string[] }> } }).components.schemas;
    expect([...AUDIT_ACTIONS].sort()).toEqual([...schemas.AuditAction.enum].sort());
    expect(Object.keys(AUDIT_RESOURCES).sort()).toEqual([...schemas.AuditResource.enum].sort());
  });

  it('gives every write operation of the contract an x-audit: a named resource, or false', () => {
    const unnamed: string[] = [];
    let named = 0;
    for (const [path, item] of Object.entries(paths)) {
      for (const method of ['post', 'put', 'patch', 'delete'].filter((m) => item[m])) {
        const pattern = path.replace(/\{(\w+)\}/g, ':$1');
        if (!table.has(`${method.toUpperCase()} ${pattern}`)) unnamed.push(`${method} ${pattern}`);
        else if (ruleFor(method, pattern, table)) named += 1;
      }
    }
    expect(unnamed).toEqual([]);
    expect(named).toBeGreaterThan(70);
  });

  it('still records a route no operation names, under its own path', () => {
    expect(ruleFor('POST', '/something_new/:id', table)).toMatchObject({ action: 'create', summary: 'Creó /something_new/:id' });
  });

  it.each([
    [{ action: 'borrar', resource: 'tag' }, /action 'borrar'/],
    [{ action: 'delete', resource: 'tags' }, /resource 'tags'/],
    ['create', /must be false/],
  ])('refuses a malformed x-audit at start-up (%j)', (ext, message) => {
    const contract = { '/tags/{id}': { delete: { operationId: 'deleteTag', 'x-audit': ext } } };
    expect(() => auditTable(contract)).toThrow(message);
    expect(() => auditTable(contract)).toThrow(/deleteTag/);
  });

  it('reads the patient and the row from the extension', () => {
    const own = auditTable({
      '/things/{thingId}': {
        put: {
          operationId: 'x',
          'x-audit': {
            action: 'update',
            resource: 'encounter',
            id: 'thingId',
            patient: { answer: true, table: 'encounters', param: 'thingId' },
          },
        },
        delete: { operationId: 'y', 'x-audit': false },
      },
    });
    expect(describeRequest(req('PUT', '/things/:thingId', { thingId: '4' }), own)).toMatchObject({
      resource: 'encounter',
      resource_id: '4',
      patient: { table: 'encounters', rowId: '4' },
    });
    expect(describeRequest(req('DELETE', '/things/:thingId', { thingId: '4' }), own)).toBeNull();
  });

  it.each([
    [req('PUT', '/patients/:id', { id: '1' }, { first_name: 'ANA', cellphone: '300' }), 'Actualizó el paciente: first_name, cellphone'],
    [req('PUT', '/patients/:id', { id: '1' }, { a: 1, b: 2, c: 3, d: 4, e: 5 }), 'Actualizó el paciente: a, b, c, d…'],
    [req('PUT', '/patients/:id/alerts/:alertId', { id: '1', alertId: '2' }, { status: 2 }), 'Cerró la alerta'],
    [req('POST', '/patients/:id/orders', { id: '1' }, { order_type: 1 }), 'Creó la orden'],
    [req('PATCH', '/clients/:id', { id: '1' }, { name: 'X' }), 'Actualizó la configuración de la institución: name'],
    [req('DELETE', '/tags/:id', { id: '1' }), 'Eliminó la etiqueta'],
    [req('POST', '/sessions', {}, {}, 201), 'Inició sesión'],
  ])('summarises %j as %s', (input, summary) => {
    expect(describe_(input)?.summary).toBe(summary);
  });
});

describe('audit rules: secrets never stored (D20)', () => {
  it.each([
    ['password', { email: 'a@b.co', password: 'Secreta@2026' }],
    ['password_confirmation', { password_confirmation: 'Secreta@2026' }],
    ['residents_password', { residents_password: 'Secreta@2026' }],
    ['security_phrase', { security_phrase: 'Secreta@2026', webhook_url: 'https://x.co' }],
    ['otp_code', { otp_code: '123456', nid: '1' }],
    ['client_secret', { sso: { client_secret: 'Secreta@2026' } }],
    ['secret', { devices: [{ secret: 'Secreta@2026' }] }],
    ['token', { token: 'Secreta@2026' }],
    ['code', { code: 'Secreta@2026', state: 'abc' }],
    ['recovery_code', { token: 'x', recovery_code: 'Secreta@2026' }],
    // The IHCE platform's API gateway key (issue 51).
    ['subscription_key', { client_id: 'ips', subscription_key: 'Secreta@2026' }],
  ])('masks %s at any depth', (key, body) => {
    const text = changesText(body)!;
    expect(text).not.toContain('Secreta@2026');
    expect(text).not.toContain('123456');
    expect(text).toContain(REDACTED);
    expect(text).toContain(key);
  });

  it('keeps ordinary fields and an empty secret as sent (an emptied secret is not a secret)', () => {
    expect(redact({ first_name: 'ANA', alarm_ids: [1, 2], security_phrase: null, residents_password: '' })).toEqual({
      first_name: 'ANA',
      alarm_ids: [1, 2],
      security_phrase: null,
      residents_password: '',
    });
  });

  it('cuts long strings and lists, and never stores more than 4000 characters', () => {
    const out = redact({ description: 'x'.repeat(500), ids: Array.from({ length: 30 }, (_, i) => i) }) as {
      description: string;
      ids: unknown[];
    };
    expect(out.description).toHaveLength(201);
    expect(out.ids).toHaveLength(21);
    expect(out.ids.at(-1)).toBe('… 10 más');
    const huge = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`f${i}`, 'y'.repeat(190)]));
    const text = changesText(huge)!;
    expect(text.length).toBeLessThanOrEqual(4000);
    expect(JSON.parse(text)).toMatchObject({ _truncado: true });
  });

  it('stores nothing for an empty body', () => {
    expect(changesText({})).toBeNull();
    expect(changesText(undefined)).toBeNull();
  });
});

describe('audit rules: date filters', () => {
  it.each([
    ['2026-11-22', 'America/Bogota', '2026-11-22T05:00:00.000Z'],
    ['2026-11-22', 'UTC', '2026-11-22T00:00:00.000Z'],
    ['2026-07-01', 'Europe/Madrid', '2026-06-30T22:00:00.000Z'],
    ['2026-01-15', 'Europe/Madrid', '2026-01-14T23:00:00.000Z'],
  ])('%s starts in %s at %s (localToUtc, the day start the filters use)', (day, zone, iso) => {
    expect(localToUtc(day, 0, zone).toISOString()).toBe(iso);
  });

  it.each([
    [undefined, undefined, null],
    ['2026-11-01', '2026-11-01', null],
    ['2026-11-02', '2026-11-01', 'to'],
  ])('from %s to %s → %s', (from, to, field) => {
    expect(validateRange(from, to)?.field ?? null).toBe(field);
  });
});

describe('audit rules: a FHIR read or search told in one line (issue 37)', () => {
  const found = (shown: number, pageSize: number, total: number | null, countOnly = false) => ({ shown, pageSize, total, countOnly });
  it.each<[FhirAccess, string]>([
    [{ action: 'fhir_read', type: 'Patient', id: 'p12', apiClient: null }, 'Leyó Patient/p12'],
    [{ action: 'fhir_read', type: 'Patient', id: 'p12', apiClient: 'HIS Central' }, 'Leyó Patient/p12; cliente de API HIS Central'],
    [
      { action: 'fhir_search', type: 'Observation', id: null, found: found(37, 100, null), apiClient: null },
      'Buscó 37 Observation (página de hasta 100)',
    ],
    [
      { action: 'fhir_search', type: 'Observation', id: null, found: found(7, 100, 7), apiClient: 'HIS' },
      'Buscó 7 Observation (página de hasta 100; 7 en total); cliente de API HIS',
    ],
    [
      { action: 'fhir_search', type: 'Patient', id: null, found: found(0, 50, 1200, true), apiClient: null },
      'Buscó Patient: 1200 en total (solo el recuento)',
    ],
  ])('%j → %s', (access, summary) => {
    expect(fhirAccessSummary(access)).toBe(summary);
  });

  it.each<[string, Array<Record<string, unknown>>, number | null]>([
    ['a Patient read', [{ resourceType: 'Patient', id: 'p12' }], 12],
    [
      'readings of one patient',
      [
        { resourceType: 'Observation', subject: { reference: 'Patient/p7' } },
        { resourceType: 'Observation', subject: { reference: 'Patient/p7' } },
      ],
      7,
    ],
    ['a medication order (patient, not subject)', [{ resourceType: 'MedicationRequest', subject: { reference: 'Patient/p3' } }], 3],
    ['a caregiver', [{ resourceType: 'RelatedPerson', patient: { reference: 'Patient/p9' } }], 9],
    [
      'two patients',
      [
        { resourceType: 'Patient', id: 'p1' },
        { resourceType: 'Patient', id: 'p2' },
      ],
      null,
    ],
    ['a Group (no patient of its own)', [{ resourceType: 'Group', id: 't4' }], null],
    [
      'one of them without a patient',
      [
        { resourceType: 'Observation', subject: { reference: 'Patient/p7' } },
        { resourceType: 'Device', id: 'd1' },
      ],
      null,
    ],
    ['nothing found', [], null],
    ['a reference that is not ours', [{ resourceType: 'Observation', subject: { reference: 'Patient/abc' } }], null],
  ])('the patient of %s', (_name, resources, patient) => {
    expect(fhirAccessPatient(resources)).toBe(patient);
  });

  it('fits the trail’s 300 characters whatever the client’s name', () => {
    const long = fhirAccessSummary({ action: 'fhir_read', type: 'Patient', id: 'p1', apiClient: 'x'.repeat(400) });
    expect(long).toHaveLength(300);
    expect(long.startsWith('Leyó Patient/p1; cliente de API xx')).toBe(true);
  });
});
