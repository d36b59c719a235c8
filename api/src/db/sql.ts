import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';

/** Runs a write and answers how many rows it changed, on SQLite and PostgreSQL alike. */
export async function execute(sequelize: Sequelize, sql: string, replacements: Record<string, unknown>, transaction?: Transaction): Promise<number> {
  // With QueryTypes.UPDATE both dialects answer [rows, affectedCount] (DELETE goes through it too).
  const [, affected] = (await sequelize.query(sql, { replacements, transaction, type: QueryTypes.UPDATE })) as unknown as [unknown, number];
  return Number(affected ?? 0);
}

/** Runs `INSERT ... RETURNING id` and answers the new id on SQLite (lastID) and PostgreSQL (rows). */
export async function insertReturningId(sequelize: Sequelize, sql: string, replacements: Record<string, unknown>, transaction?: Transaction): Promise<number> {
  const [result] = (await sequelize.query(sql, { replacements, transaction, type: QueryTypes.INSERT })) as unknown as [unknown, unknown];
  if (Array.isArray(result)) return Number((result[0] as { id: number }).id);
  return Number(result);
}

/** Runs a read and answers its rows, typed. */
export function select<T extends object>(sequelize: Sequelize, sql: string, replacements: Record<string, unknown> = {}, transaction?: Transaction): Promise<T[]> {
  return sequelize.query<T>(sql, { replacements, transaction, type: QueryTypes.SELECT });
}

/**
 * Runs `INSERT ... RETURNING ...` (also with ON CONFLICT DO NOTHING) and answers the returned rows
 * on both dialects. Sequelize's SQLite dialect runs a statement that starts with INSERT through
 * `run`, which reads no rows; a leading comment keeps it on `all`. PostgreSQL ignores the comment.
 */
export function insertReturning<T extends object>(sequelize: Sequelize, sql: string, replacements?: Record<string, unknown>, transaction?: Transaction): Promise<T[]> {
  return sequelize.query<T>(`/* returning */ ${sql}`, { replacements, transaction, type: QueryTypes.SELECT });
}

/**
 * A Date as Sequelize writes it in SQL on both dialects ('2026-11-21 12:34:56.789 +00:00'), without
 * its per-value moment formatting: for statements built in bulk (ingestion writes hundreds of dates
 * per request). sql.test.ts holds it equal to sequelize.escape.
 */
export function sqlDate(d: Date): string {
  const iso = d.toISOString();
  return `'${iso.slice(0, 10)} ${iso.slice(11, 23)} +00:00'`;
}
