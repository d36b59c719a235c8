import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { startTestProduct, createOrg, bearer, patientBody, type TestProduct, type Org } from '../support/product';

let t: TestProduct;
let org: Org;
let other: Org;
let patientId: number;
beforeAll(async () => {
  t = await startTestProduct();
  org = await createOrg(t, 'Clinica Cuidadores');
  other = await createOrg(t, 'Clinica Lejana');
  patientId = (await t.http.post('/api/v1/patients').set(bearer(org.tokens.admin)).send(patientBody())).body.id;
});
afterAll(() => t.stop());

const url = () => `/api/v1/patients/${patientId}/caregivers`;
const caregiver = (over: Record<string, unknown> = {}) => ({
  id_type: 1,
  nid: '52123456',
  first_name: 'luz dary',
  last_name: 'gómez ruiz',
  country_id: 26,
  email: 'Luz.Gomez@Example.co',
  prefix: '+57',
  cellphone: '3157654321',
  notification: true,
  relationship: 'hija',
  ...over,
});

describe('caregivers of a patient', () => {
  it('creates and links a caregiver; text upper-cased except the e-mail', async () => {
    const res = await t.http.post(url()).set(bearer(org.tokens.enfermeria)).send({ caregiver: caregiver() });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      first_name: 'LUZ DARY',
      last_name: 'GÓMEZ RUIZ',
      email: 'luz.gomez@example.co',
      relationship: 'HIJA',
      id_type_name: 'Cédula de ciudadanía',
      country_name: 'Colombia',
      notification: true,
      notification_message: { type: 'success', message: 'Cuidador guardado correctamente' },
    });
    const list = await t.http.get(url()).set(bearer(org.tokens.consulta));
    expect(list.body).toHaveLength(1);
    expect(list.body[0].nid).toBe('52123456');
  });

  it('updates the caregiver and the relationship', async () => {
    const [c] = (await t.http.get(url()).set(bearer(org.tokens.admin))).body;
    const res = await t.http
      .put(`${url()}/${c.id}`)
      .set(bearer(org.tokens.medico))
      .send({ caregiver: { cellphone: '3009998877', relationship: 'sobrina', notification: false } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ cellphone: '3009998877', relationship: 'SOBRINA', notification: false, first_name: 'LUZ DARY' });
  });

  it('links the same person (same document) to a second patient without duplicating her', async () => {
    const second = (await t.http.post('/api/v1/patients').set(bearer(org.tokens.admin)).send(patientBody())).body.id;
    const res = await t.http
      .post(`/api/v1/patients/${second}/caregivers`)
      .set(bearer(org.tokens.admin))
      .send(caregiver({ relationship: 'nuera' }));
    const [first] = (await t.http.get(url()).set(bearer(org.tokens.admin))).body;
    expect(res.body.id).toBe(first.id);
    expect(res.body.relationship).toBe('NUERA');
    expect(first.relationship).toBe('SOBRINA');
    expect((await t.http.delete(`/api/v1/patients/${second}/caregivers/${first.id}`).set(bearer(org.tokens.admin))).status).toBe(204);
    expect((await t.http.get(`/api/v1/patients/${second}/caregivers`).set(bearer(org.tokens.admin))).body).toEqual([]);
    expect((await t.http.get(url()).set(bearer(org.tokens.admin))).body).toHaveLength(1);
  });

  it.each([
    ['nid', 'wrong for the id type', caregiver({ nid: '12' }), '¡El valor ingresado no es válido o está incompleto!'],
    ['first_name', 'with digits', caregiver({ first_name: 'ana 2' }), 'Solo letras y espacios, entre 3 y 50 caracteres'],
    ['email', 'malformed', caregiver({ email: 'ana@' }), '¡El formato de correo no es válido!'],
    ['cellphone', 'too short', caregiver({ cellphone: '12345' }), '¡Ingrese solo números y un máximo de 11 caracteres!'],
    ['prefix', 'missing', { ...caregiver(), prefix: undefined }, '¡El campo es requerido!'],
    ['id_type', 'of another country', caregiver({ id_type: 9999 }), 'El tipo de documento no corresponde al país.'],
    ['country_id', 'unknown', caregiver({ country_id: 9999 }), 'El país no existe.'],
    ['relationship', 'too long', caregiver({ relationship: 'x'.repeat(41) }), 'Debe tener máximo de 40 caracteres'],
  ])('refuses %s (%s) with 400', async (field, _case, body, message) => {
    const res = await t.http.post(url()).set(bearer(org.tokens.admin)).send(body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ field, message });
  });

  it('refuses a document already used by another caregiver with 409', async () => {
    const b = (
      await t.http
        .post(url())
        .set(bearer(org.tokens.admin))
        .send(caregiver({ nid: '52999888', first_name: 'pedro' }))
    ).body;
    const res = await t.http.put(`${url()}/${b.id}`).set(bearer(org.tokens.admin)).send({ nid: '52123456' });
    expect(res.status).toBe(409);
    expect(res.body.field).toBe('nid');
  });

  it('refuses writes by consulta, answers 404 across clients, refuses a deceased patient', async () => {
    const [c] = (await t.http.get(url()).set(bearer(org.tokens.admin))).body;
    expect((await t.http.post(url()).set(bearer(org.tokens.consulta)).send(caregiver())).status).toBe(403);
    expect((await t.http.put(`${url()}/${c.id}`).set(bearer(org.tokens.consulta)).send({ relationship: 'x' })).status).toBe(403);
    expect((await t.http.get(url()).set(bearer(other.tokens.admin))).status).toBe(404);
    expect((await t.http.put(`${url()}/${c.id}`).set(bearer(other.tokens.admin)).send({ relationship: 'x' })).status).toBe(404);
    const theirs = (await t.http.post('/api/v1/patients').set(bearer(other.tokens.admin)).send(patientBody())).body.id;
    expect(
      (await t.http.put(`/api/v1/patients/${theirs}/caregivers/${c.id}`).set(bearer(other.tokens.admin)).send({ relationship: 'x' }))
        .status,
    ).toBe(404);
    const id = (await t.http.post('/api/v1/patients').set(bearer(org.tokens.admin)).send(patientBody())).body.id;
    await t.http.put(`/api/v1/patients/${id}`).set(bearer(org.tokens.admin)).send({ status: 3 });
    expect((await t.http.post(`/api/v1/patients/${id}/caregivers`).set(bearer(org.tokens.admin)).send(caregiver())).status).toBe(403);
  });
});

