import type { Router } from 'express';
import type { Sequelize } from 'sequelize';
import type { Catalogues } from '../catalogues/catalogues.service.js';
import { createResidentsAdapter, type ResidentsAdapter } from '../../adapters/residents.js';
import { promptsRouter } from './prompts.routes.js';
import { observationsRouter } from '../observations/observations.routes.js';
import { conditionsRouter } from '../conditions/conditions.routes.js';
import { recordCataloguesReady } from '../conditions/record-catalogues.js';
import { variablesRouter } from '../variables/variables.routes.js';
import { caregiversRouter } from '../caregivers/caregivers.routes.js';
import { residentsRouter } from '../residents/residents.routes.js';

export interface PatientRecordDeps {
  sequelize: Sequelize;
  catalogues: Catalogues;
  now: () => Date;
  residents?: ResidentsAdapter;
}

/** The patient-record tabs' routers (AI instructions, notes, conditions, variables, caregivers, residents). */
export function patientRecordRouters(deps: PatientRecordDeps): Router[] {
  // Condition types and clinical variables are upserted once per start; readers await it.
  recordCataloguesReady(deps.sequelize).catch(() => undefined);
  const { sequelize, now } = deps;
  return [
    promptsRouter(sequelize, now),
    observationsRouter(sequelize, now),
    conditionsRouter(sequelize, now),
    variablesRouter(sequelize, now),
    caregiversRouter(deps),
    residentsRouter(deps.residents ?? createResidentsAdapter()),
  ];
}
