import { Router, type Request, type Response } from 'express';
import { requireStaff, staffOf } from '../../http/auth.js';
import { readIntParam } from '../../http/params.js';
import * as caregivers from './caregivers.service.js';

/** Caregivers of a patient (01 §2 Ajustes, §7), nested under the patient (D1). */
export function caregiversRouter(deps: caregivers.CaregiverDeps) {
  const r = Router();
  r.get('/patients/:id/caregivers', requireStaff(), async (req, res) => {
    res.json(await caregivers.listCaregivers(deps, staffOf(req), readIntParam(req, 'id')));
  });
  r.post('/patients/:id/caregivers', requireStaff(), async (req, res) => {
    res.status(201).json(await caregivers.createCaregiver(deps, staffOf(req), readIntParam(req, 'id'), req.body));
  });
  const update = async (req: Request, res: Response) => {
    res.json(await caregivers.updateCaregiver(deps, staffOf(req), readIntParam(req, 'id'), readIntParam(req, 'caregiverId'), req.body));
  };
  r.put('/patients/:id/caregivers/:caregiverId', requireStaff(), update);
  r.patch('/patients/:id/caregivers/:caregiverId', requireStaff(), update);
  r.delete('/patients/:id/caregivers/:caregiverId', requireStaff(), async (req, res) => {
    await caregivers.unlinkCaregiver(deps, staffOf(req), readIntParam(req, 'id'), readIntParam(req, 'caregiverId'));
    res.status(204).end();
  });
  return r;
}
