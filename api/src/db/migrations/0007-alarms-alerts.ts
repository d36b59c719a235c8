import type { QueryInterface } from 'sequelize';

/** Alarm rules, their assignment to patients, alerts and alert entries. */
export async function up({ context: qi }: { context: QueryInterface }) {
  void qi;
}

export async function down({ context: qi }: { context: QueryInterface }) {
  void qi;
}
