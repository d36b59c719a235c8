import type { Router } from 'express';
import { statedHistoryRouter } from '../stated_history/stated-history.js';
import { allergies, type AllergyDeps } from './allergies.service.js';

/** The allergies a patient states (issue 51, the 'RDA de paciente'), nested under the patient (D1). */
export function allergiesRouter(deps: AllergyDeps): Router {
  return statedHistoryRouter(allergies, deps, {
    list: 'listPatientAllergies',
    create: 'createPatientAllergy',
    update: 'updatePatientAllergy',
    remove: 'deletePatientAllergy',
    entry: 'allergyId',
  });
}
