import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { startTestProduct, createOrg, bearer, patientBody, type TestProduct, type Org } from '../support/product';

let t: TestProduct;
let org: Org;
let other: Org;
beforeAll(async () => {
  t = await startTestProduct();
  org = await createOrg(t, 'Clinica Alarmas');
  other = await createOrg(t, 'Clinica Ajena');
});
afterAll(() => t.stop());

const rule = (overrides: Record<string, unknown> = {}) => ({
  name: 'Taquicardia',
  clinical_element: 1,
  priority: 1,
  minimum_condition: 50,
  maximum_condition: 110,
  ...overrides,
});
const createRule = async (overrides: Record<string, unknown> = {}, token = org.tokens.admin) =>
  t.http.post('/api/v1/alarms?owner=client').set(bearer(token)).send(rule(overrides));
const newPatient = async (token = org.tokens.admin) => (await t.http.post('/api/v1/patients').set(bearer(token)).send(patientBody())).body;

describe('POST /alarms', () => {
  it('creates a rule with the fields of 02 §7 and element names', async () => {
    const res = await createRule({ ia_alarm: true, prompt_ia: 'Pide repetir la medición', alarm_default_new_patients: false });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: 'Taquicardia',
      type: 1,
      clinical_element: 1,
      clinical_element_name: 'Frecuencia cardiaca',
      clinical_element_unit: 'lpm',
      priority: 1,
      priority_name: 'Alta',
      minimum_condition: 50,
      maximum_condition: 110,
      ia_alarm: true,
      ia_script: 'alarma_predeterminada',
      prompt_ia: 'Pide repetir la medición',
      request_repeat_measurement: false,
      patients_count: 0,
      status: 1,
    });
  });

  it('accepts the wrapped body and decimal bounds; equal bounds are allowed', async () => {
    const res = await t.http
      .post('/api/v1/alarms')
      .set(bearer(org.tokens.admin))
      .send({ alarm: rule({ name: 'Fiebre', clinical_element: 7, minimum_condition: 36.5, maximum_condition: 36.5 }) });
    expect(res.status).toBe(201);
    expect(res.body.minimum_condition).toBe(36.5);
  });

  it('refuses a minimum above the maximum with the D16 message', async () => {
    const res = await createRule({ minimum_condition: 120, maximum_condition: 100 });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ field: 'minimum_condition', message: 'Asegúrese de que el valor inicial sea menor al valor final.' });
  });

  it.each([
    [{ name: '' }, 'name'],
    [{ clinical_element: 9 }, 'clinical_element'],
    [{ priority: 4 }, 'priority'],
    [{ minimum_condition: 'bajo' }, 'minimum_condition'],
    [{ maximum_condition: undefined }, 'maximum_condition'],
    [{ maximum_condition: 200000 }, 'maximum_condition'],
  ])('refuses %j with 400 on %s', async (overrides, field) => {
    const res = await createRule(overrides);
    expect(res.status).toBe(400);
    expect(res.body.field, JSON.stringify(res.body)).toBe(field);
  });

  it("takes the name from the form's field name_only (02 §3), alone or equal to name", async () => {
    const { name: _name, ...noName } = rule();
    const only = await t.http
      .post('/api/v1/alarms')
      .set(bearer(org.tokens.admin))
      .send({ ...noName, name_only: 'Bradicardia' });
    expect(only.status, JSON.stringify(only.body)).toBe(201);
    expect(only.body.name).toBe('Bradicardia');
    const both = await createRule({ name: 'Pulso alto', name_only: 'Pulso alto' });
    expect(both.status).toBe(201);
    expect(both.body.name).toBe('Pulso alto');
  });

  it('refuses name and name_only that differ, and a body with neither', async () => {
    const differ = await createRule({ name: 'Taquicardia', name_only: 'Bradicardia' });
    expect(differ.status).toBe(400);
    expect(differ.body).toMatchObject({ field: 'name_only', message: "Los campos 'name' y 'name_only' deben tener el mismo nombre." });
    const { name: _name, ...noName } = rule();
    const neither = await t.http.post('/api/v1/alarms').set(bearer(org.tokens.admin)).send(noName);
    expect(neither.status).toBe(400);
    expect(neither.body).toMatchObject({ field: 'name', message: '¡El campo es requerido!' });
    const short = await createRule({ name: undefined, name_only: 'ab' });
    expect(short.status).toBe(400);
    expect(short.body).toMatchObject({ field: 'name_only', message: 'Debe tener mínimo 3 caracteres y máximo 100' });
  });

  it('clears the AI fields when the AI option is off', async () => {
    const res = await createRule({ name: 'Sin IA', ia_alarm: false, ia_script: 'x', prompt_ia: 'y' });
    expect(res.body).toMatchObject({ ia_alarm: false, ia_script: null, prompt_ia: null });
  });

  it.each(['medico', 'enfermeria', 'consulta'] as const)('refuses writes by %s with 403', async (role) => {
    const own = (await createRule({ name: `Regla ${role}` })).body;
    expect((await createRule({}, org.tokens[role])).status).toBe(403);
    expect((await t.http.put(`/api/v1/alarms/${own.id}`).set(bearer(org.tokens[role])).send({ name: 'Otra' })).status).toBe(403);
    expect((await t.http.delete(`/api/v1/alarms/${own.id}`).set(bearer(org.tokens[role]))).status).toBe(403);
    expect((await t.http.get(`/api/v1/alarms/${own.id}`).set(bearer(org.tokens[role]))).body.name).toBe(`Regla ${role}`);
  });
});

