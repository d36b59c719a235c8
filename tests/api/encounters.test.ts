import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { startTestProduct, createOrg, bearer, patientBody, type TestProduct, type Org } from '../support/product';
import { MESSAGES } from '@vigia/contract/rules/validation';

const NOW = new Date('2026-11-22T15:00:00Z');
let t: TestProduct;
let org: Org;
let other: Org;
let patientId: number;
let vaccine: { id: number };
let otherVaccine: { id: number };
const admin = () => bearer(org.tokens.admin);
beforeAll(async () => {
  t = await startTestProduct({ now: () => NOW });
  org = await createOrg(t, 'Clinica Atenciones');
  other = await createOrg(t, 'Clinica Otra');
  patientId = (await t.http.post('/api/v1/patients').set(admin()).send(patientBody())).body.id;
  vaccine = (
    await t.http.post('/api/v1/supplies').set(admin()).send({ type: 'biologico', tradename: 'Vaxigrip Tetra', generic_name: 'Influenza' })
  ).body;
  otherVaccine = (
    await t.http.post('/api/v1/supplies').set(admin()).send({ type: 'biologico', tradename: 'Comirnaty', generic_name: 'COVID-19' })
  ).body;
});
afterAll(() => t.stop());

let serialN = 0;
async function batch(cuantity: number, expiration_date = '2027-06-30', supply = vaccine.id) {
  const serial = `VAC${String(++serialN).padStart(13, '0')}`;
  const res = await t.http
    .post('/api/v1/stocks')
    .set(admin())
    .send({ type: 'biologico', serial, medical_supply_id: supply, expiration_date, cuantity });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: number; serial: string };
}
const openVaccination = async (token = org.tokens.enfermeria) =>
  (await t.http.post(`/api/v1/patients/${patientId}/encounters`).set(bearer(token)).send({ kind: 'vaccination' })).body;

