import { randomInt } from 'node:crypto';
import { QueryTypes, type QueryInterface, type Transaction } from 'sequelize';
import {
  buildDemoPassword,
  buildDemoPatients,
  buildDemoReferences,
  buildVitalSeries,
  DEMO_TAGS,
  type DemoPatient,
  type DemoReferences,
} from './demo.rules.js';
import { createRng, type Rng } from './random.js';
import { normaliseName } from '@vigia/contract/rules/validation';
import type { SeedDeps } from '../api/src/seed-deps.js';
import { seedDemoRecord } from './demo-record.js';
import { seedDemoInventory } from './demo-inventory.js';
import { seedDemoOrders } from './demo-orders.js';
import { seedDemoAlerts } from './demo-alerts.js';

/**
 * Demo data for a fresh installation: two clients (so tenancy can be seen), one user per role,
 * tags, patients and 90 days of device measurements. Inserted in bulk in one transaction.
 */

export const DEMO_PASSWORD = 'Vigia@2026';
export const DEMO_PORTAL_PATIENT = { nid: '1020304050', cellphone: '3001234567' } as const;
const DEMO_DAYS = 90;
/** Rows per INSERT: keeps every statement well inside SQLite's limits. */
const CHUNK_ROWS = 500;

type Role = 'admin' | 'medico' | 'enfermeria' | 'consulta';

interface DemoUserPlan {
  email: string;
  role: Role;
  first_name: string;
  last_name: string;
  cellphone: string;
  /** The practitioner's RDA data (cédula, RETHUS profession and registration), for those who sign one. */
  practitioner?: { nid: string; profession: string; rethus_number: string };
}

/**
 * The provider's RDA data (CareDeliveryOrganizationRDA): NIT without its check digit, REPS code
 * (10 digits), class, legal nature, level, address in its home city; and its sede (REPS code of
 * 12 digits: the provider's and the sede's number), where its teleconsultations are given.
 */
interface DemoProviderPlan {
  nit: string;
  reps_code: string;
  provider_class: string;
  legal_nature: string;
  care_level: string;
  address: string;
  site: { name: string; reps_site_code: string; address: string };
}

interface DemoClientPlan {
  name: string;
  multipatient: boolean;
  patients: number;
  cityCodes?: string[];
  birthYears?: [number, number];
  tagNames: string[];
  portalPatient?: { nid: string; cellphone: string };
  provider: DemoProviderPlan;
  users: DemoUserPlan[];
}

const CLIENT_PLANS: DemoClientPlan[] = [
  {
    name: 'Clínica Demo',
    multipatient: false,
    patients: 60,
    tagNames: DEMO_TAGS.map((tag) => tag.name),
    portalPatient: DEMO_PORTAL_PATIENT,
    provider: {
      nit: '900123456',
      reps_code: '1100101234',
      provider_class: 'IPS',
      legal_nature: 'PRIV',
      care_level: '1',
      address: 'Carrera 7 # 72-41, consultorio 301',
      site: { name: 'Sede Chapinero', reps_site_code: '110010123401', address: 'Carrera 7 # 72-41, consultorio 301' },
    },
    users: [
      { email: 'admin@demo.vigia.co', role: 'admin', first_name: 'ANA LUCÍA', last_name: 'MEJÍA TORRES', cellphone: '3104567801' },
      {
        email: 'medico@demo.vigia.co',
        role: 'medico',
        first_name: 'JORGE ELIÉCER',
        last_name: 'SALAZAR PINEDA',
        cellphone: '3104567802',
        practitioner: { nid: '79456123', profession: '003', rethus_number: '79456123-2009' },
      },
      {
        email: 'enfermeria@demo.vigia.co',
        role: 'enfermeria',
        first_name: 'LUZ MARINA',
        last_name: 'CASTAÑO RÍOS',
        cellphone: '3104567803',
        practitioner: { nid: '52789456', profession: '001', rethus_number: '52789456-2012' },
      },
      {
        email: 'consulta@demo.vigia.co',
        role: 'consulta',
        first_name: 'DIEGO ALEJANDRO',
        last_name: 'VARGAS LEÓN',
        cellphone: '3104567804',
      },
    ],
  },
  {
    // A care home in Medellín: older residents, shared (multi-patient) devices.
    name: 'Hogar Los Andes',
    multipatient: true,
    patients: 5,
    cityCodes: ['05001'],
    birthYears: [1930, 1950],
    tagNames: ['ADULTO MAYOR', 'HIPERTENSIÓN', 'DIABETES', 'EPOC', 'ALTO RIESGO'],
    provider: {
      nit: '901234567',
      reps_code: '0500104567',
      provider_class: 'IPS',
      legal_nature: 'PRIV',
      care_level: '1',
      address: 'Calle 10 Sur # 43A-25',
      site: { name: 'Sede El Poblado', reps_site_code: '050010456701', address: 'Calle 10 Sur # 43A-25' },
    },
    users: [
      {
        // The home's director is its nurse: she signs its residents' RDA.
        email: 'admin@losandes.vigia.co',
        role: 'admin',
        first_name: 'CATALINA',
        last_name: 'ECHEVERRI URIBE',
        cellphone: '3154567805',
        practitioner: { nid: '43567891', profession: '001', rethus_number: '43567891-2005' },
      },
    ],
  },
];