describe('GET /alarms', () => {
  it("lists the client rules paged, with the total in X-Total-Count, never another client's", async () => {
    await createRule({ name: 'Ajena' }, other.tokens.admin);
    const res = await t.http.get('/api/v1/alarms?page=1&per_page=2').set(bearer(org.tokens.consulta));
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(2);
    expect(Number(res.headers['x-total-count'])).toBeGreaterThan(2);
    const all = await t.http.get('/api/v1/alarms?_start=0&_end=100').set(bearer(org.tokens.admin));
    expect(all.body.map((a: { name: string }) => a.name)).not.toContain('Ajena');
    const high = await t.http.get('/api/v1/alarms?priority=1&clinical_element=0&_end=100').set(bearer(org.tokens.admin));
    expect(high.body.every((a: { priority: number; clinical_element: number }) => a.priority === 1 && a.clinical_element === 1)).toBe(true);
  });
});

describe('PUT /alarms/:id', () => {
  it('updates with PUT and PATCH and checks D16 against the stored bound', async () => {
    const created = (await createRule({ name: 'Glucosa alta', clinical_element: 6, minimum_condition: 70, maximum_condition: 180 })).body;
    const put = await t.http
      .put(`/api/v1/alarms/${created.id}`)
      .set(bearer(org.tokens.admin))
      .send({ alarm: { priority: 2, maximum_condition: 200 } });
    expect(put.body).toMatchObject({ priority: 2, priority_name: 'Media', maximum_condition: 200, minimum_condition: 70 });
    const bad = await t.http.patch(`/api/v1/alarms/${created.id}`).set(bearer(org.tokens.admin)).send({ minimum_condition: 250 });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('Asegúrese de que el valor inicial sea menor al valor final.');
  });

  it('renames with name_only; name and name_only that differ are refused and change nothing', async () => {
    const created = (await createRule({ name: 'Saturación baja', clinical_element: 2, minimum_condition: 90, maximum_condition: 100 }))
      .body;
    const renamed = await t.http.patch(`/api/v1/alarms/${created.id}`).set(bearer(org.tokens.admin)).send({ name_only: 'Hipoxemia' });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: 'Hipoxemia', minimum_condition: 90 });
    expect(renamed.body).not.toHaveProperty('name_only');
    const differ = await t.http
      .put(`/api/v1/alarms/${created.id}`)
      .set(bearer(org.tokens.admin))
      .send({ name: 'Uno', name_only: 'Otro', priority: 3 });
    expect(differ.status).toBe(400);
    expect(differ.body).toMatchObject({ field: 'name_only', message: "Los campos 'name' y 'name_only' deben tener el mismo nombre." });
    expect((await t.http.get(`/api/v1/alarms/${created.id}`).set(bearer(org.tokens.admin))).body).toMatchObject({
      name: 'Hipoxemia',
      priority: 1,
    });
  });

  it("answers 404 for another client's rule, as for a missing one", async () => {
    const foreign = (await createRule({ name: 'Privada' }, other.tokens.admin)).body;
    for (const call of [
      t.http.get(`/api/v1/alarms/${foreign.id}`).set(bearer(org.tokens.admin)),
      t.http.put(`/api/v1/alarms/${foreign.id}`).set(bearer(org.tokens.admin)).send({ name: 'Robada' }),
      t.http.delete(`/api/v1/alarms/${foreign.id}`).set(bearer(org.tokens.admin)),
    ]) {
      const res = await call;
      expect(res.status).toBe(404);
    }
    expect((await t.http.get(`/api/v1/alarms/${foreign.id}`).set(bearer(other.tokens.admin))).body.name).toBe('Privada');
  });
});

