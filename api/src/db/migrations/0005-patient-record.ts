import type { QueryInterface } from 'sequelize';

/** Patient record tabs: observations, conditions, clinical variables, AI instructions, caregivers, residents settings. */
export async function up({ context: qi }: { context: QueryInterface }) {
  void qi;
}

export async function down({ context: qi }: { context: QueryInterface }) {
  void qi;
}
