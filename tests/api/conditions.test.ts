import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { startTestProduct, createOrg, bearer, patientBody, type TestProduct, type Org } from '../support/product';
import { select } from '../../api/src/db/sql';

let t: TestProduct;
let org: Org;
let other: Org;
let patientId: number;
beforeAll(async () => {
  t = await startTestProduct();
  org = await createOrg(t, 'Clinica Antecedentes');
  other = await createOrg(t, 'Clinica Otra');
  patientId = (await t.http.post('/api/v1/patients').set(bearer(org.tokens.admin)).send(patientBody())).body.id;
});
afterAll(() => t.stop());

const url = () => `/api/v1/patients/${patientId}/conditions`;
async function typeNamed(name: string) {
  const res = await t.http.get(`/api/v1/condition_types?q=${encodeURIComponent(name)}`).set(bearer(org.tokens.consulta));
  return res.body[0] as { id: number; name: string; priority: number; icd10: string };
}

describe('condition types catalogue', () => {
  it('loads about 150 conditions with ICD-10 codes, a high-priority list among them', async () => {
    const [{ n }] = await select<{ n: number }>(t.sequelize, 'SELECT COUNT(*) AS n FROM condition_types');
    expect(Number(n)).toBeGreaterThanOrEqual(150);
    const priority = await t.http.get('/api/v1/condition_types?priority=1&_end=100').set(bearer(org.tokens.consulta));
    expect(priority.body.map((c: { name: string }) => c.name)).toEqual(
      expect.arrayContaining(['Hipertensión arterial', 'Diabetes mellitus tipo 2']),
    );
    expect(priority.body.every((c: { priority: number }) => c.priority === 1)).toBe(true);
  });

  it('searches by text ignoring accents, by word prefix and by ICD-10 code', async () => {
    const byWord = await t.http.get('/api/v1/condition_types?q=tiroid').set(bearer(org.tokens.consulta));
    expect(byWord.body.map((c: { name: string }) => c.name)).toEqual(expect.arrayContaining(['Cáncer de tiroides']));
    const accents = await t.http.get('/api/v1/condition_types?q=HIPERTENSION').set(bearer(org.tokens.consulta));
    expect(accents.body[0]).toMatchObject({ name: 'Hipertensión arterial', icd10: 'I10', priority: 1 });
    const code = await t.http.get('/api/v1/condition_types?q=j45&priority=0').set(bearer(org.tokens.consulta));
    expect(code.body).toEqual([]);
    const none = await t.http.get('/api/v1/condition_types?q=zzzz').set(bearer(org.tokens.consulta));
    expect(none.headers['x-total-count']).toBe('0');
    expect((await t.http.get('/api/v1/condition_types?priority=2').set(bearer(org.tokens.consulta))).status).toBe(400);
  });

  it('is the same after a restart-like second load (idempotent)', async () => {
    const { syncRecordCatalogues } = await import('../../api/src/modules/conditions/record-catalogues');
    const [{ n: before }] = await select<{ n: number }>(t.sequelize, 'SELECT COUNT(*) AS n FROM condition_types');
    await syncRecordCatalogues(t.sequelize);
    const [{ n: after }] = await select<{ n: number }>(t.sequelize, 'SELECT COUNT(*) AS n FROM condition_types');
    expect(Number(after)).toBe(Number(before));
  });
});