interface DemoSummary {
  clients: Array<{ id: number; name: string; patients: number }>;
  users: Array<{ email: string; role: Role; password: string; client: string }>;
  /** The patient for the portal's one-time-code login demo. */
  portalPatient: { nid: string; id_type: 'CC'; prefix: string; cellphone: string; name: string; client: string };
  counts: { patients: number; tags: number; patientTags: number; measurements: number };
}

interface SeedDemoOptions {
  now: Date;
  /** Same seed, same demo (default 2026). */
  seed?: number;
  transaction?: Transaction;
  /**
   * 'published' (default): every user signs in with DEMO_PASSWORD, as README says. 'generated': each
   * user gets a password of its own, made for this run and returned in the summary only (a demo
   * asked for in production, issue 49: README's password is public).
   */
  passwords?: 'published' | 'generated';
}

async function insertChunked(qi: QueryInterface, table: string, rows: object[], transaction: Transaction) {
  for (let start = 0; start < rows.length; start += CHUNK_ROWS) {
    await qi.bulkInsert(table, rows.slice(start, start + CHUNK_ROWS), { transaction });
  }
}

async function readNextId(qi: QueryInterface, table: string, transaction: Transaction): Promise<number> {
  const [row] = await qi.sequelize.query<{ max: number | null }>(`SELECT MAX(id) AS max FROM ${qi.quoteIdentifier(table)}`, {
    type: QueryTypes.SELECT,
    transaction,
  });
  return Number(row?.max ?? 0) + 1;
}

/** Explicit ids skip PostgreSQL's sequences, which must then be moved past them. */
export async function syncIdSequences(qi: QueryInterface, tables: string[], transaction?: Transaction) {
  if (qi.sequelize.getDialect() !== 'postgres') return;
  for (const table of tables) {
    await qi.sequelize.query(`SELECT setval(pg_get_serial_sequence('${table}', 'id'), GREATEST((SELECT MAX(id) FROM "${table}"), 1))`, {
      transaction,
    });
  }
}

function buildMeasurementRows(rng: Rng, clientId: number, patientId: number, patient: DemoPatient, now: Date, refs: DemoReferences) {
  return buildVitalSeries(rng, patient, DEMO_DAYS, now, refs).map((m) => ({
    client_id: clientId,
    patient_id: patientId,
    clinical_element: m.clinical_element,
    value: m.value,
    when: m.when,
    status: 0,
    comment: null,
    eraseble: true,
    source: 'device',
    created_by: null,
    // Devices upload a few seconds to a minute after the reading (never after `now`).
    created_at: new Date(Math.min(now.getTime(), m.when.getTime() + rng.int(5, 90) * 1000)),
  }));
}

