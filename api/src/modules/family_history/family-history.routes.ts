import { Router } from 'express';
import { requireStaff, staffOf } from '../../http/auth.js';
import { idempotent } from '../../http/idempotency.js';
import { route } from '../../http/operations.js';
import { readIntParam } from '../../http/params.js';
import * as familyHistory from './family-history.service.js';

/** The family history a patient states (issue 51, the 'RDA de paciente'), nested under the patient (D1). */
export function familyHistoryRouter(deps: familyHistory.FamilyHistoryDeps): Router {
  const r = Router();
  route(r, 'listPatientFamilyHistory', [requireStaff()], async (req, res) => {
    res.json(await familyHistory.listPatientFamilyHistory(deps, staffOf(req), readIntParam(req, 'id')));
  });
  route(
    r,
    'createPatientFamilyHistory',
    [requireStaff('clinical.write')],
    idempotent(deps, async (req, res) => {
      res.status(201).json(await familyHistory.createPatientFamilyHistory(deps, staffOf(req), readIntParam(req, 'id'), req.body));
    }),
  );
  route(r, 'updatePatientFamilyHistory', [requireStaff('clinical.write')], async (req, res) => {
    res.json(
      await familyHistory.updatePatientFamilyHistory(
        deps,
        staffOf(req),
        readIntParam(req, 'id'),
        readIntParam(req, 'familyHistoryId'),
        req.body,
      ),
    );
  });
  route(r, 'deletePatientFamilyHistory', [requireStaff('clinical.write')], async (req, res) => {
    await familyHistory.deletePatientFamilyHistory(deps, staffOf(req), readIntParam(req, 'id'), readIntParam(req, 'familyHistoryId'));
    res.status(204).end();
  });
  return r;
}
