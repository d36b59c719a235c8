import type { DemoRdaWriter, SeedDeps } from '../api/src/seed-deps.js';
import type { Sequelize } from 'sequelize';
import { PATIENT_STATUS } from '@vigia/contract/rules/access';
import { ENCOUNTER_STATUS } from '@vigia/contract/rules/encounters';
import { TELECONSULTATION_DEFAULTS } from '@vigia/contract/rules/teleconsultations';
import { MEASUREMENT_STATUS } from '@vigia/contract/rules/vitals';
import { buildDemoTeleconsultation, DEMO_TELECONSULTATIONS, type DemoReading } from './demo.rules.js';

/**
 * The demo's RDA (issue 51), written by the product's own paths once it is built (server.ts, after
 * the demo's rows): a few teleconsultations of Clínica Demo filled and closed by its doctor through
 * the encounters service (the RDA de consulta externa built with its Epicrisis, kept by recordRda),
 * and each demo patient's RDA de paciente as the statement job writes it, for those whose data is
 * complete. Without IHCE settings every one is kept 'sin enviar'. The clinical text of each
 * teleconsultation is the demo's (demo.rules.ts DEMO_TELECONSULTATIONS); the readings it reviews
 * and the values its findings quote are the patient's own demo readings.
 */

const DAY_MS = 86_400_000;

export interface DemoRdaSummary {
  consultations: number;
  statements: number;
}

interface Ids {
  clientId: number;
  userId: number;
}

async function userOf(deps: SeedDeps, sequelize: Sequelize, email: string): Promise<Ids | null> {
  const [row] = await deps.sql.select<{ id: number; client_id: number }>(
    sequelize,
    'SELECT id, client_id FROM users WHERE email = :email',
    {
      email,
    },
  );
  return row ? { clientId: Number(row.client_id), userId: Number(row.id) } : null;
}

/** The latest valid readings of `elements` (those taken together) before `before`, newest first, `count` of them. */
async function latestReadings(
  deps: SeedDeps,
  sequelize: Sequelize,
  patientId: number,
  elements: readonly number[],
  before: Date,
  count: number,
): Promise<DemoReading[][]> {
  const [first, ...others] = elements;
  const heads = await deps.sql.select<{ id: number; value: number; when: string | Date }>(
    sequelize,
    `SELECT id, value, "when" FROM measurements WHERE patient_id = :patientId AND clinical_element = :element AND status = :valid
       AND "when" < :before ORDER BY "when" DESC, id DESC LIMIT :count`,
    { patientId, element: first, valid: MEASUREMENT_STATUS.valid, before, count },
  );
  const sets: DemoReading[][] = [];
  for (const head of heads) {
    const set: DemoReading[] = [{ id: Number(head.id), clinical_element: first, value: Number(head.value) }];
    for (const element of others) {
      const [partner] = await deps.sql.select<{ id: number; value: number }>(
        sequelize,
        `SELECT id, value FROM measurements WHERE patient_id = :patientId AND clinical_element = :element AND status = :valid AND "when" = :when
         ORDER BY id LIMIT 1`,
        { patientId, element, valid: MEASUREMENT_STATUS.valid, when: new Date(head.when) },
      );
      if (partner) set.push({ id: Number(partner.id), clinical_element: element, value: Number(partner.value) });
    }
    if (set.length === elements.length) sets.push(set);
  }
  return sets;
}

/** Active patients of the client whose RDA data is complete, with readings of `element` in the days before `before`. */
async function candidates(deps: SeedDeps, sequelize: Sequelize, clientId: number, element: number, before: Date): Promise<number[]> {
  const rows = await deps.sql.select<{ id: number }>(
    sequelize,
    `SELECT p.id FROM patients p WHERE p.client_id = :clientId AND p.status = :active AND p.city_id IS NOT NULL
       AND p.biological_sex IS NOT NULL AND p.residence_zone IS NOT NULL
       AND EXISTS (SELECT 1 FROM measurements m WHERE m.patient_id = p.id AND m.clinical_element = :element AND m.status = :valid
         AND m."when" >= :since AND m."when" < :before)
     ORDER BY p.id`,
    {
      clientId,
      active: PATIENT_STATUS.active,
      element,
      valid: MEASUREMENT_STATUS.valid,
      since: new Date(before.getTime() - 7 * DAY_MS),
      before,
    },
  );
  return rows.map((r) => Number(r.id));
}

