import { Router } from 'express';
import { requireStaff, staffOf } from '../../http/auth.js';
import { idempotent } from '../../http/idempotency.js';
import { route } from '../../http/operations.js';
import { readIntParam } from '../../http/params.js';
import * as allergies from './allergies.service.js';

/** The allergies a patient states (issue 51, the 'RDA de paciente'), nested under the patient (D1). */
export function allergiesRouter(deps: allergies.AllergyDeps): Router {
  const r = Router();
  route(r, 'listPatientAllergies', [requireStaff()], async (req, res) => {
    res.json(await allergies.listPatientAllergies(deps, staffOf(req), readIntParam(req, 'id')));
  });
  route(
    r,
    'createPatientAllergy',
    [requireStaff('clinical.write')],
    idempotent(deps, async (req, res) => {
      res.status(201).json(await allergies.createPatientAllergy(deps, staffOf(req), readIntParam(req, 'id'), req.body));
    }),
  );
  route(r, 'updatePatientAllergy', [requireStaff('clinical.write')], async (req, res) => {
    res.json(await allergies.updatePatientAllergy(deps, staffOf(req), readIntParam(req, 'id'), readIntParam(req, 'allergyId'), req.body));
  });
  route(r, 'deletePatientAllergy', [requireStaff('clinical.write')], async (req, res) => {
    await allergies.deletePatientAllergy(deps, staffOf(req), readIntParam(req, 'id'), readIntParam(req, 'allergyId'));
    res.status(204).end();
  });
  return r;
}
