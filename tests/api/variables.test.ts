import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { startTestProduct, createOrg, bearer, patientBody, type TestProduct, type Org } from '../support/product';

const NOW = new Date('2026-03-10T15:00:00Z');
let t: TestProduct;
let org: Org;
let other: Org;
let patientId: number;
let hba1c: number;
let smoking: number;
beforeAll(async () => {
  t = await startTestProduct({ now: () => NOW });
  org = await createOrg(t, 'Clinica Variables');
  other = await createOrg(t, 'Clinica Distinta');
  patientId = (await t.http.post('/api/v1/patients').set(bearer(org.tokens.admin)).send(patientBody())).body.id;
  const catalogue = (await t.http.get('/api/v1/clinical_variables').set(bearer(org.tokens.consulta))).body as Array<{
    id: number;
    loinc_code: string;
  }>;
  hba1c = catalogue.find((v) => v.loinc_code === '4548-4')!.id;
  smoking = catalogue.find((v) => v.loinc_code === '72166-2')!.id;
});
afterAll(() => t.stop());

const url = () => `/api/v1/patients/${patientId}/clinical_observations`;

describe('Variables (clinical variables)', () => {
  it('lists the LOINC catalogue with numeric and text variables', async () => {
    const res = await t.http.get('/api/v1/clinical_variables').set(bearer(org.tokens.consulta));
    expect(res.body).toEqual(
      expect.arrayContaining([
        { id: hba1c, name: 'Hemoglobina glicosilada (HbA1c)', loinc_code: '4548-4', type: 'numeric', unit: '%' },
        expect.objectContaining({ id: smoking, type: 'text' }),
      ]),
    );
  });

  it('is empty for a patient without values', async () => {
    expect((await t.http.get(url()).set(bearer(org.tokens.consulta))).body).toEqual([]);
  });

  it('records numeric and text values and lists each variable with its values oldest first, dates in the patient zone', async () => {
    const a = await t.http
      .post(url())
      .set(bearer(org.tokens.enfermeria))
      .send({ clinical_variable_id: hba1c, value: '7,4', date: '2026-01-05T14:00:00Z' });
    expect(a.status).toBe(201);
    expect(a.body).toMatchObject({ value: 7.4, formated_date: '05/01/2026 09:00' });
    await t.http.post(url()).set(bearer(org.tokens.medico)).send({ clinical_variable_id: hba1c, value: 6.9 });
    await t.http.post(url()).set(bearer(org.tokens.medico)).send({ clinical_variable_id: smoking, value: 'Exfumador desde 2020' });
    const res = await t.http.get(url()).set(bearer(org.tokens.consulta));
    expect(res.body).toHaveLength(2);
    expect(res.body[0]).toMatchObject({ name: 'Hemoglobina glicosilada (HbA1c)', loinc_code: '4548-4', type: 'numeric', unit: '%' });
    expect(res.body[0].observations.map((o: { value: number }) => o.value)).toEqual([7.4, 6.9]);
    expect(res.body[0].observations[1]).toMatchObject({ date: NOW.toISOString(), formated_date: '10/03/2026 10:00' });
    expect(res.body[1].observations[0].value).toBe('Exfumador desde 2020');
  });

  it.each([
    ['clinical_variable_id', 'missing', () => ({ value: 5 }), '¡El campo es requerido!'],
    ['clinical_variable_id', 'unknown', () => ({ clinical_variable_id: 9999, value: 5 }), 'La variable clínica no existe.'],
    ['value', 'missing', () => ({ clinical_variable_id: hba1c }), '¡El campo es requerido!'],
    ['value', 'text for a numeric variable', () => ({ clinical_variable_id: hba1c, value: 'alto' }), 'Debe ser un número.'],
    ['value', 'blank text', () => ({ clinical_variable_id: smoking, value: '  ' }), '¡El campo es requerido!'],
    [
      'date',
      'in the future',
      () => ({ clinical_variable_id: hba1c, value: 6, date: '2026-04-01T00:00:00Z' }),
      'La fecha no puede ser futura',
    ],
    ['date', 'not a date', () => ({ clinical_variable_id: hba1c, value: 6, date: 'ayer' }), 'La fecha y hora no es válida.'],
  ])('refuses %s (%s) with 400', async (field, _case, body, message) => {
    const res = await t.http.post(url()).set(bearer(org.tokens.admin)).send(body());
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ field, message });
  });

  it('refuses writes by consulta, answers 404 across clients, refuses a deceased patient', async () => {
    expect((await t.http.post(url()).set(bearer(org.tokens.consulta)).send({ clinical_variable_id: hba1c, value: 6 })).status).toBe(403);
    expect((await t.http.get(url()).set(bearer(other.tokens.admin))).status).toBe(404);
    expect((await t.http.post(url()).set(bearer(other.tokens.admin)).send({ clinical_variable_id: hba1c, value: 6 })).status).toBe(404);
    const id = (await t.http.post('/api/v1/patients').set(bearer(org.tokens.admin)).send(patientBody())).body.id;
    await t.http.put(`/api/v1/patients/${id}`).set(bearer(org.tokens.admin)).send({ status: 3 });
    const res = await t.http
      .post(`/api/v1/patients/${id}/clinical_observations`)
      .set(bearer(org.tokens.admin))
      .send({ clinical_variable_id: hba1c, value: 6 });
    expect(res.status).toBe(403);
  });
});
