import { DataTypes, type QueryInterface } from 'sequelize';

const { INTEGER, STRING, DATE, TEXT } = DataTypes;

/**
 * The data an RDA (Resolución 1888 de 2025, issue 51) needs and Vigía did not hold
 * (docs/rda-plan.md §2). Every column is nullable: what an organisation has not filled in yet is
 * listed by the RDA's gap rules (contract/rules/rda.ts), never invented. Coded columns hold the
 * guide's own code (seeds/catalogues/<list>.json), the code the RDA sends.
 * - patients: biological sex, gender identity, residence zone, nationality (ISO 3166-1 numeric),
 *   ethnicity and ethnic community, disabilities (a JSON list of codes).
 * - users (the practitioner): document type and number, RETHUS profession and registration number.
 * - clients (the provider): NIT, REPS code, provider class, legal nature, care level, address and
 *   municipality; `client_sites` its sedes, each with its REPS code.
 */
const PATIENT_COLUMNS = {
  biological_sex: () => ({ type: STRING(2), allowNull: true }),
  gender_identity: () => ({ type: STRING(2), allowNull: true }),
  residence_zone: () => ({ type: STRING(2), allowNull: true }),
  nationality: () => ({ type: STRING(3), allowNull: true }),
  ethnicity: () => ({ type: STRING(2), allowNull: true }),
  ethnic_community: () => ({ type: STRING(100), allowNull: true }),
  disabilities: () => ({ type: TEXT, allowNull: true }),
};
const USER_COLUMNS = {
  id_type: () => ({ type: INTEGER, allowNull: true }),
  nid: () => ({ type: STRING(20), allowNull: true }),
  profession: () => ({ type: STRING(5), allowNull: true }),
  rethus_number: () => ({ type: STRING(30), allowNull: true }),
};
const CLIENT_COLUMNS = {
  nit: () => ({ type: STRING(10), allowNull: true }),
  reps_code: () => ({ type: STRING(12), allowNull: true }),
  provider_class: () => ({ type: STRING(5), allowNull: true }),
  legal_nature: () => ({ type: STRING(5), allowNull: true }),
  care_level: () => ({ type: STRING(2), allowNull: true }),
  address: () => ({ type: STRING(200), allowNull: true }),
  city_id: () => ({ type: INTEGER, allowNull: true }),
};

export async function up({ context: qi }: { context: QueryInterface }) {
  for (const [table, columns] of [
    ['patients', PATIENT_COLUMNS],
    ['users', USER_COLUMNS],
    ['clients', CLIENT_COLUMNS],
  ] as const) {
    for (const [name, column] of Object.entries(columns)) await qi.addColumn(table, name, column());
  }
  await qi.createTable('client_sites', {
    id: { type: INTEGER, primaryKey: true, autoIncrement: true },
    client_id: { type: INTEGER, allowNull: false, references: { model: 'clients', key: 'id' }, onDelete: 'CASCADE' },
    name: { type: STRING(100), allowNull: false },
    reps_site_code: { type: STRING(12), allowNull: true },
    address: { type: STRING(200), allowNull: true },
    city_id: { type: INTEGER, allowNull: true },
    created_at: { type: DATE, allowNull: false },
    updated_at: { type: DATE, allowNull: false },
  });
  await qi.addIndex('client_sites', ['client_id', 'id'], { name: 'client_sites_client_id' });
}

export async function down({ context: qi }: { context: QueryInterface }) {
  await qi.dropTable('client_sites');
  for (const [table, columns] of [
    ['clients', CLIENT_COLUMNS],
    ['users', USER_COLUMNS],
    ['patients', PATIENT_COLUMNS],
  ] as const) {
    for (const name of Object.keys(columns)) await qi.removeColumn(table, name);
  }
}