async function assertEmptyDatabase(qi: QueryInterface, countryId: number, transaction: Transaction) {
  const [country] = await qi.sequelize.query<{ n: number }>('SELECT COUNT(*) AS n FROM countries WHERE id = :countryId', {
    type: QueryTypes.SELECT,
    replacements: { countryId },
    transaction,
  });
  if (Number(country?.n) === 0) throw new Error('seedDemo: faltan los catálogos; ejecute syncCatalogues primero');
  const [clients] = await qi.sequelize.query<{ n: number }>('SELECT COUNT(*) AS n FROM clients', { type: QueryTypes.SELECT, transaction });
  if (Number(clients?.n) > 0)
    throw new Error('seedDemo: la base de datos ya tiene clientes; los datos de demostración solo se crean en una base vacía');
}

/** Fills an empty, migrated database whose catalogues are synced; `deps` is what the API hands the seeders. */
export async function seedDemo(deps: SeedDeps, qi: QueryInterface, opts: SeedDemoOptions): Promise<DemoSummary> {
  const { now } = opts;
  const refs = buildDemoReferences(deps.loadCatalogues());
  const rng = createRng(opts.seed ?? 2026);
  const emails = CLIENT_PLANS.flatMap((plan) => plan.users.map((user) => user.email));
  const passwords = new Map(
    emails.map((email) => [email, opts.passwords === 'generated' ? buildDemoPassword((n) => randomInt(n)) : DEMO_PASSWORD]),
  );
  // One hash per distinct password: bcrypt is slow on purpose, and the published demo shares one.
  const hashes = new Map<string, string>();
  for (const password of new Set(passwords.values())) hashes.set(password, await deps.hashPassword(password));
  const passwordOf = (email: string) => passwords.get(email)!;

  const run = async (transaction: Transaction): Promise<DemoSummary> => {
    await assertEmptyDatabase(qi, refs.countryId, transaction);
    let clientId = await readNextId(qi, 'clients', transaction);
    let userId = await readNextId(qi, 'users', transaction);
    let tagId = await readNextId(qi, 'tags', transaction);
    let patientId = await readNextId(qi, 'patients', transaction);
    const stamps = { created_at: now, updated_at: now };
    const usedNids = new Set<string>();
    const summary: DemoSummary = {
      clients: [],
      users: [],
      portalPatient: { nid: '', id_type: 'CC', prefix: refs.prefix, cellphone: '', name: '', client: '' },
      counts: { patients: 0, tags: 0, patientTags: 0, measurements: 0 },
    };

    for (const plan of CLIENT_PLANS) {
      const id = clientId++;
      const homeCity = refs.cities.find((c) => c.code === (plan.cityCodes?.[0] ?? '11001'))!;
      await qi.bulkInsert(
        'clients',
        [
          {
            id,
            name: plan.name,
            logo_url: null,
            country_id: refs.countryId,
            time_zone: refs.timeZone,
            // The demo clients show the patient-page tabs a new client gets.
            clinical_elements: JSON.stringify(deps.defaultClinicalElements),
            multipatient: plan.multipatient,
            residents_enabled: false,
            have_metabase: false,
            webhook_validated: false,
            webhook_measurements: false,
            webhook_alerts: false,
            nit: plan.provider.nit,
            reps_code: plan.provider.reps_code,
            provider_class: plan.provider.provider_class,
            legal_nature: plan.provider.legal_nature,
            care_level: plan.provider.care_level,
            address: normaliseName(plan.provider.address),
            city_id: homeCity.id,
            ...stamps,
          },
        ],
        { transaction },
      );
      await qi.bulkInsert(
        'client_sites',
        [
          {
            client_id: id,
            // As the API stores them (clients.service): names and addresses normalised.
            name: normaliseName(plan.provider.site.name),
            reps_site_code: plan.provider.site.reps_site_code,
            address: normaliseName(plan.provider.site.address),
            city_id: homeCity.id,
            ...stamps,
          },
        ],
        { transaction },
      );

      await qi.bulkInsert(
        'users',
        plan.users.map((user) => ({
          id: userId++,
          client_id: id,
          email: user.email,
          password_hash: hashes.get(passwordOf(user.email)),
          first_name: user.first_name,
          last_name: user.last_name,
          role_name: user.role,
          status: 0,
          cellphone: user.cellphone,
          prefix: refs.prefix,
          country_id: refs.countryId,
          city_id: homeCity.id,
          time_zone: refs.timeZone,
          media_email: true,
          media_whatsapp: false,
          priority_high: true,
          priority_medium: true,
          priority_low: false,
          id_type: user.practitioner ? refs.idType.id : null,
          nid: user.practitioner?.nid ?? null,
          profession: user.practitioner?.profession ?? null,
          rethus_number: user.practitioner?.rethus_number ?? null,
          ...stamps,
        })),
        { transaction },
      );
      for (const user of plan.users)
        summary.users.push({ email: user.email, role: user.role, password: passwordOf(user.email), client: plan.name });

      const tagIds = new Map<string, number>();
      const tagRows = DEMO_TAGS.filter((tag) => plan.tagNames.includes(tag.name)).map((tag) => {
        tagIds.set(tag.name, tagId);
        return { id: tagId++, client_id: id, name: tag.name, color: tag.color, ...stamps };
      });
      await qi.bulkInsert('tags', tagRows, { transaction });

      const patients = buildDemoPatients(rng, plan.patients, {
        refs,
        now,
        usedNids,
        cityCodes: plan.cityCodes,
        birthYears: plan.birthYears,
        portalPatient: plan.portalPatient,
      });
      const patientRows: object[] = [];
      const patientTagRows: object[] = [];
      const searchTermRows: object[] = [];
      const measurementRows: object[] = [];
      for (const patient of patients) {
        const pid = patientId++;
        patientRows.push({ id: pid, client_id: id, ...patient.row });
        for (const term of deps.searchTerms(patient.row.search_name)) searchTermRows.push({ client_id: id, term, patient_id: pid });
        for (const name of patient.tags) {
          const tid = tagIds.get(name);
          if (tid !== undefined) patientTagRows.push({ patient_id: pid, tag_id: tid });
        }
        for (const row of buildMeasurementRows(rng, id, pid, patient, now, refs)) measurementRows.push(row);
      }
      await insertChunked(qi, 'patients', patientRows, transaction);
      await insertChunked(qi, 'patient_tags', patientTagRows, transaction);
      await insertChunked(qi, 'patient_search_terms', searchTermRows, transaction);
      await insertChunked(qi, 'measurements', measurementRows, transaction);

      if (plan.portalPatient) {
        const { row } = patients[0];
        summary.portalPatient = {
          nid: row.nid,
          id_type: 'CC',
          prefix: row.prefix ?? refs.prefix,
          cellphone: row.cellphone ?? '',
          name: `${row.first_name} ${row.last_name}`,
          client: plan.name,
        };
      }
      summary.clients.push({ id, name: plan.name, patients: patients.length });
      summary.counts.patients += patientRows.length;
      summary.counts.tags += tagRows.length;
      summary.counts.patientTags += patientTagRows.length;
      summary.counts.measurements += measurementRows.length;
    }
    await seedDemoRecord(deps, qi, { now, transaction });
    await syncIdSequences(qi, ['clients', 'users', 'tags', 'patients'], transaction);
    await seedDemoInventory(deps, qi, now, transaction);
    await seedDemoOrders(deps, qi, now, transaction);
    await seedDemoAlerts(deps, qi, now, transaction);
    return summary;
  };

  if (opts.transaction) return run(opts.transaction);
  return qi.sequelize.transaction((transaction) => run(transaction));
}