describe('assignment', () => {
  it('assigns rules with alarm_ids, drops duplicates and lists them by element (0 = 1)', async () => {
    const a = (await createRule({ name: 'FC baja', minimum_condition: 40, maximum_condition: 200 })).body;
    const b = (await createRule({ name: 'Saturación', clinical_element: 2, priority: 3, minimum_condition: 90, maximum_condition: 100 }))
      .body;
    const patient = await newPatient();
    const res = await t.http
      .put(`/api/v1/patients/${patient.id}`)
      .set(bearer(org.tokens.medico))
      .send({ patient: { alarm_ids: [a.id, b.id, a.id] } });
    expect(res.status).toBe(200);
    const list = await t.http.get(`/api/v1/patients/${patient.id}/alarms`).set(bearer(org.tokens.consulta));
    expect(list.body).toHaveLength(2);
    expect(list.body[0]).toEqual({
      id: a.id,
      name: 'FC baja',
      clinical_element: 1,
      priority: 1,
      minimum_condition: 40,
      maximum_condition: 200,
    });
    const heart = await t.http.get(`/api/v1/patients/${patient.id}/alarms?clinical_element=0`).set(bearer(org.tokens.consulta));
    expect(heart.body.map((x: { id: number }) => x.id)).toEqual([a.id]);
    expect((await t.http.get(`/api/v1/alarms/${a.id}`).set(bearer(org.tokens.admin))).body.patients_count).toBe(1);
  });

  it("refuses enfermeria and consulta (no config_alerts) with 403, and another client's rule with 400", async () => {
    const patient = await newPatient();
    const a = (await createRule({ name: 'Asignable' })).body;
    for (const role of ['enfermeria', 'consulta'] as const) {
      expect(
        (
          await t.http
            .put(`/api/v1/patients/${patient.id}`)
            .set(bearer(org.tokens[role]))
            .send({ alarm_ids: [a.id] })
        ).status,
      ).toBe(403);
    }
    const foreign = (await createRule({ name: 'De otro' }, other.tokens.admin)).body;
    const res = await t.http
      .put(`/api/v1/patients/${patient.id}`)
      .set(bearer(org.tokens.admin))
      .send({ alarm_ids: [a.id, foreign.id] });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ field: 'alarm_ids', message: 'Una de las alertas no existe.' });
    expect((await t.http.get(`/api/v1/patients/${patient.id}/alarms`).set(bearer(org.tokens.admin))).body).toEqual([]);
    expect((await t.http.get(`/api/v1/patients/${patient.id}/alarms`).set(bearer(other.tokens.admin))).status).toBe(404);
  });

  it('attaches rules marked for new patients to every new patient', async () => {
    const auto = (
      await createRule({
        name: 'Automática',
        clinical_element: 3,
        minimum_condition: 90,
        maximum_condition: 140,
        alarm_default_new_patients: true,
      })
    ).body;
    const patient = await newPatient();
    const list = await t.http.get(`/api/v1/patients/${patient.id}/alarms`).set(bearer(org.tokens.admin));
    expect(list.body.map((x: { id: number }) => x.id)).toContain(auto.id);
    const foreignPatient = await newPatient(other.tokens.admin);
    expect((await t.http.get(`/api/v1/patients/${foreignPatient.id}/alarms`).set(bearer(other.tokens.admin))).body).toEqual([]);
    await t.http.put(`/api/v1/alarms/${auto.id}`).set(bearer(org.tokens.admin)).send({ alarm_default_new_patients: false });
  });

  it('deleting a rule disassociates its patients', async () => {
    const a = (await createRule({ name: 'Efímera' })).body;
    const patient = await newPatient();
    await t.http
      .put(`/api/v1/patients/${patient.id}`)
      .set(bearer(org.tokens.admin))
      .send({ alarm_ids: [a.id] });
    expect((await t.http.delete(`/api/v1/alarms/${a.id}`).set(bearer(org.tokens.admin))).status).toBe(204);
    expect((await t.http.get(`/api/v1/alarms/${a.id}`).set(bearer(org.tokens.admin))).status).toBe(404);
    expect((await t.http.get(`/api/v1/patients/${patient.id}/alarms`).set(bearer(org.tokens.admin))).body).toEqual([]);
  });
});
