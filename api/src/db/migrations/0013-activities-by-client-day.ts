import type { QueryInterface } from 'sequelize';

/**
 * 'Actividades' (P69) lists one client's activities for one day: without this index the query
 * walks every client's activities of that day through (status, programmed_at).
 */
export async function up({ context: qi }: { context: QueryInterface }) {
  await qi.addIndex('activities', ['client_id', 'programmed_at'], { name: 'activities_client_programmed' });
}

export async function down({ context: qi }: { context: QueryInterface }) {
  await qi.removeIndex('activities', 'activities_client_programmed');
}
