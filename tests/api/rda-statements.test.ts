import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { startTestProduct, createOrg, bearer, patientBody, type TestProduct, type Org } from '../support/product';
import { select } from '../../api/src/db/sql';
import { loadRdaDefinitions, rdaErrors, rdaProfile, validateRda, type Json } from '../support/rda-validator';
import { RDA_STATEMENT_SETTLE_MS } from '../../api/src/modules/rdas/rdas.rules';

/**
 * The RDA de paciente (issue 51) written by the product itself: at enrolment and again when the
 * history the patient states changes, one document per patient and slot, only when complete.
 */
let t: TestProduct;
let org: Org;

beforeAll(async () => {
  t = await startTestProduct();
  org = await createOrg(t, 'Clinica Declaraciones');
  // The author of a statement is the user who enrolled the patient or changed their history: each
  // one's RETHUS data, through the route that owns it.
  for (const [role, nid] of [
    ['admin', '79123456'],
    ['enfermeria', '52987654'],
    ['medico', '80123456'],
  ] as const) {
    const user = await t.http
      .patch(`/api/v1/users/${org.users[role].id}`)
      .set(bearer(org.tokens.admin))
      .send({ id_type: 1, nid, profession: '001', rethus_number: `${nid}-2012` });
    expect(user.status, JSON.stringify(user.body)).toBe(200);
  }
});
afterAll(() => t.stop());

const admin = () => bearer(org.tokens.admin);
const COMPLETE = { biological_sex: '02', residence_zone: '01', nationality: '170', ethnicity: '6', disabilities: ['08'] };

type StatementJob = { key: string; run_at: string | Date };
const statementJobs = (patientId: number) =>
  select<StatementJob>(t.sequelize, "SELECT key, run_at FROM jobs WHERE kind = 'rda.statement' AND key LIKE :k ORDER BY id", {
    k: `rda.statement:${patientId}:%`,
  });
const statements = (patientId: number) =>
  select<{ kind: string; status: string; bundle: string }>(
    t.sequelize,
    `SELECT r.kind, r.status, d.bundle FROM rdas r JOIN rda_documents d ON d.rda_id = r.id
     WHERE r.patient_id = :patientId AND r.kind = 'paciente' ORDER BY r.id`,
    { patientId },
  );
/**
 * Runs the statement jobs as the runner would once their slot has ended: a change made after its
 * slot's job ran waits for the next slot, so two slots ahead.
 */
const runSlot = () => t.jobs.drain({ now: new Date(Date.now() + 2 * RDA_STATEMENT_SETTLE_MS + 1_000), kinds: ['rda.statement'] });

describe('the RDA de paciente', () => {
  it('is written after an enrolment with complete data, and validates against BundlePatientStatementRDA', async () => {
    const res = await t.http.post('/api/v1/patients').set(admin()).send(patientBody(COMPLETE));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const id = res.body.id as number;
    const [job] = await statementJobs(id);
    // Written at the end of its slot, so the changes of the next minutes go in the same document.
    expect(new Date(job.run_at).getTime() % RDA_STATEMENT_SETTLE_MS).toBe(0);
    expect(await statements(id)).toEqual([]);
    await runSlot();
    const [written] = await statements(id);
    expect(written).toMatchObject({ kind: 'paciente', status: 'sin_enviar' });
    loadRdaDefinitions();
    expect(rdaErrors(validateRda(JSON.parse(written.bundle) as Json, rdaProfile('BundlePatientStatementRDA')))).toEqual([]);
  }, 60_000);

  it('is written again, once, after allergies and family history change within a few minutes', async () => {
    const id = (await t.http.post('/api/v1/patients').set(admin()).send(patientBody(COMPLETE))).body.id as number;
    await runSlot();
    expect(await statements(id)).toHaveLength(1);
    const nurse = bearer(org.tokens.enfermeria);
    for (const description of ['Penicilina', 'Mariscos']) {
      const a = await t.http.post(`/api/v1/patients/${id}/allergies`).set(nurse).send({ allergy_type: '01', description, active: true });
      expect(a.status, JSON.stringify(a.body)).toBe(201);
    }
    const f = await t.http
      .post(`/api/v1/patients/${id}/family_history`)
      .set(nurse)
      .send({ relationship: '01', description: 'Diabetes mellitus tipo 2 de la madre', icd10: 'E119' });
    expect(f.status, JSON.stringify(f.body)).toBe(201);
    // The enrolment's job and one for the three changes (the slot's key), not one per change.
    expect((await statementJobs(id)).length).toBeLessThanOrEqual(3);
    await runSlot();
    const all = await statements(id);
    expect(all).toHaveLength(2);
    const text = all[1].bundle;
    expect(text).toContain('Penicilina');
    expect(text).toContain('Mariscos');
    expect(text).toContain('Diabetes mellitus tipo 2 de la madre');
    loadRdaDefinitions();
    expect(rdaErrors(validateRda(JSON.parse(text) as Json, rdaProfile('BundlePatientStatementRDA')))).toEqual([]);
  }, 60_000);

  it('is written again when a condition changes', async () => {
    const id = (await t.http.post('/api/v1/patients').set(admin()).send(patientBody(COMPLETE))).body.id as number;
    await runSlot();
    const c = await t.http.post(`/api/v1/patients/${id}/conditions`).set(bearer(org.tokens.medico)).send({ condition_type_id: 1 });
    expect(c.status, JSON.stringify(c.body)).toBe(201);
    await runSlot();
    expect(await statements(id)).toHaveLength(2);
  }, 60_000);

  it('is written again when a medication order is prescribed, with the medicine in it', async () => {
    const id = (await t.http.post('/api/v1/patients').set(admin()).send(patientBody(COMPLETE))).body.id as number;
    await runSlot();
    const order = {
      order_type: 1,
      medicine_id: 1,
      frecuency: 1,
      time_unit: 1,
      during: 2,
      amount: '1',
      medication_unit: 3,
      start_at: new Date(Date.now() + 86_400_000).toISOString(),
    };
    const res = await t.http
      .post(`/api/v1/patients/${id}/orders/bulk`)
      .set(bearer(org.tokens.medico))
      .send({ orders: [order] });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    await runSlot();
    const all = await statements(id);
    expect(all).toHaveLength(2);
    expect(JSON.parse(all[1].bundle).entry.some((e: Json) => (e.resource as Json).resourceType === 'MedicationStatement')).toBe(true);
  }, 60_000);

  it('is not written while the patient lacks what the profile requires', async () => {
    const id = (await t.http.post('/api/v1/patients').set(admin()).send(patientBody())).body.id as number;
    expect(await statementJobs(id)).toHaveLength(1);
    await runSlot();
    expect(await statements(id)).toEqual([]);
  }, 60_000);
});
