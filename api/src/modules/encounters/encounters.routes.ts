import { Router } from 'express';
import { requireStaff, staffOf } from '../../http/auth.js';
import { readListParams, sendList } from '../../http/list-params.js';
import { route, type OperationHandler } from '../../http/operations.js';
import { readIntParam } from '../../http/params.js';
import * as enc from './encounters.service.js';

/** Vaccination, generic and teleconsultation encounters and their observations (03 §2, §7; issue 51). */
export function encountersRouter(deps: enc.EncounterDeps): Router {
  const r = Router();
  route(r, 'listPatientEncounters', [requireStaff()], async (req, res) => {
    const { rows, total } = await enc.listPatientEncounters(deps, staffOf(req).clientId, readIntParam(req, 'id'), readListParams(req, 10));
    sendList(res, rows, total);
  });
  route(r, 'createPatientEncounter', [requireStaff('clinical.write')], async (req, res) => {
    res.status(201).json(await enc.createEncounter(deps, staffOf(req), readIntParam(req, 'id'), req.body.kind, req.body.alert_id));
  });
  // The existing product's call: client and user come from the session, never from the body (D14).
  route(r, 'createVaccinationEncounter', [requireStaff('clinical.write')], async (req, res) => {
    res.status(201).json(await enc.createEncounter(deps, staffOf(req), req.body.patient_id, 'vaccination'));
  });
  route(r, 'getEncounter', [requireStaff()], async (req, res) => {
    res.json(await enc.getEncounter(deps, staffOf(req).clientId, readIntParam(req, 'id')));
  });
  const save: OperationHandler<'saveEncounter'> = async (req, res) => {
    res.json(await enc.saveEncounter(deps, staffOf(req), readIntParam(req, 'id'), req.body));
  };
  route(r, 'saveEncounter', [requireStaff('clinical.write')], save);
  route(r, 'patchEncounter', [requireStaff('clinical.write')], save);
  route(r, 'updateTeleconsultation', [requireStaff('clinical.write')], async (req, res) => {
    res.json(await enc.updateTeleconsultation(deps, staffOf(req), readIntParam(req, 'id'), req.body));
  });
  // The practitioner of the gaps is the user asking (who would close): a writer's question.
  route(r, 'getEncounterRdaGaps', [requireStaff('clinical.write')], async (req, res) => {
    res.json(await enc.teleconsultationRdaGaps(deps, staffOf(req), readIntParam(req, 'id')));
  });
  route(r, 'closeEncounter', [requireStaff('clinical.write')], async (req, res) => {
    res.json(await enc.closeEncounter(deps, staffOf(req), readIntParam(req, 'id')));
  });
  route(r, 'amendEncounter', [requireStaff('clinical.write')], async (req, res) => {
    res.status(201).json(await enc.amendEncounter(deps, staffOf(req), readIntParam(req, 'id'), req.body));
  });
  route(r, 'getEncounterElements', [requireStaff()], async (req, res) => {
    await enc.assertEncounter(staffOf(req).clientId, readIntParam(req, 'id'));
    res.json(enc.elementsOf(req.query.type));
  });
  route(r, 'createEncounterObservation', [requireStaff('clinical.write')], async (req, res) => {
    res.status(201).json(await enc.createObservation(deps, staffOf(req), req.body));
  });
  const update: OperationHandler<'updateEncounterObservation'> = async (req, res) => {
    res.json(await enc.updateObservation(deps, staffOf(req), readIntParam(req, 'id'), req.body.value));
  };
  route(r, 'updateEncounterObservation', [requireStaff('clinical.write')], update);
  route(r, 'patchEncounterObservation', [requireStaff('clinical.write')], update);
  return r;
}
