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
  route(r, 'createCaregiver', [requireStaff('patients.edit')], async (req, res) => {
    res.status(201).json(await caregivers.createCaregiver(deps, staffOf(req), readIntParam(req, 'id'), req.body));
  });
  const update: OperationHandler<'updateCaregiver'> = async (req, res) => {
    res.json(await caregivers.updateCaregiver(deps, staffOf(req), readIntParam(req, 'id'), readIntParam(req, 'caregiverId'), req.body));
  };
  route(r, 'updateCaregiver', [requireStaff('patients.edit')], update);
  route(r, 'patchCaregiver', [requireStaff('patients.edit')], update);
  // 01 §7 'set caregiver', deprecated: the PUT above with only the relationship.
  route(r, 'setCaregiver', [requireStaff('patients.edit')], async (req, res) => {
    const { caregiver_id, relationship, patient_id } = req.query;
    res.json(
      await caregivers.setCaregiver(deps, staffOf(req), readIntParam(req, 'id'), {
        caregiver_id: Number(caregiver_id),
        relationship,
        patient_id: patient_id === undefined ? undefined : Number(patient_id),
      }),
    );
  });
  route(r, 'unlinkCaregiver', [requireStaff('patients.edit')], async (req, res) => {
    await caregivers.unlinkCaregiver(deps, staffOf(req), readIntParam(req, 'id'), readIntParam(req, 'caregiverId'));
    res.status(204).end();
  });
  return r;
}
