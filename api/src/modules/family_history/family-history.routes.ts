import type { Router } from 'express';
import { statedHistoryRouter } from '../stated_history/stated-history.js';
import { familyHistory, type FamilyHistoryDeps } from './family-history.service.js';

/** The family history a patient states (issue 51, the 'RDA de paciente'), nested under the patient (D1). */
export function familyHistoryRouter(deps: FamilyHistoryDeps): Router {
  return statedHistoryRouter(familyHistory, deps, {
    list: 'listPatientFamilyHistory',
    create: 'createPatientFamilyHistory',
    update: 'updatePatientFamilyHistory',
    remove: 'deletePatientFamilyHistory',
    entry: 'familyHistoryId',
  });
}
