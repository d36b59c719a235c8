import { Router } from 'express';
import { requireStaff, staffOf } from '../../http/auth.js';
import { route, type OperationHandler } from '../../http/operations.js';
import { readIntParam } from '../../http/params.js';
import * as caregivers from './caregivers.service.js';

/** Caregivers of a patient (01 §2 Ajustes, §7), nested under the patient (D1). */
export function caregiversRouter(deps: caregivers.CaregiverDeps) {
  const r = Router();
  route(r, 'listCaregivers', [requireStaff()], async (req, res) => {
    res.json(await caregivers.listCaregivers(deps, staffOf(req), readIntParam(req, 'id')));
  });
  route(r, 'createCaregiver', [requireStaff()], async (req, res) => {
    res.status(201).json(await caregivers.createCaregiver(deps, staffOf(req), readIntParam(req, 'id'), req.body));
  });
  const update: OperationHandler<'updateCaregiver'> = async (req, res) => {
    res.json(await caregivers.updateCaregiver(deps, staffOf(req), readIntParam(req, 'id'), readIntParam(req, 'caregiverId'), req.body));
  };
  route(r, 'updateCaregiver', [requireStaff()], update);
  route(r, 'patchCaregiver', [requireStaff()], update);
  route(r, 'unlinkCaregiver', [requireStaff()], async (req, res) => {
    await caregivers.unlinkCaregiver(deps, staffOf(req), readIntParam(req, 'id'), readIntParam(req, 'caregiverId'));
    res.status(204).end();
  });
  return r;
}
