import type { QueryInterface } from 'sequelize';

/** Orders and their activities. */
export async function up({ context: qi }: { context: QueryInterface }) {
  void qi;
}

export async function down({ context: qi }: { context: QueryInterface }) {
  void qi;
}