describe('Antecedentes of a patient', () => {
  it('adds a condition (answer carries the id), edits its notes, removes a non-priority one from the list', async () => {
    const gout = await typeNamed('gota');
    expect(gout.priority).toBe(0);
    const created = await t.http
      .post(url())
      .set(bearer(org.tokens.enfermeria))
      .send({ condition_type_id: gout.id, active: true, notes: 'Crisis en 2024' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      id: expect.any(Number),
      active: true,
      notes: 'Crisis en 2024',
      condition_type: { id: gout.id, name: 'Gota' },
    });
    const edited = await t.http.put(`${url()}/${created.body.id}`).set(bearer(org.tokens.medico)).send({ notes: 'Crisis en 2024 y 2025' });
    expect(edited.body.notes).toBe('Crisis en 2024 y 2025');
    const removed = await t.http
      .put(`${url()}/${created.body.id}`)
      .set(bearer(org.tokens.medico))
      .send({ condition: { active: false } });
    expect(removed.status).toBe(200);
    expect(removed.body).toMatchObject({ active: false, removed: true });
    expect(
      (await t.http.get(url()).set(bearer(org.tokens.consulta))).body.find((c: { id: number }) => c.id === created.body.id),
    ).toBeUndefined();
  });

  it('switches a priority condition off in place (NO) and activates it again with notes', async () => {
    const hta = await typeNamed('hipertension');
    const created = (await t.http.post(url()).set(bearer(org.tokens.admin)).send({ condition_type_id: hta.id, notes: 'Desde 2010' })).body;
    expect(created.active).toBe(true);
    expect((await t.http.delete(`${url()}/${created.id}`).set(bearer(org.tokens.admin))).status).toBe(204);
    const off = (await t.http.get(url()).set(bearer(org.tokens.admin))).body.find((c: { id: number }) => c.id === created.id);
    expect(off).toMatchObject({ active: false, condition_type: { priority: 1 } });
    expect(off.end_date).not.toBeNull();
    const again = await t.http
      .post(url())
      .set(bearer(org.tokens.admin))
      .send({ condition_type_id: hta.id, active: true, notes: 'Retoma tratamiento' });
    expect(again.status).toBe(201);
    expect(again.body).toMatchObject({ id: created.id, active: true, notes: 'Retoma tratamiento', end_date: null });
  });

  it.each([
    ['condition_type_id', 'missing', {}, '¡El campo es requerido!'],
    ['condition_type_id', 'not a number', { condition_type_id: 'x' }, 'Debe ser un número entero.'],
    ['condition_type_id', 'unknown', { condition_type_id: 99999 }, 'El antecedente seleccionado no existe.'],
    ['notes', '601 characters', { condition_type_id: 1, notes: 'x'.repeat(601) }, 'Debe tener máximo de 600 caracteres'],
    ['active', 'not a boolean', { condition_type_id: 1, active: 'si' }, 'Debe ser verdadero o falso.'],
  ])('refuses %s (%s) with 400', async (field, _case, body, message) => {
    const res = await t.http.post(url()).set(bearer(org.tokens.admin)).send(body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ field, message });
  });

  it('refuses an empty update with 400', async () => {
    const c = (await t.http.post(url()).set(bearer(org.tokens.admin)).send({ condition_type_id: 2 })).body;
    expect((await t.http.patch(`${url()}/${c.id}`).set(bearer(org.tokens.admin)).send({})).status).toBe(400);
  });

  it('refuses writes by consulta with 403', async () => {
    const c = (await t.http.post(url()).set(bearer(org.tokens.admin)).send({ condition_type_id: 3 })).body;
    expect((await t.http.post(url()).set(bearer(org.tokens.consulta)).send({ condition_type_id: 4 })).status).toBe(403);
    expect((await t.http.put(`${url()}/${c.id}`).set(bearer(org.tokens.consulta)).send({ notes: 'no' })).status).toBe(403);
    expect((await t.http.delete(`${url()}/${c.id}`).set(bearer(org.tokens.consulta))).status).toBe(403);
  });

  it('answers 404 across clients', async () => {
    const [c] = (await t.http.get(url()).set(bearer(org.tokens.admin))).body;
    expect((await t.http.get(url()).set(bearer(other.tokens.admin))).status).toBe(404);
    expect((await t.http.post(url()).set(bearer(other.tokens.admin)).send({ condition_type_id: 5 })).status).toBe(404);
    expect((await t.http.put(`${url()}/${c.id}`).set(bearer(other.tokens.admin)).send({ notes: 'x' })).status).toBe(404);
    const theirs = (await t.http.post('/api/v1/patients').set(bearer(other.tokens.admin)).send(patientBody())).body.id;
    expect((await t.http.delete(`/api/v1/patients/${theirs}/conditions/${c.id}`).set(bearer(other.tokens.admin))).status).toBe(404);
  });

  it('refuses changes on a deceased patient', async () => {
    const id = (await t.http.post('/api/v1/patients').set(bearer(org.tokens.admin)).send(patientBody())).body.id;
    const c = (await t.http.post(`/api/v1/patients/${id}/conditions`).set(bearer(org.tokens.admin)).send({ condition_type_id: 1 })).body;
    await t.http.put(`/api/v1/patients/${id}`).set(bearer(org.tokens.admin)).send({ status: 3 });
    expect(
      (await t.http.post(`/api/v1/patients/${id}/conditions`).set(bearer(org.tokens.admin)).send({ condition_type_id: 2 })).status,
    ).toBe(403);
    expect((await t.http.put(`/api/v1/patients/${id}/conditions/${c.id}`).set(bearer(org.tokens.admin)).send({ notes: 'x' })).status).toBe(
      403,
    );
    expect((await t.http.get(`/api/v1/patients/${id}/conditions`).set(bearer(org.tokens.admin))).body).toHaveLength(1);
  });
});
