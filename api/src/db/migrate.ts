import { Umzug, SequelizeStorage } from 'umzug';
import type { Sequelize, QueryInterface } from 'sequelize';
import * as m0001 from './migrations/0001-foundation.js';
import * as m0002 from './migrations/0002-patient-search-terms.js';

interface Migration {
  up(params: { context: QueryInterface }): Promise<void>;
  down(params: { context: QueryInterface }): Promise<void>;
}

/** Listed explicitly so the order is reviewable and bundling never misses a file. */
const MIGRATIONS: Array<[string, Migration]> = [
  ['0001-foundation', m0001],
  ['0002-patient-search-terms', m0002],
];

export function createMigrator(sequelize: Sequelize) {
  return new Umzug({
    migrations: MIGRATIONS.map(([name, m]) => ({ name, up: m.up, down: m.down })),
    context: sequelize.getQueryInterface(),
    storage: new SequelizeStorage({ sequelize, tableName: 'schema_migrations' }),
    logger: undefined,
  });
}

export async function migrate(sequelize: Sequelize): Promise<void> {
  await createMigrator(sequelize).up();
}
