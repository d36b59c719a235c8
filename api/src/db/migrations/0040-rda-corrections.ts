import { DataTypes, type QueryInterface } from 'sequelize';

const { STRING } = DataTypes;

/**
 * The nota aclaratoria (issue 51): a closed teleconsultation corrected writes a new version of its
 * RDA (`version` + 1, `replaces_id` the previous row, both columns of 0037). This adds the reason
 * the clinician gave ('Motivo de la aclaración'), kept with the version it explains, and makes a
 * version replaceable once: two corrections of the same version at the same time write one (the
 * other is answered 409), so a document's history is a single line v1 → v2 → v3. Several NULLs
 * are allowed by a unique index on both SQLite and PostgreSQL.
 */
export async function up({ context: qi }: { context: QueryInterface }) {
  await qi.addColumn('rdas', 'correction_reason', { type: STRING(1000), allowNull: true });
  await qi.addIndex('rdas', ['replaces_id'], { name: 'rdas_replaces_id', unique: true });
  await qi.addIndex('rdas', ['client_id', 'encounter_id', 'version'], { name: 'rdas_client_encounter' });
}

export async function down({ context: qi }: { context: QueryInterface }) {
  await qi.removeIndex('rdas', 'rdas_client_encounter');
  await qi.removeIndex('rdas', 'rdas_replaces_id');
  await qi.removeColumn('rdas', 'correction_reason');
}