describe('vaccination encounters', () => {
  it("opens with the patient's basic data, saves as Realizado with checkout and responsible, and takes one unit from the batch", async () => {
    const later = await batch(5, '2027-12-31');
    const sooner = await batch(5, '2027-01-31');
    const enc = await openVaccination();
    expect(enc).toMatchObject({
      kind: 'vaccination',
      status: 'Pendiente',
      checkout: null,
      responsible: null,
      patient: { id: patientId, full_name: 'MARÍA JOSÉ PÉREZ GÓMEZ', id_type_name: 'Cédula de ciudadanía' },
    });
    const saved = await t.http
      .put(`/api/v1/encounters/${enc.id}`)
      .set(bearer(org.tokens.enfermeria))
      .send({ biological_type: 'Influenza', medication_id: vaccine.id, dose: 'Dosis anual', vaccination_card: true });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body).toMatchObject({
      status: 'Realizado',
      checkout: NOW.toISOString(),
      responsible: org.users.enfermeria.id,
      medication_name: 'VAXIGRIP TETRA',
      biological_type: 'INFLUENZA',
      dose: 'Dosis anual',
      stock_id: sooner.id,
      serial: sooner.serial,
      vaccination_card: true,
    });
    // First to expire goes first (FEFO); the other batch is untouched.
    expect((await t.http.get(`/api/v1/stocks/${sooner.id}`).set(admin())).body.cuantity).toBe(4);
    expect((await t.http.get(`/api/v1/stocks/${later.id}`).set(admin())).body.cuantity).toBe(5);
    const moves = await t.http.get(`/api/v1/moves?stock_id=${sooner.id}&type=aplicacion`).set(admin());
    expect(moves.body).toMatchObject([{ type: 'aplicacion', type_name: 'Aplicación', amount: 1, encounter_id: enc.id }]);
    const apps = await t.http.get(`/api/v1/stocks/${sooner.id}/applications`).set(bearer(org.tokens.consulta));
    expect(apps.body).toMatchObject([
      { encounter_id: enc.id, patient_id: patientId, patient_name: 'MARÍA JOSÉ PÉREZ GÓMEZ', dose: 'Dosis anual' },
    ]);
    const none = await t.http.get(`/api/v1/stocks/${sooner.id}/applications?date1=2026-11-23`).set(admin());
    expect(none.body).toHaveLength(0);
    const again = await t.http
      .patch(`/api/v1/encounters/${enc.id}`)
      .set(admin())
      .send({ biological_type: 'Influenza', medication_id: vaccine.id, dose: 'Refuerzo' });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('La atención ya fue realizada; no admite cambios.');
    expect((await t.http.get(`/api/v1/stocks/${sooner.id}`).set(admin())).body.cuantity).toBe(4);
  });

  it("accepts the existing product's create_Encounter_vacunation call; client and user come from the session", async () => {
    const res = await t.http
      .post('/api/v1/patients/create_Encounter_vacunation')
      .set(admin())
      .send({ patient_id: patientId, client_id: other.clientId, user_id: 999 });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ kind: 'vaccination', patient_id: patientId });
    const foreign = await t.http
      .post('/api/v1/patients/create_Encounter_vacunation')
      .set(bearer(other.tokens.admin))
      .send({ patient_id: patientId });
    expect(foreign.status).toBe(404);
    const list = await t.http.get(`/api/v1/patients/${patientId}/encounters`).set(bearer(org.tokens.consulta));
    expect(list.body.map((e: { id: number }) => e.id)).toContain(res.body.id);
  });

  it.each([
    [{ medication_id: 1, dose: 'Refuerzo' }, 'biological_type'],
    [{ biological_type: 'Influenza', dose: 'Refuerzo' }, 'medication_id'],
    [{ biological_type: 'Influenza', medication_id: 1 }, 'dose'],
  ])('requires biological type, laboratory and dose (%j lacks %s)', async (body, field) => {
    const enc = await openVaccination();
    const res = await t.http.patch(`/api/v1/encounters/${enc.id}`).set(admin()).send(body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ field, message: MESSAGES.required });
    expect((await t.http.get(`/api/v1/encounters/${enc.id}`).set(admin())).body.status).toBe('Pendiente');
  });

  it('refuses a laboratory of another biological type, a dose outside the list, and a vaccine without stock', async () => {
    const enc = await openVaccination();
    const mismatch = await t.http
      .patch(`/api/v1/encounters/${enc.id}`)
      .set(admin())
      .send({ biological_type: 'Influenza', medication_id: otherVaccine.id, dose: 'Refuerzo' });
    expect(mismatch.body).toMatchObject({ field: 'medication_id', message: 'El laboratorio no corresponde al tipo de biológico elegido.' });
    const dose = await t.http
      .patch(`/api/v1/encounters/${enc.id}`)
      .set(admin())
      .send({ biological_type: 'Influenza', medication_id: vaccine.id, dose: 'Quinta' });
    expect(dose.status).toBe(400);
    expect(dose.body.field).toBe('dose');
    const empty = await t.http
      .patch(`/api/v1/encounters/${enc.id}`)
      .set(admin())
      .send({ biological_type: 'COVID-19', medication_id: otherVaccine.id, dose: 'Refuerzo' });
    expect(empty.body).toMatchObject({
      field: 'medication_id',
      message: 'No hay lotes vigentes con unidades disponibles de este biológico.',
    });
  });

  it('refuses a chosen batch that is empty, with the stock message, and leaves the encounter pending', async () => {
    const emptyBatch = await batch(0);
    const enc = await openVaccination();
    const res = await t.http
      .patch(`/api/v1/encounters/${enc.id}`)
      .set(admin())
      .send({ biological_type: 'Influenza', medication_id: vaccine.id, dose: 'Refuerzo', stock_id: emptyBatch.id });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(
      `No hay unidades suficientes en el lote ${emptyBatch.serial}: hay 0 disponible(s) y se pidieron 1. El stock no puede quedar en negativo.`,
    );
    expect((await t.http.get(`/api/v1/encounters/${enc.id}`).set(admin())).body.status).toBe('Pendiente');
    expect((await t.http.get(`/api/v1/stocks/${emptyBatch.id}`).set(admin())).body.cuantity).toBe(0);
  });

  it('two saves of the same encounter take only one unit', async () => {
    const b = await batch(3, '2026-12-01');
    const enc = await openVaccination();
    const body = { biological_type: 'Influenza', medication_id: vaccine.id, dose: 'Refuerzo', stock_id: b.id };
    const results = await Promise.all([1, 2, 3].map(() => t.http.put(`/api/v1/encounters/${enc.id}`).set(admin()).send(body)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect((await t.http.get(`/api/v1/stocks/${b.id}`).set(admin())).body.cuantity).toBe(2);
  });

  it('refuses consulta (403), another client (404) and a deceased patient (403)', async () => {
    expect(
      (await t.http.post(`/api/v1/patients/${patientId}/encounters`).set(bearer(org.tokens.consulta)).send({ kind: 'generic' })).status,
    ).toBe(403);
    const enc = await openVaccination();
    expect((await t.http.get(`/api/v1/encounters/${enc.id}`).set(bearer(other.tokens.admin))).status).toBe(404);
    expect((await t.http.put(`/api/v1/encounters/${enc.id}`).set(bearer(other.tokens.admin)).send({ dose: 'Refuerzo' })).status).toBe(404);
    expect(
      (await t.http.post(`/api/v1/patients/${patientId}/encounters`).set(bearer(other.tokens.admin)).send({ kind: 'generic' })).status,
    ).toBe(404);
    const dead = (await t.http.post('/api/v1/patients').set(admin()).send(patientBody())).body.id;
    const open = (await t.http.post(`/api/v1/patients/${dead}/encounters`).set(admin()).send({ kind: 'vaccination' })).body;
    const status = await t.http.put(`/api/v1/patients/${dead}`).set(admin()).send({ status: 3 });
    expect(status.status, JSON.stringify(status.body)).toBe(200);
    const res = await t.http
      .patch(`/api/v1/encounters/${open.id}`)
      .set(admin())
      .send({ biological_type: 'Influenza', medication_id: vaccine.id, dose: 'Refuerzo' });
    expect(res.status).toBe(403);
    expect((await t.http.post(`/api/v1/patients/${dead}/encounters`).set(admin()).send({ kind: 'generic' })).status).toBe(403);
  });
});

