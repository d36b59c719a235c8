import { DataTypes, type QueryInterface } from 'sequelize';

/**
 * Foundation schema: tenancy (clients, users), catalogues, patients and their tags,
 * sessions and one-time codes, the SMS outbox, feedback and measurements.
 * Every tenant-owned table carries client_id, and every index used by a list starts with it,
 * so a query scoped to one client never reads another client's rows.
 */
const { INTEGER, BIGINT, STRING, TEXT, BOOLEAN, DATE, DATEONLY, REAL, JSON: JSONT } = DataTypes;

const id = { type: INTEGER, primaryKey: true, autoIncrement: true };
const stamps = {
  created_at: { type: DATE, allowNull: false },
  updated_at: { type: DATE, allowNull: false },
};

/** Small catalogues with the same shape: id, name, position. */
export const SIMPLE_CATALOGUES = ['blood_types', 'rh_factors', 'regimes', 'occupations', 'scholarships', 'civil_statuses'] as const;

export async function up({ context: qi }: { context: QueryInterface }) {
  await qi.createTable('countries', {
    id: { type: INTEGER, primaryKey: true },
    code: { type: STRING(2), allowNull: false, unique: true },
    name: { type: STRING(80), allowNull: false },
    phone_prefix: { type: STRING(8), allowNull: false },
    time_zone: { type: STRING(64), allowNull: false },
  });
  await qi.createTable('departments', {
    id: { type: INTEGER, primaryKey: true },
    country_id: { type: INTEGER, allowNull: false, references: { model: 'countries', key: 'id' } },
    code: { type: STRING(8), allowNull: false },
    name: { type: STRING(120), allowNull: false },
  });
  await qi.addIndex('departments', ['country_id', 'code'], { unique: true });
  await qi.createTable('cities', {
    id: { type: INTEGER, primaryKey: true },
    country_id: { type: INTEGER, allowNull: false, references: { model: 'countries', key: 'id' } },
    department_id: { type: INTEGER, allowNull: true, references: { model: 'departments', key: 'id' } },
    code: { type: STRING(8), allowNull: false },
    name: { type: STRING(120), allowNull: false },
    search_name: { type: STRING(160), allowNull: false },
  });
  await qi.addIndex('cities', ['country_id', 'code'], { unique: true });
  await qi.addIndex('cities', ['country_id', 'search_name']);
  await qi.createTable('id_types', {
    id: { type: INTEGER, primaryKey: true },
    country_id: { type: INTEGER, allowNull: false, references: { model: 'countries', key: 'id' } },
    code: { type: STRING(8), allowNull: false },
    name: { type: STRING(120), allowNull: false },
    validation_regex: { type: STRING(200), allowNull: false },
    approximate: { type: BOOLEAN, allowNull: false, defaultValue: true },
    position: { type: INTEGER, allowNull: false, defaultValue: 0 },
  });
  await qi.addIndex('id_types', ['country_id', 'code'], { unique: true });
  for (const table of SIMPLE_CATALOGUES) {
    await qi.createTable(table, {
      id: { type: INTEGER, primaryKey: true },
      name: { type: STRING(120), allowNull: false },
      position: { type: INTEGER, allowNull: false, defaultValue: 0 },
    });
  }
  await qi.createTable('eapbs', {
    id: { type: INTEGER, primaryKey: true },
    code: { type: STRING(12), allowNull: false, unique: true },
    name: { type: STRING(160), allowNull: false },
    nit: { type: STRING(20), allowNull: true },
    regime_id: { type: INTEGER, allowNull: true, references: { model: 'regimes', key: 'id' } },
    codes: { type: JSONT, allowNull: false, defaultValue: [] },
    search_name: { type: STRING(200), allowNull: false },
  });

  await qi.createTable('clients', {
    id,
    name: { type: STRING(120), allowNull: false },
    logo_url: { type: STRING(500), allowNull: true },
    country_id: { type: INTEGER, allowNull: false, references: { model: 'countries', key: 'id' } },
    time_zone: { type: STRING(64), allowNull: false },
    clinical_elements: { type: JSONT, allowNull: false },
    multipatient: { type: BOOLEAN, allowNull: false, defaultValue: false },
    residents_enabled: { type: BOOLEAN, allowNull: false, defaultValue: false },
    residents_url: { type: STRING(500), allowNull: true },
    residents_user: { type: STRING(120), allowNull: true },
    residents_password: { type: TEXT, allowNull: true },
    have_metabase: { type: BOOLEAN, allowNull: false, defaultValue: false },
    metabase_url: { type: STRING(500), allowNull: true },
    webhook_url: { type: STRING(500), allowNull: true },
    security_phrase: { type: TEXT, allowNull: true },
    // Exposed as `validate` (D2); a column of that name would shadow Sequelize's Model#validate.
    webhook_validated: { type: BOOLEAN, allowNull: false, defaultValue: false },
    webhook_measurements: { type: BOOLEAN, allowNull: false, defaultValue: false },
    webhook_alerts: { type: BOOLEAN, allowNull: false, defaultValue: false },
    ...stamps,
  });

  await qi.createTable('users', {
    id,
    client_id: { type: INTEGER, allowNull: false, references: { model: 'clients', key: 'id' } },
    email: { type: STRING(254), allowNull: false, unique: true },
    password_hash: { type: STRING(100), allowNull: false },
    first_name: { type: STRING(50), allowNull: false },
    last_name: { type: STRING(50), allowNull: false },
    role_name: { type: STRING(20), allowNull: false },
    status: { type: INTEGER, allowNull: false, defaultValue: 0 },
    cellphone: { type: STRING(11), allowNull: true },
    prefix: { type: STRING(8), allowNull: true },
    country_id: { type: INTEGER, allowNull: false, references: { model: 'countries', key: 'id' } },
    city_id: { type: INTEGER, allowNull: true, references: { model: 'cities', key: 'id' } },
    time_zone: { type: STRING(64), allowNull: false },
    media_email: { type: BOOLEAN, allowNull: false, defaultValue: true },
    media_whatsapp: { type: BOOLEAN, allowNull: false, defaultValue: false },
    priority_high: { type: BOOLEAN, allowNull: false, defaultValue: true },
    priority_medium: { type: BOOLEAN, allowNull: false, defaultValue: true },
    priority_low: { type: BOOLEAN, allowNull: false, defaultValue: false },
    ...stamps,
  });
  await qi.addIndex('users', ['client_id', 'last_name', 'first_name']);

  await qi.createTable('tags', {
    id,
    client_id: { type: INTEGER, allowNull: false, references: { model: 'clients', key: 'id' } },
    name: { type: STRING(50), allowNull: false },
    color: { type: STRING(20), allowNull: false },
    ...stamps,
  });
  await qi.addIndex('tags', ['client_id', 'name'], { unique: true });

  await qi.createTable('patients', {
    id,
    client_id: { type: INTEGER, allowNull: false, references: { model: 'clients', key: 'id' } },
    id_type: { type: INTEGER, allowNull: false, references: { model: 'id_types', key: 'id' } },
    nid: { type: STRING(20), allowNull: false },
    first_name: { type: STRING(50), allowNull: false },
    last_name: { type: STRING(50), allowNull: false },
    search_name: { type: STRING(110), allowNull: false },
    country_id: { type: INTEGER, allowNull: false, references: { model: 'countries', key: 'id' } },
    city_id: { type: INTEGER, allowNull: true, references: { model: 'cities', key: 'id' } },
    birth_date: { type: DATEONLY, allowNull: false },
    gender: { type: INTEGER, allowNull: false },
    blood_type: { type: INTEGER, allowNull: true, references: { model: 'blood_types', key: 'id' } },
    rh_factor: { type: INTEGER, allowNull: true, references: { model: 'rh_factors', key: 'id' } },
    eapb_id: { type: INTEGER, allowNull: true, references: { model: 'eapbs', key: 'id' } },
    regime: { type: INTEGER, allowNull: true, references: { model: 'regimes', key: 'id' } },
    status: { type: INTEGER, allowNull: false },
    time_zone: { type: STRING(64), allowNull: false },
    clinic_history: { type: TEXT, allowNull: true },
    address: { type: STRING(200), allowNull: true },
    neighborhood: { type: STRING(200), allowNull: true },
    prefix: { type: STRING(8), allowNull: true },
    cellphone: { type: STRING(11), allowNull: true },
    email: { type: STRING(254), allowNull: true },
    card_id: { type: STRING(64), allowNull: true },
    multipatient_card_id: { type: STRING(64), allowNull: true },
    resiplus_data: { type: JSONT, allowNull: true },
    resiplus_code: { type: STRING(32), allowNull: true },
    resiplus_id: { type: STRING(64), allowNull: true },
    occupation: { type: INTEGER, allowNull: true, references: { model: 'occupations', key: 'id' } },
    scholarship: { type: INTEGER, allowNull: true, references: { model: 'scholarships', key: 'id' } },
    civil_status: { type: INTEGER, allowNull: true, references: { model: 'civil_statuses', key: 'id' } },
    deceased_at: { type: DATE, allowNull: true },
    ...stamps,
  });
  // One record per document within a client; lists by status sorted by name; prefix search on
  // the normalised name and on the document number.
  await qi.addIndex('patients', ['client_id', 'id_type', 'nid'], { unique: true });
  await qi.addIndex('patients', ['client_id', 'nid']);
  await qi.addIndex('patients', ['client_id', 'status', 'id']);
  await qi.addIndex('patients', ['client_id', 'search_name']);
  await qi.addIndex('patients', ['nid']);
  await qi.addIndex('patients', ['card_id']);

  await qi.createTable('patient_tags', {
    patient_id: { type: INTEGER, allowNull: false, primaryKey: true, references: { model: 'patients', key: 'id' }, onDelete: 'CASCADE' },
    tag_id: { type: INTEGER, allowNull: false, primaryKey: true, references: { model: 'tags', key: 'id' }, onDelete: 'CASCADE' },
  });
  await qi.addIndex('patient_tags', ['tag_id', 'patient_id']);

  await qi.createTable('measurements', {
    id: { type: BIGINT, primaryKey: true, autoIncrement: true },
    client_id: { type: INTEGER, allowNull: false, references: { model: 'clients', key: 'id' } },
    patient_id: { type: INTEGER, allowNull: false, references: { model: 'patients', key: 'id' } },
    clinical_element: { type: INTEGER, allowNull: false },
    value: { type: REAL, allowNull: false },
    when: { type: DATE, allowNull: false },
    status: { type: INTEGER, allowNull: false, defaultValue: 0 },
    comment: { type: STRING(140), allowNull: true },
    eraseble: { type: BOOLEAN, allowNull: false, defaultValue: true },
    source: { type: STRING(16), allowNull: false, defaultValue: 'staff' },
    created_by: { type: INTEGER, allowNull: true },
    created_at: { type: DATE, allowNull: false },
  });
  await qi.addIndex('measurements', ['patient_id', 'clinical_element', 'when']);
  await qi.addIndex('measurements', ['client_id', 'when']);

  await qi.createTable('sessions', {
    id: { type: STRING(36), primaryKey: true },
    subject_type: { type: STRING(10), allowNull: false },
    subject_id: { type: INTEGER, allowNull: false },
    client_id: { type: INTEGER, allowNull: false },
    expires_at: { type: DATE, allowNull: false },
    revoked_at: { type: DATE, allowNull: true },
    created_at: { type: DATE, allowNull: false },
  });
  await qi.addIndex('sessions', ['subject_type', 'subject_id']);

  await qi.createTable('otp_challenges', {
    id: { type: STRING(36), primaryKey: true },
    nid_hash: { type: STRING(64), allowNull: false },
    ip: { type: STRING(64), allowNull: false },
    expires_at: { type: DATE, allowNull: false },
    attempts: { type: INTEGER, allowNull: false, defaultValue: 0 },
    used_at: { type: DATE, allowNull: true },
    created_at: { type: DATE, allowNull: false },
  });
  await qi.addIndex('otp_challenges', ['nid_hash', 'created_at']);
  await qi.addIndex('otp_challenges', ['ip', 'created_at']);
  await qi.createTable('otp_codes', {
    id,
    challenge_id: { type: STRING(36), allowNull: false, references: { model: 'otp_challenges', key: 'id' }, onDelete: 'CASCADE' },
    patient_id: { type: INTEGER, allowNull: false, references: { model: 'patients', key: 'id' } },
    code_hash: { type: STRING(64), allowNull: false },
  });
  await qi.addIndex('otp_codes', ['challenge_id']);
  await qi.createTable('otp_failures', {
    id,
    nid_hash: { type: STRING(64), allowNull: false },
    created_at: { type: DATE, allowNull: false },
  });
  await qi.addIndex('otp_failures', ['nid_hash', 'created_at']);
  await qi.createTable('otp_lockouts', {
    nid_hash: { type: STRING(64), primaryKey: true },
    locked_until: { type: DATE, allowNull: false },
  });

  await qi.createTable('sms_outbox', {
    id,
    client_id: { type: INTEGER, allowNull: true, references: { model: 'clients', key: 'id' } },
    to: { type: STRING(20), allowNull: false },
    body: { type: TEXT, allowNull: false },
    status: { type: STRING(10), allowNull: false, defaultValue: 'queued' },
    provider_id: { type: STRING(100), allowNull: true },
    created_at: { type: DATE, allowNull: false },
  });
  await qi.addIndex('sms_outbox', ['client_id', 'id']);

  await qi.createTable('feedbacks', {
    id,
    client_id: { type: INTEGER, allowNull: false, references: { model: 'clients', key: 'id' } },
    user_id: { type: INTEGER, allowNull: false, references: { model: 'users', key: 'id' } },
    qualification: { type: INTEGER, allowNull: true },
    message: { type: TEXT, allowNull: true },
    created_at: { type: DATE, allowNull: false },
  });

  await qi.createTable('app_meta', {
    key: { type: STRING(64), primaryKey: true },
    value: { type: TEXT, allowNull: false },
  });
}

export async function down({ context: qi }: { context: QueryInterface }) {
  for (const t of [
    'app_meta',
    'feedbacks',
    'sms_outbox',
    'otp_lockouts',
    'otp_failures',
    'otp_codes',
    'otp_challenges',
    'sessions',
    'measurements',
    'patient_tags',
    'patients',
    'tags',
    'users',
    'clients',
    'eapbs',
    ...SIMPLE_CATALOGUES,
    'id_types',
    'cities',
    'departments',
    'countries',
  ]) {
    await qi.dropTable(t);
  }
}
