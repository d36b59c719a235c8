import { Router } from 'express';
import { principalOf, requireStaff, staffOf } from '../../http/auth.js';
import { readListParams, sendList } from '../../http/list-params.js';
import { route, type OperationHandler } from '../../http/operations.js';
import { readIntParam } from '../../http/params.js';
import * as patients from './patients.service.js';

export function patientsRouter(deps: patients.PatientDeps): Router {
  const r = Router();
  route(r, 'listPatients', [requireStaff()], async (req, res) => {
    const { rows, total } = await patients.listPatients(deps, staffOf(req).clientId, readListParams(req, 20), {
      status: req.query.status,
      tags: req.query.tags,
    });
    sendList(res, rows, total);
  });
  route(r, 'createPatient', [requireStaff('patients.create')], async (req, res) => {
    res.status(201).json(await patients.createPatient(deps, staffOf(req), req.body));
  });
  route(r, 'validatePatient', [requireStaff()], async (req, res) => {
    res.json(await patients.validatePatient(staffOf(req).clientId, req.body.id_type, req.body.nid));
  });
  route(r, 'getPatient', [], async (req, res) => {
    res.json(await patients.getPatient(deps, principalOf(req), readIntParam(req, 'id')));
  });
  const update: OperationHandler<'updatePatient'> = async (req, res) => {
    res.json(await patients.updatePatient(deps, staffOf(req), readIntParam(req, 'id'), req.body));
  };
  route(r, 'unlockPatientPortal', [requireStaff('patients.edit')], async (req, res) => {
    res.json(await patients.unlockPortal(deps, staffOf(req), readIntParam(req, 'id')));
  });
  route(r, 'updatePatient', [requireStaff('patients.edit')], update);
  route(r, 'patchPatient', [requireStaff('patients.edit')], update);
  return r;
}
