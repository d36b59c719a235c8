import { Router, type Request, type Response } from 'express';
import { principalOf, requireStaff, staffOf } from '../../http/auth.js';
import { readListParams, sendList } from '../../http/list-params.js';
import { readIntParam } from '../../http/params.js';
import * as patients from './patients.service.js';

export function patientsRouter(deps: patients.PatientDeps): Router {
  const r = Router();
  r.get('/patients', requireStaff(), async (req, res) => {
    const status = req.query.status != null ? Number(req.query.status) : undefined;
    const { rows, total } = await patients.listPatients(deps, staffOf(req).clientId, readListParams(req, 20), {
      status,
      tags: req.query.tags as string | undefined,
    });
    sendList(res, rows, total);
  });
  r.post('/patients', requireStaff('patients.create'), async (req, res) => {
    res.status(201).json(await patients.createPatient(deps, staffOf(req), req.body));
  });
  r.post('/patients/validate', requireStaff(), async (req, res) => {
    res.json(await patients.validatePatient(staffOf(req).clientId, req.body.id_type, req.body.nid));
  });
  r.get('/patients/:id', async (req, res) => {
    res.json(await patients.getPatient(deps, principalOf(req), readIntParam(req, 'id')));
  });
  const update = async (req: Request, res: Response) => {
    res.json(await patients.updatePatient(deps, staffOf(req), readIntParam(req, 'id'), req.body));
  };
  r.delete('/patients/:id/portal_lock', requireStaff(), async (req, res) => {
    res.json(await patients.unlockPortal(deps, staffOf(req), readIntParam(req, 'id')));
  });
  r.put('/patients/:id', requireStaff(), update);
  r.patch('/patients/:id', requireStaff(), update);
  return r;
}
