import type { QueryInterface } from 'sequelize';

/**
 * The patient list without a status filter, and name searches, are "this client's patients, newest
 * first". With only (client_id, status, id), PostgreSQL walked patients_pkey backwards through every
 * other client's newer rows (bench, 100,000 patients per client: 41 ms for the list, 113 ms for a
 * surname search). This index gives it the client's rows in id order directly.
 */
export async function up({ context: qi }: { context: QueryInterface }) {
  await qi.addIndex('patients', ['client_id', 'id'], { name: 'patients_client_id' });
}

export async function down({ context: qi }: { context: QueryInterface }) {
  await qi.removeIndex('patients', 'patients_client_id');
}
