import { DataTypes, type QueryInterface } from 'sequelize';

const { BIGINT, INTEGER, STRING, DATE, TEXT } = DataTypes;

/**
 * The teleconsultation ('Teleconsulta / telemonitoreo', issue 51, docs/rda-plan.md §2.5): an
 * encounter of kind `teleconsultation` whose closing writes an RDA de consulta externa. Its own
 * fields sit on `encounters` (nullable: the other kinds leave them empty; the defaults 09/01/38 are
 * the service's, so a vaccination row never claims a telemedicine modality). Draft/closed, closed
 * at and by are the columns every encounter already has: status Pendiente/Realizado, checkout and
 * responsible (§2.5 maps period.end and the attending practitioner to them).
 * - encounter_diagnoses: ICD-10 CO (4 characters), rank 1 the main one and 2–4 the related, the
 *   main one's RIPS diagnosis type.
 * - encounter_readings: the patient's measurements reviewed in the consultation.
 * - encounter_risk_factors: FactorRiesgo code and the clinician's text (RiskFactorRDA 1..*).
 * - condition_types.icd10co: the 4-character CIE-10 CO code the RDA sends (filled from
 *   seeds/catalogues/condition_types.json by the record catalogues' sync at every start).
 * site_id and alert_id carry no foreign key: adding one to an existing table makes SQLite rebuild
 * it; the service checks both against the user's client.
 */
const ENCOUNTER_COLUMNS = {
  modality: () => ({ type: STRING(2), allowNull: true }),
  environment: () => ({ type: STRING(2), allowNull: true }),
  reps_service: () => ({ type: STRING(5), allowNull: true }),
  cups_code: () => ({ type: STRING(6), allowNull: true }),
  external_cause: () => ({ type: STRING(2), allowNull: true }),
  reason: () => ({ type: TEXT, allowNull: true }),
  findings: () => ({ type: TEXT, allowNull: true }),
  plan: () => ({ type: TEXT, allowNull: true }),
  medication_note: () => ({ type: STRING(400), allowNull: true }),
  sick_leave_scope: () => ({ type: STRING(2), allowNull: true }),
  sick_leave_days: () => ({ type: INTEGER, allowNull: true }),
  site_id: () => ({ type: INTEGER, allowNull: true }),
  alert_id: () => ({ type: INTEGER, allowNull: true }),
};

const child = () => ({
  id: { type: INTEGER, primaryKey: true, autoIncrement: true },
  client_id: { type: INTEGER, allowNull: false, references: { model: 'clients', key: 'id' } },
  encounter_id: { type: INTEGER, allowNull: false, references: { model: 'encounters', key: 'id' }, onDelete: 'CASCADE' },
});
const stamps = () => ({ created_at: { type: DATE, allowNull: false }, updated_at: { type: DATE, allowNull: false } });

export async function up({ context: qi }: { context: QueryInterface }) {
  for (const [name, column] of Object.entries(ENCOUNTER_COLUMNS)) await qi.addColumn('encounters', name, column());
  await qi.addColumn('condition_types', 'icd10co', { type: STRING(4), allowNull: true });
  await qi.createTable('encounter_diagnoses', {
    ...child(),
    rank: { type: INTEGER, allowNull: false },
    code: { type: STRING(4), allowNull: false },
    diagnosis_type: { type: STRING(2), allowNull: true },
    ...stamps(),
  });
  await qi.addIndex('encounter_diagnoses', ['encounter_id', 'rank'], { unique: true, name: 'encounter_diagnoses_rank' });
  await qi.createTable('encounter_readings', {
    ...child(),
    measurement_id: { type: BIGINT, allowNull: false, references: { model: 'measurements', key: 'id' }, onDelete: 'CASCADE' },
    ...stamps(),
  });
  await qi.addIndex('encounter_readings', ['encounter_id', 'measurement_id'], { unique: true, name: 'encounter_readings_measurement' });
  // The foreign key's own index: without it every reading stored (and deleted) scanned this table
  // for the rows that reference it (tests/api/ingest-plans.test.ts caught it on the ingestion path).
  await qi.addIndex('encounter_readings', ['measurement_id'], { name: 'encounter_readings_measurement_id' });
  await qi.createTable('encounter_risk_factors', {
    ...child(),
    position: { type: INTEGER, allowNull: false },
    code: { type: STRING(2), allowNull: false },
    text: { type: STRING(200), allowNull: false },
    ...stamps(),
  });
  await qi.addIndex('encounter_risk_factors', ['encounter_id', 'position'], { unique: true, name: 'encounter_risk_factors_position' });
}

export async function down({ context: qi }: { context: QueryInterface }) {
  for (const t of ['encounter_risk_factors', 'encounter_readings', 'encounter_diagnoses']) await qi.dropTable(t);
  await qi.removeColumn('condition_types', 'icd10co');
  for (const name of Object.keys(ENCOUNTER_COLUMNS)) await qi.removeColumn('encounters', name);
}
