import type { QueryInterface } from 'sequelize';

/** FHIR webhook subscriptions, deliveries and their log. */
export async function up({ context: qi }: { context: QueryInterface }) {
  void qi;
}

export async function down({ context: qi }: { context: QueryInterface }) {
  void qi;
}
