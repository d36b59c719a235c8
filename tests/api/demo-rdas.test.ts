import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { select } from '../../api/src/db/sql.js';
import { seedDeps } from '../../api/src/seed-deps.js';
import { seedDemo } from '../../seeds/demo.js';
import { seedDemoRdas, type DemoRdaSummary } from '../../seeds/demo-rdas.js';
import { loadRdaDefinitions, rdaErrors, rdaProfile, validateRda, type Json } from '../support/rda-validator';
import { bearer, startTestProduct, type TestProduct } from '../support/product.js';
import { DEMO_PASSWORD } from '../../seeds/demo.js';

/**
 * The demo's RDA (issue 51): the product started on an empty database with its demo data, as
 * server.ts does (seedDemo, then seedDemoRdas on the built product), holds closed teleconsultations
 * and patient statements whose every stored Bundle validates against the guide's profiles with 0
 * errors, each required element read from the demo's own rows, all kept 'sin enviar' (the demo has
 * no IHCE settings).
 */

const now = new Date('2026-11-20T15:00:00Z');
let t: TestProduct;
let made: DemoRdaSummary;
/** What the statement writer logged for the patients it left without a statement. */
const logged: string[] = [];

interface RdaRow {
  id: number;
  client_id: number;
  patient_id: number;
  encounter_id: number | null;
  kind: 'consulta' | 'paciente';
  status: string;
  bundle: string;
}
let rdas: Array<RdaRow & { doc: Json }>;

const resources = (doc: Json, type: string): Json[] => doc.entry.map((e: Json) => e.resource).filter((r: Json) => r.resourceType === type);
const extension = (r: Json, suffix: string) => (r.extension as Json[] | undefined)?.find((x) => String(x.url).endsWith(suffix));

beforeAll(async () => {
  t = await startTestProduct({ now: () => now });
  await seedDemo(seedDeps, t.sequelize.getQueryInterface(), { now });
  made = await seedDemoRdas(seedDeps, t.sequelize, seedDeps.demoRdaWriter({ ...t, log: (msg) => logged.push(msg) }), { now });
  rdas = (
    await select<RdaRow>(
      t.sequelize,
      `SELECT r.id, r.client_id, r.patient_id, r.encounter_id, r.kind, r.status, d.bundle
       FROM rdas r JOIN rda_documents d ON d.rda_id = r.id ORDER BY r.id`,
    )
  ).map((r) => ({ ...r, id: Number(r.id), patient_id: Number(r.patient_id), doc: JSON.parse(r.bundle) as Json }));
  loadRdaDefinitions();
}, 300_000);
afterAll(async () => t?.stop());

