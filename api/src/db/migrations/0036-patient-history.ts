import { DataTypes, type QueryInterface } from 'sequelize';

const { INTEGER, STRING, DATE, BOOLEAN } = DataTypes;

/**
 * The history a patient states that the 'RDA de paciente' carries and Vigía did not hold (issue 51,
 * docs/rda-plan.md §2.7): allergies (AllergyIntoleranceStatementRDA: a TipoAlergia code and the
 * text of what the patient is allergic to) and family history (FamilyMemberHistoryRDA: a
 * ParentescoAntecedente code, the condition's text and, when known, its ICD-10 code). Coded columns
 * hold the guide's own code (seeds/catalogues/allergy_types.json, family_relationships.json).
 * `active` on an allergy: one the patient no longer has stays on the record but leaves the RDA
 * (the profile's clinical status is 'active' only). Lists start with client_id (D14).
 */
const id = () => ({ type: INTEGER, primaryKey: true, autoIncrement: true });
const client = () => ({ type: INTEGER, allowNull: false, references: { model: 'clients', key: 'id' }, onDelete: 'CASCADE' });
const patient = () => ({ type: INTEGER, allowNull: false, references: { model: 'patients', key: 'id' }, onDelete: 'CASCADE' });
const createdBy = () => ({ type: INTEGER, allowNull: true });
const stamps = () => ({ created_at: { type: DATE, allowNull: false }, updated_at: { type: DATE, allowNull: false } });

export async function up({ context: qi }: { context: QueryInterface }) {
  await qi.createTable('patient_allergies', {
    id: id(),
    client_id: client(),
    patient_id: patient(),
    allergy_type: { type: STRING(2), allowNull: false },
    description: { type: STRING(200), allowNull: false },
    active: { type: BOOLEAN, allowNull: false, defaultValue: true },
    created_by: createdBy(),
    ...stamps(),
  });
  await qi.addIndex('patient_allergies', ['client_id', 'patient_id', 'id'], { name: 'patient_allergies_patient' });
  await qi.createTable('patient_family_history', {
    id: id(),
    client_id: client(),
    patient_id: patient(),
    relationship: { type: STRING(2), allowNull: false },
    description: { type: STRING(200), allowNull: false },
    icd10: { type: STRING(10), allowNull: true },
    created_by: createdBy(),
    ...stamps(),
  });
  await qi.addIndex('patient_family_history', ['client_id', 'patient_id', 'id'], { name: 'patient_family_history_patient' });
}

export async function down({ context: qi }: { context: QueryInterface }) {
  await qi.dropTable('patient_family_history');
  await qi.dropTable('patient_allergies');
}
