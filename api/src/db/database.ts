import path from 'node:path';
import { Sequelize } from 'sequelize';
import type { Config } from '../config.js';

/**
 * SQLite (one file under DATA_DIR, WAL so readers never wait for the writer) unless
 * DATABASE_URL points at PostgreSQL.
 */
export async function openDatabase(config: Pick<Config, 'dataDir' | 'databaseUrl'>): Promise<Sequelize> {
  if (config.databaseUrl) {
    const sequelize = new Sequelize(config.databaseUrl, {
      logging: false,
      pool: { max: 10, min: 0, idle: 10_000 },
      define: { underscored: true },
    });
    await sequelize.authenticate();
    return sequelize;
  }
  const sequelize = new Sequelize({
    dialect: 'sqlite',
    storage: path.join(config.dataDir, 'vigia.sqlite'),
    logging: false,
    // One connection: SQLite serialises writers anyway, and a single handle keeps
    // transactions from interleaving on the same file.
    pool: { max: 1, min: 1, idle: 60_000 },
    define: { underscored: true },
    retry: { max: 0 },
  });
  await sequelize.query('PRAGMA journal_mode = WAL');
  await sequelize.query('PRAGMA synchronous = NORMAL');
  await sequelize.query('PRAGMA foreign_keys = ON');
  await sequelize.query('PRAGMA busy_timeout = 5000');
  return sequelize;
}

export function isPostgres(sequelize: Sequelize): boolean {
  return sequelize.getDialect() === 'postgres';
}
