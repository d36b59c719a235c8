import type { Sequelize, Transaction } from 'sequelize';

/** Runs a write and answers how many rows it changed, on SQLite and PostgreSQL alike. */
export async function execute(sequelize: Sequelize, sql: string, replacements: Record<string, unknown>, transaction?: Transaction): Promise<number> {
  const [, meta] = (await sequelize.query(sql, { replacements, transaction })) as [unknown, unknown];
  if (typeof meta === 'number') return meta;
  const m = meta as { changes?: number; rowCount?: number } | undefined;
  return m?.changes ?? m?.rowCount ?? 0;
}
