import { describe, it, expect, beforeAll, afterAll, vi } from 'vitest';
import { randomUUID } from 'node:crypto';
import { startTestProduct, createOrg, bearer, patientBody, type TestProduct, type Org } from '../support/product';
import { select } from '../../api/src/db/sql';
import type { StaffPrincipal } from '../../api/src/http/auth';
import * as allergies from '../../api/src/modules/allergies/allergies.service';
import * as familyHistory from '../../api/src/modules/family_history/family-history.service';

let t: TestProduct;
let org: Org;
let other: Org;
let patientId: number;
beforeAll(async () => {
  t = await startTestProduct();
  org = await createOrg(t, 'Clinica Alergias');
  other = await createOrg(t, 'Clinica Vecina');
  patientId = (await t.http.post('/api/v1/patients').set(bearer(org.tokens.admin)).send(patientBody())).body.id;
});
afterAll(() => t.stop());

const allergiesUrl = (id = patientId) => `/api/v1/patients/${id}/allergies`;
const familyUrl = (id = patientId) => `/api/v1/patients/${id}/family_history`;

/** The recorder writes after the answer has gone out: wait (briefly) for the row. */
async function auditRow(resource: string, action: string, resourceId: number) {
  for (let i = 0; i < 50; i++) {
    const [row] = await select<{ patient_id: number; user_id: number; summary: string }>(
      t.sequelize,
      'SELECT patient_id, user_id, summary FROM audit_events WHERE resource = :resource AND action = :action AND resource_id = :rid',
      { resource, action, rid: String(resourceId) },
    );
    if (row) return row;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`no audit event ${action} ${resource} ${resourceId}`);
}

describe('/patients/:id/allergies', () => {
  it('creates, lists (active first), updates and deletes an allergy, each write audited', async () => {
    const created = await t.http
      .post(allergiesUrl())
      .set(bearer(org.tokens.enfermeria))
      .send({ allergy_type: '01', description: '  Penicilina:  urticaria generalizada ' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      id: expect.any(Number),
      allergy_type: '01',
      allergy_type_name: 'Medicamento',
      description: 'Penicilina: urticaria generalizada',
      active: true,
    });
    const food = await t.http
      .post(allergiesUrl())
      .set(bearer(org.tokens.medico))
      .send({ allergy_type: '02', description: 'Maní', active: false });
    expect(food.body).toMatchObject({ allergy_type_name: 'Alimento', active: false });

    const listed = await t.http.get(allergiesUrl()).set(bearer(org.tokens.consulta));
    expect(listed.status).toBe(200);
    expect(listed.body.map((a: { id: number }) => a.id)).toEqual([created.body.id, food.body.id]);

    const updated = await t.http
      .put(`${allergiesUrl()}/${food.body.id}`)
      .set(bearer(org.tokens.medico))
      .send({ active: true, allergy_type: '06' });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ allergy_type: '06', allergy_type_name: 'Otra', description: 'Maní', active: true });

    expect((await t.http.delete(`${allergiesUrl()}/${food.body.id}`).set(bearer(org.tokens.admin))).status).toBe(204);
    expect((await t.http.get(allergiesUrl()).set(bearer(org.tokens.consulta))).body).toHaveLength(1);
    expect((await t.http.delete(`${allergiesUrl()}/${food.body.id}`).set(bearer(org.tokens.admin))).status).toBe(404);

    expect(await auditRow('allergy', 'create', created.body.id)).toMatchObject({ patient_id: patientId, user_id: org.users.enfermeria.id });
    expect(await auditRow('allergy', 'update', food.body.id)).toMatchObject({ patient_id: patientId });
    expect((await auditRow('allergy', 'delete', food.body.id)).summary).toContain('la alergia');
  });

  it.each([
    ['allergy_type', { allergy_type: '09', description: 'Polen' }, 'Seleccione un tipo de alergia de la lista.'],
    ['allergy_type', { allergy_type: 'ab', description: 'Polen' }, undefined],
    ['allergy_type', { description: 'Polen' }, undefined],
    ['description', { allergy_type: '03' }, undefined],
    ['description', { allergy_type: '03', description: '   ' }, undefined],
    ['description', { allergy_type: '03', description: 'x'.repeat(201) }, undefined],
    ['active', { allergy_type: '03', description: 'Polen', active: 'si' }, undefined],
  ])('refuses a bad %s with 400 naming it, in Spanish', async (field, body, message) => {
    const res = await t.http.post(allergiesUrl()).set(bearer(org.tokens.medico)).send(body);
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    if (message) expect(res.body.message).toBe(message);
  });

  it('refuses an empty update and a bad type on update', async () => {
    const a = (await t.http.post(allergiesUrl()).set(bearer(org.tokens.medico)).send({ allergy_type: '05', description: 'Abeja' })).body;
    expect((await t.http.put(`${allergiesUrl()}/${a.id}`).set(bearer(org.tokens.medico)).send({})).status).toBe(400);
    const bad = await t.http.put(`${allergiesUrl()}/${a.id}`).set(bearer(org.tokens.medico)).send({ allergy_type: '99' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].field).toBe('allergy_type');
  });

  it('lets consulta read but not write (403), and answers 404 across clients', async () => {
    const a = (await t.http.post(allergiesUrl()).set(bearer(org.tokens.medico)).send({ allergy_type: '03', description: 'Polvo' })).body;
    expect(
      (await t.http.post(allergiesUrl()).set(bearer(org.tokens.consulta)).send({ allergy_type: '03', description: 'Polen' })).status,
    ).toBe(403);
    expect((await t.http.put(`${allergiesUrl()}/${a.id}`).set(bearer(org.tokens.consulta)).send({ active: false })).status).toBe(403);
    expect((await t.http.delete(`${allergiesUrl()}/${a.id}`).set(bearer(org.tokens.consulta))).status).toBe(403);

    expect((await t.http.get(allergiesUrl()).set(bearer(other.tokens.admin))).status).toBe(404);
    expect((await t.http.post(allergiesUrl()).set(bearer(other.tokens.admin)).send({ allergy_type: '03', description: 'x' })).status).toBe(
      404,
    );
    expect((await t.http.put(`${allergiesUrl()}/${a.id}`).set(bearer(other.tokens.admin)).send({ active: false })).status).toBe(404);
    const theirs = (await t.http.post('/api/v1/patients').set(bearer(other.tokens.admin)).send(patientBody())).body.id;
    expect((await t.http.delete(`${allergiesUrl(theirs)}/${a.id}`).set(bearer(other.tokens.admin))).status).toBe(404);
    const [row] = await select<{ active: boolean | number }>(t.sequelize, 'SELECT active FROM patient_allergies WHERE id = :id', {
      id: a.id,
    });
    expect(!!row.active).toBe(true);
  });

  it('writes once for a repeated Idempotency-Key', async () => {
    const key = randomUUID();
    const body = { allergy_type: '04', description: 'Látex' };
    const first = await t.http.post(allergiesUrl()).set(bearer(org.tokens.medico)).set('Idempotency-Key', key).send(body);
    const again = await t.http.post(allergiesUrl()).set(bearer(org.tokens.medico)).set('Idempotency-Key', key).send(body);
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body.id).toBe(first.body.id);
    const rows = await select(t.sequelize, "SELECT id FROM patient_allergies WHERE description = 'Látex'", {});
    expect(rows).toHaveLength(1);
  });
});

