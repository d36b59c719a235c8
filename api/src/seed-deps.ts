import type { QueryInterface, Sequelize, Transaction } from 'sequelize';
import { execute, insertReturningId, select } from './db/sql.js';
import { migrate } from './db/migrate.js';
import { loadCatalogues, syncCatalogues, type Catalogues } from './modules/catalogues/catalogues.sync.js';
import { syncRecordCatalogues } from './modules/conditions/record-catalogues.js';
import { upsertMedicines } from './modules/orders/medicines.js';
import { hashPassword } from './modules/sessions/passwords.js';
import { searchTerms } from './modules/patients/patients.rules.js';
import { clientTimeZone, DEFAULT_CLINICAL_ELEMENTS } from './modules/clients/clients.service.js';
import type { Catalogues as LoadedCatalogues } from './modules/catalogues/catalogues.service.js';
import type { JobRunner } from './jobs/queue.js';
import type { StaffPrincipal } from './http/auth.js';
import type { Role } from '@vigia/contract/rules/access';
import type { components } from '@vigia/contract/openapi';
import { User } from './db/models/users.model.js';
import { closeEncounter, updateTeleconsultation } from './modules/encounters/encounters.service.js';
import { recordRda } from './modules/rdas/rdas.service.js';
import { writePatientStatement, type StatementIds } from './modules/rdas/rdas.statement.js';
import { patientStatementBuilder } from './rda-statements.js';

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
  /**
   * The RDA writers of the running product, for the demo's first documents (seeds/demo-rdas.ts):
   * they need the app's models and catalogues, so the demo asks for them once the product is built.
   */
  demoRdaWriter(product: DemoRdaProduct): DemoRdaWriter;
}

/** What of the built product the demo's RDA writers use. */
export interface DemoRdaProduct {
  sequelize: Sequelize;
  catalogues: LoadedCatalogues;
  jobs: JobRunner;
  log?: (msg: string) => void;
}

/** The product's own paths that write an RDA, at a moment of the demo's timeline. */
export interface DemoRdaWriter {
  /**
   * Fills a teleconsultation's draft and closes it as its user would ('Guardar', then 'Cerrar'):
   * the same checks, the RDA de consulta externa built with its Epicrisis and kept by recordRda
   * ('sin enviar' without IHCE settings). Refuses as the API does (400, 409 rda_incomplete).
   */
  closeTeleconsultation(input: {
    clientId: number;
    userId: number;
    encounterId: number;
    draft: components['schemas']['TeleconsultationUpdate'];
    closedAt: Date;
  }): Promise<void>;
  /** The patient's statement (RDA de paciente) as the statement job writes it; false when their data is incomplete. */
  writePatientStatement(ids: StatementIds, at: Date): Promise<boolean>;
}

function demoRdaWriter(product: DemoRdaProduct): DemoRdaWriter {
  const { sequelize, catalogues, jobs } = product;
  const log = product.log ?? ((msg: string) => console.error(`[vigia] ${msg}`));
  return {
    async closeTeleconsultation({ clientId, userId, encounterId, draft, closedAt }) {
      const now = () => closedAt;
      const user = await User.findOne({ where: { id: userId, client_id: clientId } });
      if (!user) throw new Error(`demo: el usuario ${userId} no existe`);
      const actor: StaffPrincipal = { kind: 'staff', sessionId: 'demo', clientId, userId, role: user.role_name as Role, user };
      const deps = {
        sequelize,
        catalogues,
        now,
        clientTimeZone: (id: number) => clientTimeZone(sequelize, id),
        recordRda: (input: Parameters<typeof recordRda>[1], t?: Transaction) => recordRda({ sequelize, jobs, now }, input, t),
      };
      // The encounters service's own checks first (role, deceased patient, a teleconsultation of the client).
      await updateTeleconsultation(deps, actor, encounterId, draft);
      await closeEncounter(deps, actor, encounterId);
    },
    writePatientStatement(ids, at) {
      const now = () => at;
      return writePatientStatement(
        {
          log,
          buildStatement: patientStatementBuilder({ sequelize, catalogues, now }),
          recordRda: (input) => recordRda({ sequelize, jobs, now }, input),
        },
        ids,
      );
    },
  };
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
  demoRdaWriter,
};