describe('GET /patients/patient_id={id}/set_caregiver (01 §7, deprecated alias of the caregiver PUT)', () => {
  let caregiverId: number;
  let second: number;
  const setUrl = (patient: number, query: string) => `/api/v1/patients/patient_id=${patient}/set_caregiver?${query}`;
  const linked = async (patient: number) =>
    (await t.http.get(`/api/v1/patients/${patient}/caregivers`).set(bearer(org.tokens.admin))).body as Array<{
      id: number;
      relationship: string | null;
    }>;
  beforeAll(async () => {
    caregiverId = (
      await t.http
        .post(url())
        .set(bearer(org.tokens.admin))
        .send(caregiver({ nid: '52777111', first_name: 'rosa', relationship: 'hermana' }))
    ).body.id;
    second = (await t.http.post('/api/v1/patients').set(bearer(org.tokens.admin)).send(patientBody())).body.id;
  });

  it('links a caregiver of the client to another patient with the relationship, and answers as the PUT does', async () => {
    const res = await t.http
      .get(setUrl(second, `caregiver_id=${caregiverId}&relationship=prima&patient_id=${second}`))
      .set(bearer(org.tokens.enfermeria));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      id: caregiverId,
      first_name: 'ROSA',
      relationship: 'PRIMA',
      notification_message: { type: 'success', message: 'Cuidador guardado correctamente' },
    });
    expect((await linked(second)).map((c) => [c.id, c.relationship])).toEqual([[caregiverId, 'PRIMA']]);
    expect((await linked(patientId)).find((c) => c.id === caregiverId)?.relationship).toBe('HERMANA');
    const put = await t.http
      .put(`/api/v1/patients/${second}/caregivers/${caregiverId}`)
      .set(bearer(org.tokens.enfermeria))
      .send({ relationship: 'prima' });
    expect(put.status).toBe(200);
    expect(res.body).toEqual(put.body);
  });

  it('changes the relationship of a linked caregiver and keeps it when none is sent', async () => {
    expect(
      (await t.http.get(setUrl(second, `caregiver_id=${caregiverId}&relationship=tía`)).set(bearer(org.tokens.admin))).body.relationship,
    ).toBe('TÍA');
    const kept = await t.http.get(setUrl(second, `caregiver_id=${caregiverId}`)).set(bearer(org.tokens.admin));
    expect(kept.status).toBe(200);
    expect(kept.body.relationship).toBe('TÍA');
    expect(await linked(second)).toHaveLength(1);
  });

  it('the PUT of a caregiver of the client links it to the patient too (its summary says so)', async () => {
    const third = (await t.http.post('/api/v1/patients').set(bearer(org.tokens.admin)).send(patientBody())).body.id;
    const res = await t.http
      .put(`/api/v1/patients/${third}/caregivers/${caregiverId}`)
      .set(bearer(org.tokens.admin))
      .send({ notification: true });
    expect(res.status).toBe(200);
    expect(res.body.relationship).toBeNull();
    expect((await linked(third)).map((c) => c.id)).toEqual([caregiverId]);
  });

  it.each([
    ['caregiver_id', (p: number) => setUrl(p, 'relationship=prima'), '¡El campo es requerido!'],
    ['caregiver_id', (p: number) => setUrl(p, 'caregiver_id=uno'), 'Debe ser un número entero.'],
    ['relationship', (p: number) => setUrl(p, `caregiver_id=1&relationship=${'x'.repeat(41)}`), 'Debe tener máximo de 40 caracteres'],
    [
      'patient_id',
      (p: number) => setUrl(p, `caregiver_id=1&patient_id=${p + 1}`),
      'El paciente de la consulta no coincide con el de la ruta.',
    ],
  ])('refuses a bad %s with 400 naming it', async (field, at, message) => {
    const res = await t.http.get(at(second)).set(bearer(org.tokens.admin));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ field, message });
  });

  it("answers 404 for another client's patient or caregiver, 403 to a read-only role, and changes nothing", async () => {
    const before = await linked(second);
    const foreign = await t.http.get(setUrl(second, `caregiver_id=${caregiverId}&relationship=x`)).set(bearer(other.tokens.admin));
    const missing = await t.http.get(setUrl(987654321, `caregiver_id=${caregiverId}&relationship=x`)).set(bearer(other.tokens.admin));
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual(missing.body);
    const theirPatient = (await t.http.post('/api/v1/patients').set(bearer(other.tokens.admin)).send(patientBody())).body.id;
    const ourCaregiver = await t.http.get(setUrl(theirPatient, `caregiver_id=${caregiverId}`)).set(bearer(other.tokens.admin));
    expect(ourCaregiver.status).toBe(404);
    expect(ourCaregiver.body.message).toBe('El cuidador no existe.');
    const readOnly = await t.http.get(setUrl(second, `caregiver_id=${caregiverId}&relationship=x`)).set(bearer(org.tokens.consulta));
    expect(readOnly.status).toBe(403);
    expect(readOnly.body.message).toBe('Su rol no permite realizar esta acción.');
    expect(await linked(second)).toEqual(before);
    expect((await t.http.get(`/api/v1/patients/${theirPatient}/caregivers`).set(bearer(other.tokens.admin))).body).toEqual([]);
  });
});