describe('/patients/:id/family_history', () => {
  it('creates, lists, updates and deletes an entry, the ICD-10 code stored as ICD-10 CO writes it, each write audited', async () => {
    const created = await t.http
      .post(familyUrl())
      .set(bearer(org.tokens.enfermeria))
      .send({ relationship: '01', description: 'Hipertensión arterial (madre)', icd10: 'i10' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      relationship: '01',
      relationship_name: 'Padres',
      description: 'Hipertensión arterial (madre)',
      icd10: 'I10',
    });
    const sibling = await t.http
      .post(familyUrl())
      .set(bearer(org.tokens.medico))
      .send({ relationship: '02', description: 'Diabetes', icd10: 'E11.9' });
    expect(sibling.body).toMatchObject({ relationship_name: 'Hermanos', icd10: 'E119' });
    const noCode = await t.http
      .post(familyUrl())
      .set(bearer(org.tokens.medico))
      .send({ relationship: '04', description: 'Cáncer de colon', icd10: null });
    expect(noCode.body.icd10).toBeNull();

    const listed = await t.http.get(familyUrl()).set(bearer(org.tokens.consulta));
    expect(listed.body.map((f: { relationship: string }) => f.relationship)).toEqual(['01', '02', '04']);

    const updated = await t.http
      .put(`${familyUrl()}/${sibling.body.id}`)
      .set(bearer(org.tokens.medico))
      .send({ relationship: '03', icd10: null });
    expect(updated.body).toMatchObject({ relationship: '03', relationship_name: 'Tíos', description: 'Diabetes', icd10: null });

    expect((await t.http.delete(`${familyUrl()}/${noCode.body.id}`).set(bearer(org.tokens.medico))).status).toBe(204);
    expect((await t.http.get(familyUrl()).set(bearer(org.tokens.consulta))).body).toHaveLength(2);

    expect(await auditRow('family_history', 'create', created.body.id)).toMatchObject({ patient_id: patientId });
    expect(await auditRow('family_history', 'update', sibling.body.id)).toMatchObject({ patient_id: patientId });
    expect((await auditRow('family_history', 'delete', noCode.body.id)).summary).toContain('el antecedente familiar');
  });

  it.each([
    ['relationship', { relationship: '05', description: 'Asma' }, 'Seleccione un parentesco de la lista.'],
    ['relationship', { description: 'Asma' }, undefined],
    ['description', { relationship: '01' }, undefined],
    ['description', { relationship: '01', description: 'x'.repeat(201) }, undefined],
    ['icd10', { relationship: '01', description: 'Asma', icd10: 'asma' }, 'Escriba un código CIE-10 válido, por ejemplo I10X o E119'],
    ['icd10', { relationship: '01', description: 'Asma', icd10: 'J45000' }, undefined],
  ])('refuses a bad %s with 400 naming it, in Spanish', async (field, body, message) => {
    const res = await t.http.post(familyUrl()).set(bearer(org.tokens.medico)).send(body);
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    if (message) expect(res.body.errors.find((e: { field: string }) => e.field === field).message).toBe(message);
  });

  it('lets consulta read but not write (403), and answers 404 across clients', async () => {
    const f = (await t.http.post(familyUrl()).set(bearer(org.tokens.medico)).send({ relationship: '04', description: 'Alzheimer' })).body;
    expect((await t.http.get(familyUrl()).set(bearer(org.tokens.consulta))).status).toBe(200);
    expect((await t.http.post(familyUrl()).set(bearer(org.tokens.consulta)).send({ relationship: '04', description: 'x' })).status).toBe(
      403,
    );
    expect((await t.http.put(`${familyUrl()}/${f.id}`).set(bearer(org.tokens.consulta)).send({ description: 'x' })).status).toBe(403);
    expect((await t.http.delete(`${familyUrl()}/${f.id}`).set(bearer(org.tokens.consulta))).status).toBe(403);

    expect((await t.http.get(familyUrl()).set(bearer(other.tokens.admin))).status).toBe(404);
    expect((await t.http.put(`${familyUrl()}/${f.id}`).set(bearer(other.tokens.admin)).send({ description: 'x' })).status).toBe(404);
    const theirs = (await t.http.post('/api/v1/patients').set(bearer(other.tokens.admin)).send(patientBody())).body.id;
    expect((await t.http.delete(`${familyUrl(theirs)}/${f.id}`).set(bearer(other.tokens.admin))).status).toBe(404);
  });

  it('refuses changes on a deceased patient', async () => {
    const id = (await t.http.post('/api/v1/patients').set(bearer(org.tokens.admin)).send(patientBody())).body.id;
    await t.http.put(`/api/v1/patients/${id}`).set(bearer(org.tokens.admin)).send({ status: 3 });
    expect((await t.http.post(familyUrl(id)).set(bearer(org.tokens.admin)).send({ relationship: '01', description: 'Asma' })).status).toBe(
      403,
    );
    expect(
      (await t.http.post(allergiesUrl(id)).set(bearer(org.tokens.admin)).send({ allergy_type: '01', description: 'Asma' })).status,
    ).toBe(403);
  });
});

