import { DataTypes, type QueryInterface } from 'sequelize';

/**
 * Patient record tabs: AI instructions (prompts) of a client, a tag or a patient; patient
 * observations (notes); conditions and their catalogue; clinical variables and their
 * observations; caregivers and their link to patients. Lists start with client_id (D14).
 */
const { INTEGER, BIGINT, STRING, TEXT, BOOLEAN, DATE, REAL } = DataTypes;
const id = { type: INTEGER, primaryKey: true, autoIncrement: true };
const client = { type: INTEGER, allowNull: false, references: { model: 'clients', key: 'id' } };
const patient = { type: INTEGER, allowNull: false, references: { model: 'patients', key: 'id' }, onDelete: 'CASCADE' };
const stamps = { created_at: { type: DATE, allowNull: false }, updated_at: { type: DATE, allowNull: false } };

export async function up({ context: qi }: { context: QueryInterface }) {
  // One table for the three levels: owner_type client | tag | patient, owner_id the row it belongs to.
  await qi.createTable('prompts', {
    id,
    client_id: client,
    owner_type: { type: STRING(10), allowNull: false },
    owner_id: { type: INTEGER, allowNull: false },
    text: { type: TEXT, allowNull: false },
    status: { type: INTEGER, allowNull: false, defaultValue: 0 },
    created_by: { type: INTEGER, allowNull: true },
    ...stamps,
  });
  await qi.addIndex('prompts', ['client_id', 'owner_type', 'owner_id', 'id'], { name: 'prompts_owner' });
  // At most one active instruction per owner, whatever the timing of two writers (partial index: SQLite and PostgreSQL).
  await qi.sequelize.query('CREATE UNIQUE INDEX prompts_one_active ON prompts (client_id, owner_type, owner_id) WHERE status = 1');

  await qi.createTable('observations', {
    id: { type: BIGINT, primaryKey: true, autoIncrement: true },
    client_id: client,
    patient_id: patient,
    observation_type: { type: INTEGER, allowNull: false },
    value_text: { type: TEXT, allowNull: false },
    user_id: { type: INTEGER, allowNull: true },
    user_name: { type: STRING(110), allowNull: true },
    observed_at: { type: DATE, allowNull: false },
    erasable: { type: BOOLEAN, allowNull: false, defaultValue: true },
    created_at: { type: DATE, allowNull: false },
  });
  await qi.addIndex('observations', ['client_id', 'patient_id', 'observed_at'], { name: 'observations_patient' });

  await qi.createTable('condition_types', {
    id: { type: INTEGER, primaryKey: true },
    name: { type: STRING(160), allowNull: false },
    icd10: { type: STRING(10), allowNull: true },
    priority: { type: INTEGER, allowNull: false, defaultValue: 0 },
    search_name: { type: STRING(200), allowNull: false },
    position: { type: INTEGER, allowNull: false, defaultValue: 0 },
  });
  await qi.addIndex('condition_types', ['priority', 'position'], { name: 'condition_types_priority' });

  await qi.createTable('patient_conditions', {
    id,
    client_id: client,
    patient_id: patient,
    condition_type_id: { type: INTEGER, allowNull: false, references: { model: 'condition_types', key: 'id' } },
    notes: { type: TEXT, allowNull: true },
    active: { type: BOOLEAN, allowNull: false, defaultValue: true },
    start_date: { type: DATE, allowNull: true },
    end_date: { type: DATE, allowNull: true },
    ...stamps,
  });
  await qi.addIndex('patient_conditions', ['client_id', 'patient_id', 'condition_type_id'], {
    unique: true,
    name: 'patient_conditions_one_per_type',
  });

  await qi.createTable('clinical_variables', {
    id: { type: INTEGER, primaryKey: true },
    name: { type: STRING(120), allowNull: false },
    loinc_code: { type: STRING(16), allowNull: true },
    type: { type: STRING(10), allowNull: false },
    unit: { type: STRING(20), allowNull: true },
    position: { type: INTEGER, allowNull: false, defaultValue: 0 },
  });
  await qi.createTable('clinical_observations', {
    id: { type: BIGINT, primaryKey: true, autoIncrement: true },
    client_id: client,
    patient_id: patient,
    clinical_variable_id: { type: INTEGER, allowNull: false, references: { model: 'clinical_variables', key: 'id' } },
    observed_at: { type: DATE, allowNull: false },
    value_number: { type: REAL, allowNull: true },
    value_text: { type: STRING(600), allowNull: true },
    created_by: { type: INTEGER, allowNull: true },
    created_at: { type: DATE, allowNull: false },
  });
  await qi.addIndex('clinical_observations', ['client_id', 'patient_id', 'clinical_variable_id', 'observed_at'], {
    name: 'clinical_observations_patient',
  });

  await qi.createTable('caregivers', {
    id,
    client_id: client,
    id_type: { type: INTEGER, allowNull: false, references: { model: 'id_types', key: 'id' } },
    nid: { type: STRING(20), allowNull: false },
    first_name: { type: STRING(50), allowNull: false },
    last_name: { type: STRING(50), allowNull: false },
    country_id: { type: INTEGER, allowNull: false, references: { model: 'countries', key: 'id' } },
    email: { type: STRING(254), allowNull: true },
    prefix: { type: STRING(8), allowNull: true },
    cellphone: { type: STRING(11), allowNull: true },
    notification: { type: BOOLEAN, allowNull: false, defaultValue: true },
    ...stamps,
  });
  await qi.addIndex('caregivers', ['client_id', 'id_type', 'nid'], { unique: true, name: 'caregivers_document' });
  await qi.createTable('patient_caregivers', {
    patient_id: { ...patient, primaryKey: true },
    caregiver_id: {
      type: INTEGER,
      allowNull: false,
      primaryKey: true,
      references: { model: 'caregivers', key: 'id' },
      onDelete: 'CASCADE',
    },
    client_id: client,
    relationship: { type: STRING(40), allowNull: true },
    created_at: { type: DATE, allowNull: false },
  });
  await qi.addIndex('patient_caregivers', ['caregiver_id'], { name: 'patient_caregivers_caregiver' });
}

export async function down({ context: qi }: { context: QueryInterface }) {
  for (const t of [
    'patient_caregivers',
    'caregivers',
    'clinical_observations',
    'clinical_variables',
    'patient_conditions',
    'condition_types',
    'observations',
    'prompts',
  ]) {
    await qi.dropTable(t);
  }
}