describe('generic encounters and observations', () => {
  it("lists the form's clinical elements, all or by type", async () => {
    const enc = (await t.http.post(`/api/v1/patients/${patientId}/encounters`).set(admin()).send({ kind: 'generic' })).body;
    const all = await t.http.get(`/api/v1/encounters/${enc.id}/get_element`).set(admin());
    expect(new Set(all.body.map((e: { type: string }) => e.type))).toEqual(
      new Set(['cuantitativo', 'select', 'boolean', 'textocorto', 'textolargo']),
    );
    const selects = await t.http.get(`/api/v1/encounters/${enc.id}/get_element?type=select&encounter_id=${enc.id}`).set(admin());
    expect(selects.body.map((e: { name: string }) => e.name)).toEqual(['Integridad de la piel', 'Aspecto general']);
  });

  it('saves only when required elements have values; changes to a value are logged before/after', async () => {
    const enc = (await t.http.post(`/api/v1/patients/${patientId}/encounters`).set(bearer(org.tokens.medico)).send({ kind: 'generic' }))
      .body;
    const early = await t.http.patch(`/api/v1/encounters/${enc.id}`).set(bearer(org.tokens.medico)).send({});
    expect(early.body).toMatchObject({ field: 'element_1', message: 'Frecuencia cardiaca: ¡El campo es requerido!' });
    const values: Array<[number, string]> = [
      [1, '72'],
      [2, '95'],
      [3, '120'],
      [4, '80'],
      [7, '36.5'],
      [101, 'Íntegra'],
      [102, 'Bueno'],
      [104, 'Control mensual'],
      [105, 'Paciente estable, continuar plan.'],
    ];
    const ids = new Map<number, number>();
    for (const [clinical_element, value] of values) {
      const res = await t.http
        .post('/api/v1/observations')
        .set(bearer(org.tokens.medico))
        .send({ observation: { encounter_id: enc.id, clinical_element, value } });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      ids.set(clinical_element, res.body.id);
    }
    const changed = await t.http
      .patch(`/api/v1/observations/${ids.get(1)}`)
      .set(bearer(org.tokens.medico))
      .send({ value: '76' });
    expect(changed.body).toMatchObject({
      value: '76',
      logs_obs: [{ before: '72', after: '76', datef: '22/11/2026 10:00', date: NOW.toISOString() }],
    });
    const saved = await t.http.put(`/api/v1/encounters/${enc.id}`).set(bearer(org.tokens.medico)).send({ observations: 'Sin novedades' });
    expect(saved.body).toMatchObject({ status: 'Realizado', responsible: org.users.medico.id, observations: 'Sin novedades' });
    expect(saved.body.elements).toHaveLength(values.length);
  });

  it.each([
    [1, '72.55', MESSAGES.vitals],
    [101, 'Rota', 'Seleccione una opción: Íntegra, Lesión leve, Lesión moderada, Lesión severa.'],
    [104, 'ab', MESSAGES.textMin],
    [103, 'quizá', 'Seleccione Sí o No.'],
  ])('refuses element %i with value %j', async (clinical_element, value, message) => {
    const enc = (await t.http.post(`/api/v1/patients/${patientId}/encounters`).set(admin()).send({ kind: 'generic' })).body;
    const res = await t.http.post('/api/v1/observations').set(admin()).send({ encounter_id: enc.id, clinical_element, value });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ field: 'value', message });
  });

  it("refuses an unknown element, a repeated element (409) and another client's encounter or observation (404)", async () => {
    const enc = (await t.http.post(`/api/v1/patients/${patientId}/encounters`).set(admin()).send({ kind: 'generic' })).body;
    expect(
      (await t.http.post('/api/v1/observations').set(admin()).send({ encounter_id: enc.id, clinical_element: 999, value: '1' })).body.field,
    ).toBe('clinical_element');
    const first = await t.http.post('/api/v1/observations').set(admin()).send({ encounter_id: enc.id, clinical_element: 1, value: '70' });
    expect(
      (await t.http.post('/api/v1/observations').set(admin()).send({ encounter_id: enc.id, clinical_element: 1, value: '71' })).status,
    ).toBe(409);
    expect(
      (
        await t.http
          .post('/api/v1/observations')
          .set(bearer(other.tokens.admin))
          .send({ encounter_id: enc.id, clinical_element: 2, value: '90' })
      ).status,
    ).toBe(404);
    expect((await t.http.patch(`/api/v1/observations/${first.body.id}`).set(bearer(other.tokens.admin)).send({ value: '10' })).status).toBe(
      404,
    );
    expect(
      (await t.http.patch(`/api/v1/observations/${first.body.id}`).set(bearer(org.tokens.consulta)).send({ value: '10' })).status,
    ).toBe(403);
  });
});