describe('demo data and the RDA', () => {
  it('holds two or three closed teleconsultations and a statement for each patient whose data is complete', async () => {
    expect(made.consultations).toBeGreaterThanOrEqual(2);
    expect(made.statements).toBeGreaterThan(0);
    expect(rdas.filter((r) => r.kind === 'consulta')).toHaveLength(made.consultations);
    expect(rdas.filter((r) => r.kind === 'paciente')).toHaveLength(made.statements);
    const closed = await select<{ id: number; status: string }>(
      t.sequelize,
      "SELECT id, status FROM encounters WHERE kind = 'teleconsultation' ORDER BY id",
    );
    expect(closed.map((e) => e.status)).toEqual(closed.map(() => 'Realizado'));
    expect(rdas.filter((r) => r.kind === 'consulta').map((r) => Number(r.encounter_id))).toEqual(closed.map((e) => Number(e.id)));
    // A statement for each patient with the RDA's required data, none for those without it (an incomplete record).
    const patients = await select<{ id: number; complete: number }>(
      t.sequelize,
      `SELECT id, CASE WHEN biological_sex IS NOT NULL AND residence_zone IS NOT NULL AND city_id IS NOT NULL THEN 1 ELSE 0 END AS complete
       FROM patients ORDER BY id`,
    );
    const stated = new Set(rdas.filter((r) => r.kind === 'paciente').map((r) => r.patient_id));
    for (const p of patients) expect(stated.has(Number(p.id)), `paciente ${p.id}`).toBe(Number(p.complete) === 1);
    expect(patients.some((p) => Number(p.complete) === 0)).toBe(true);
    // The log names the fields an organisation must fill, never who lacks them (P214).
    expect(logged).toHaveLength(patients.filter((p) => Number(p.complete) === 0).length);
    for (const line of logged) expect(line).toMatch(/^RDA de paciente sin escribir: le falta patient\.[a-z_]+(, patient\.[a-z_]+)*$/);
  });

  it("keeps every one 'sin enviar': the demo has no IHCE settings", () => {
    expect(new Set(rdas.map((r) => r.status))).toEqual(new Set(['sin_enviar']));
  });

  it('validates every stored RDA against its Bundle profile with 0 errors', () => {
    for (const r of rdas) {
      const profile = r.kind === 'consulta' ? 'BundleAmbulatoryRDA' : 'BundlePatientStatementRDA';
      expect(rdaErrors(validateRda(r.doc, rdaProfile(profile))), `RDA ${r.id} (${r.kind})`).toEqual([]);
    }
  }, 600_000);

  it("reads each teleconsultation's required elements from the demo's rows", async () => {
    for (const r of rdas.filter((x) => x.kind === 'consulta')) {
      const [client] = await select<{ nit: string; reps_code: string }>(t.sequelize, 'SELECT nit, reps_code FROM clients WHERE id = :id', {
        id: r.client_id,
      });
      const [encounter] = await select<{ responsible: number; reason: string; findings: string; plan: string; site: string }>(
        t.sequelize,
        `SELECT e.responsible, e.reason, e.findings, e.plan, s.reps_site_code AS site FROM encounters e
         JOIN client_sites s ON s.id = e.site_id WHERE e.id = :id`,
        { id: r.encounter_id },
      );
      const [doctor] = await select<{ nid: string; rethus_number: string }>(
        t.sequelize,
        'SELECT nid, rethus_number FROM users WHERE id = :id',
        {
          id: encounter.responsible,
        },
      );
      const [patient] = await select<{ nid: string; biological_sex: string }>(
        t.sequelize,
        'SELECT nid, biological_sex FROM patients WHERE id = :id',
        { id: r.patient_id },
      );
      const diagnoses = await select<{ code: string }>(
        t.sequelize,
        'SELECT code FROM encounter_diagnoses WHERE encounter_id = :id ORDER BY rank',
        {
          id: r.encounter_id,
        },
      );
      const readings = await select<{ value: number }>(
        t.sequelize,
        `SELECT m.value FROM encounter_readings er JOIN measurements m ON m.id = er.measurement_id WHERE er.encounter_id = :id`,
        { id: r.encounter_id },
      );

      const [organisation] = resources(r.doc, 'Organization');
      expect(organisation.identifier.map((i: Json) => i.value)).toEqual(expect.arrayContaining([client.nit, client.reps_code]));
      expect(resources(r.doc, 'Location')[0].identifier[0].value).toBe(encounter.site);
      const [practitioner] = resources(r.doc, 'Practitioner');
      expect(practitioner.identifier[0].value).toBe(doctor.nid);
      expect(JSON.stringify(practitioner.qualification)).toContain(doctor.rethus_number);
      const [person] = resources(r.doc, 'Patient');
      expect(person.identifier[0].value).toBe(patient.nid);
      expect(extension(person._gender, 'ExtensionBiologicalGender')?.valueCoding.code).toBe(patient.biological_sex);
      expect(resources(r.doc, 'Condition').map((c) => c.code.coding[0].code)).toEqual(diagnoses.map((d) => d.code));
      // The readings reviewed are the patient's demo readings, quoted in the findings too.
      // The readings: the Observations the main diagnosis cites as its evidence.
      const byUrl = new Map(r.doc.entry.map((e: Json) => [e.fullUrl, e.resource]));
      const evidence = (resources(r.doc, 'Condition')[0].evidence as Json[]).flatMap((e) =>
        e.detail.map((d: Json) => byUrl.get(d.reference) as Json),
      );
      const observed = evidence.flatMap((o) =>
        o.component ? o.component.map((c: Json) => c.valueQuantity.value) : [o.valueQuantity.value],
      );
      expect(observed.sort()).toEqual(readings.map((m) => Number(m.value)).sort());
      for (const value of observed) expect(encounter.findings).toContain(String(value));
      const problems = JSON.stringify(resources(r.doc, 'Composition')[0].section);
      for (const text of [encounter.reason, encounter.plan]) expect(problems).toContain(text);
    }
  });

  it("reads each statement's patient and author from the demo's rows", async () => {
    for (const r of rdas.filter((x) => x.kind === 'paciente')) {
      const [patient] = await select<{ nid: string; biological_sex: string; residence_zone: string }>(
        t.sequelize,
        'SELECT nid, biological_sex, residence_zone FROM patients WHERE id = :id',
        { id: r.patient_id },
      );
      const [person] = resources(r.doc, 'Patient');
      expect(person.identifier[0].value).toBe(patient.nid);
      expect(extension(person._gender, 'ExtensionBiologicalGender')?.valueCoding.code).toBe(patient.biological_sex);
      expect(JSON.stringify(person.address)).toContain(`"code":"${patient.residence_zone}"`);
      const [author] = resources(r.doc, 'Practitioner');
      const [user] = await select<{ nid: string }>(t.sequelize, 'SELECT nid FROM users WHERE client_id = :c AND nid = :nid', {
        c: r.client_id,
        nid: author.identifier[0].value,
      });
      expect(user, `autor del RDA ${r.id}`).toBeDefined();
    }
  });

  it("lists them to the demo's administrator, counted on the dashboard as 'sin enviar'", async () => {
    const login = await t.http.post('/api/v1/sessions').send({ email: 'medico@demo.vigia.co', password: DEMO_PASSWORD });
    expect(login.status, JSON.stringify(login.body)).toBe(201);
    const summary = await t.http.get('/api/v1/rdas/summary').set(bearer(login.body.token));
    expect(summary.status).toBe(200);
    const own = rdas.filter((r) => r.client_id === rdas.find((x) => x.kind === 'consulta')!.client_id);
    expect(summary.body).toEqual({ sin_enviar: own.length, pendiente: 0, enviado: 0, rechazado: 0, corregido: 0 });
  });
});
