import type { QueryInterface } from 'sequelize';

/** Messaging with patients and the AI assistant. */
export async function up({ context: qi }: { context: QueryInterface }) {
  void qi;
}

export async function down({ context: qi }: { context: QueryInterface }) {
  void qi;
}