describe('the RDA hook', () => {
  const principal = (): StaffPrincipal => ({
    kind: 'staff',
    sessionId: 'hook',
    clientId: org.clientId,
    userId: org.users.medico.id,
    role: 'medico',
    user: org.users.medico as StaffPrincipal['user'],
  });

  it('tells onPatientHistoryChanged of every allergy write, and the reader gives the rows back', async () => {
    const onPatientHistoryChanged = vi.fn();
    const deps = { sequelize: t.sequelize, catalogues: t.catalogues, now: () => new Date(), onPatientHistoryChanged };
    const a = await allergies.createPatientAllergy(deps, principal(), patientId, {
      allergy_type: '02',
      description: 'Mariscos',
      active: true,
    });
    await allergies.updatePatientAllergy(deps, principal(), patientId, a.id, { active: false });
    await allergies.deletePatientAllergy(deps, principal(), patientId, a.id);
    expect(onPatientHistoryChanged.mock.calls).toEqual([
      [org.clientId, patientId, principal().userId],
      [org.clientId, patientId, principal().userId],
      [org.clientId, patientId, principal().userId],
    ]);
    const rows = await allergies.listAllergies(deps, org.clientId, patientId);
    expect(rows.every((r) => r.id !== a.id)).toBe(true);
    expect(await allergies.listAllergies(deps, other.clientId, patientId)).toEqual([]);
  });

  it('tells onPatientHistoryChanged of every family-history write, and runs without it', async () => {
    const onPatientHistoryChanged = vi.fn();
    const deps = { sequelize: t.sequelize, catalogues: t.catalogues, now: () => new Date(), onPatientHistoryChanged };
    const f = await familyHistory.createPatientFamilyHistory(deps, principal(), patientId, {
      relationship: '04',
      description: 'Glaucoma',
      icd10: 'H40',
    });
    await familyHistory.updatePatientFamilyHistory(deps, principal(), patientId, f.id, { description: 'Glaucoma (abuela)' });
    await familyHistory.deletePatientFamilyHistory(deps, principal(), patientId, f.id);
    expect(onPatientHistoryChanged).toHaveBeenCalledTimes(3);
    expect(onPatientHistoryChanged).toHaveBeenLastCalledWith(org.clientId, patientId, principal().userId);
    const { onPatientHistoryChanged: _, ...without } = deps;
    const g = await familyHistory.createPatientFamilyHistory(without, principal(), patientId, { relationship: '01', description: 'Asma' });
    expect((await familyHistory.listFamilyHistory(without, org.clientId, patientId)).map((r) => r.id)).toContain(g.id);
  });
});