async function seedTeleconsultations(deps: SeedDeps, sequelize: Sequelize, writer: DemoRdaWriter, now: Date): Promise<number> {
  const doctor = await userOf(deps, sequelize, 'medico@demo.vigia.co');
  if (!doctor) return 0;
  const [site] = await deps.sql.select<{ id: number }>(sequelize, 'SELECT id FROM client_sites WHERE client_id = :clientId ORDER BY id', {
    clientId: doctor.clientId,
  });
  const used = new Set<number>();
  let closed = 0;
  for (const plan of DEMO_TELECONSULTATIONS) {
    const openedAt = new Date(now.getTime() - plan.daysAgo * DAY_MS);
    const closedAt = new Date(openedAt.getTime() + plan.minutes * 60_000);
    const patientId = (await candidates(deps, sequelize, doctor.clientId, plan.elements[0], openedAt)).find((id) => !used.has(id));
    if (patientId === undefined) continue;
    const readings = await latestReadings(deps, sequelize, patientId, plan.elements, openedAt, plan.readings);
    if (!readings.length) continue;
    used.add(patientId);
    const encounterId = await deps.sql.insertReturningId(
      sequelize,
      `INSERT INTO encounters (client_id, patient_id, kind, status, created_by, modality, environment, external_cause, created_at, updated_at)
       VALUES (:clientId, :patientId, 'teleconsultation', :pending, :userId, :modality, :environment, :externalCause, :openedAt, :openedAt)
       RETURNING id`,
      {
        clientId: doctor.clientId,
        patientId,
        pending: ENCOUNTER_STATUS.pending,
        userId: doctor.userId,
        modality: TELECONSULTATION_DEFAULTS.modality,
        environment: TELECONSULTATION_DEFAULTS.environment,
        externalCause: TELECONSULTATION_DEFAULTS.external_cause,
        openedAt,
      },
    );
    const draft = buildDemoTeleconsultation(plan, readings);
    await writer.closeTeleconsultation({
      ...doctor,
      encounterId,
      closedAt,
      draft: { ...draft, ...(site ? { site_id: Number(site.id) } : {}) },
    });
    closed += 1;
  }
  return closed;
}

/**
 * Every demo patient's statement, signed by the practitioner of their organisation who enrolls
 * (Clínica Demo's doctor, Hogar Los Andes' nurse director); those whose data is incomplete get
 * none, as in the product.
 */
async function seedStatements(deps: SeedDeps, sequelize: Sequelize, writer: DemoRdaWriter, now: Date): Promise<number> {
  let written = 0;
  for (const email of ['medico@demo.vigia.co', 'admin@losandes.vigia.co']) {
    const author = await userOf(deps, sequelize, email);
    if (!author) continue;
    const patients = await deps.sql.select<{ id: number }>(sequelize, 'SELECT id FROM patients WHERE client_id = :clientId ORDER BY id', {
      clientId: author.clientId,
    });
    for (const p of patients) {
      if (await writer.writePatientStatement({ ...author, patientId: Number(p.id) }, now)) written += 1;
    }
  }
  return written;
}

/** Runs after seedDemo, on the built product (its models and catalogues): `writer` is deps.demoRdaWriter(product). */
export async function seedDemoRdas(
  deps: SeedDeps,
  sequelize: Sequelize,
  writer: DemoRdaWriter,
  opts: { now: Date },
): Promise<DemoRdaSummary> {
  const consultations = await seedTeleconsultations(deps, sequelize, writer, opts.now);
  const statements = await seedStatements(deps, sequelize, writer, opts.now);
  return { consultations, statements };
}