describe("a patient's encounters (patient page list)", () => {
  it('lists them newest first with type, status and responsible, paged, to any staff of the client; 404 elsewhere', async () => {
    const pid = (await t.http.post('/api/v1/patients').set(admin()).send(patientBody())).body.id;
    const b = await batch(2);
    const vac = (await t.http.post(`/api/v1/patients/${pid}/encounters`).set(bearer(org.tokens.enfermeria)).send({ kind: 'vaccination' }))
      .body;
    const saved = await t.http
      .put(`/api/v1/encounters/${vac.id}`)
      .set(bearer(org.tokens.enfermeria))
      .send({ biological_type: 'Influenza', medication_id: vaccine.id, dose: 'Refuerzo', stock_id: b.id });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const gen = (await t.http.post(`/api/v1/patients/${pid}/encounters`).set(bearer(org.tokens.medico)).send({ kind: 'generic' })).body;

    const list = await t.http.get(`/api/v1/patients/${pid}/encounters`).set(bearer(org.tokens.consulta));
    expect(list.status).toBe(200);
    expect(list.headers['x-total-count']).toBe('2');
    expect(list.body).toMatchObject([
      { id: gen.id, kind: 'generic', status: 'Pendiente', checkout: null, responsible_name: null },
      {
        id: vac.id,
        kind: 'vaccination',
        status: 'Realizado',
        checkout: NOW.toISOString(),
        responsible_name: saved.body.responsible_name,
        serial: b.serial,
        dose: 'Refuerzo',
      },
    ]);
    const page = await t.http.get(`/api/v1/patients/${pid}/encounters?_start=1&_end=2`).set(admin());
    expect(page.body.map((e: { id: number }) => e.id)).toEqual([vac.id]);
    expect(page.headers['x-total-count']).toBe('2');

    expect((await t.http.get(`/api/v1/patients/${pid}/encounters`).set(bearer(other.tokens.admin))).status).toBe(404);
    expect((await t.http.get('/api/v1/patients/999999/encounters').set(admin())).status).toBe(404);
    expect(
      (await t.http.post(`/api/v1/patients/${pid}/encounters`).set(bearer(org.tokens.consulta)).send({ kind: 'vaccination' })).status,
    ).toBe(403);
    const bad = await t.http.post(`/api/v1/patients/${pid}/encounters`).set(admin()).send({ kind: 'otra' });
    expect(bad.status).toBe(400);
    expect(bad.body.field).toBe('kind');
  });
});
