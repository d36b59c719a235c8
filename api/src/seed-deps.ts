import type { QueryInterface, Sequelize, Transaction } from 'sequelize';
import { execute, insertReturningId, select } from './db/sql.js';
import { migrate } from './db/migrate.js';
import { loadCatalogues, syncCatalogues, type Catalogues } from './modules/catalogues/catalogues.sync.js';
import { syncRecordCatalogues } from './modules/conditions/record-catalogues.js';
import { upsertMedicines } from './modules/orders/medicines.js';
import { hashPassword } from './modules/sessions/passwords.js';
import { searchTerms } from './modules/patients/patients.rules.js';
import { DEFAULT_CLINICAL_ELEMENTS } from './modules/clients/clients.service.js';

/**
 * What the seeders (seeds/) need from the API, handed to them by the composition root: seeds sit
 * above the API and import only this type from it, never its code, so the two cannot form an
 * import cycle (scripts/structure/seeds.ts). server.ts passes `seedDeps` to the demo seeder;
 * scripts/seed-large.ts, the bench and the tests do the same.
 */
export interface SeedDeps {
  /** The API's SQL helpers (bound values, dialect-neutral ids). */
  sql: { execute: typeof execute; insertReturningId: typeof insertReturningId; select: typeof select };
  /** Applies the pending migrations (a large data set starts from any database). */
  migrate(sequelize: Sequelize): Promise<number>;
  /** The reference catalogues shipped with the product (seeds/catalogues/*.json), as the API reads them. */
  loadCatalogues(): Catalogues;
  /** Upserts those catalogues into their tables. */
  syncCatalogues(qi: QueryInterface): Promise<unknown>;
  /** The patient record's reference lists (condition types, clinical variables), upserted. */
  syncRecordCatalogues(sequelize: Sequelize, transaction?: Transaction): Promise<void>;
  /** The medicines catalogue, upserted. */
  upsertMedicines(sequelize: Sequelize, transaction?: Transaction): Promise<void>;
  /** A password as the API stores it. */
  hashPassword(plain: string): Promise<string>;
  /** The words a patient is found by (patient_search_terms), as the API writes them. */
  searchTerms(searchName: string): string[];
  /** The patient-page tabs a new client gets. */
  defaultClinicalElements: readonly string[];
}

export const seedDeps: SeedDeps = {
  sql: { execute, insertReturningId, select },
  migrate,
  loadCatalogues,
  syncCatalogues,
  syncRecordCatalogues,
  upsertMedicines,
  hashPassword,
  searchTerms,
  defaultClinicalElements: DEFAULT_CLINICAL_ELEMENTS,
};
