import { Router, type Request, type Response } from 'express';
import { requireStaff, staffOf } from '../../http/auth.js';
import { readListParams, sendList } from '../../http/list-params.js';
import { readIntParam } from '../../http/params.js';
import * as enc from './encounters.service.js';

/** Vaccination and generic encounters and their observations (03 §2, §7). */
export function encountersRouter(deps: enc.EncounterDeps): Router {
  const r = Router();
  r.get('/patients/:id/encounters', requireStaff(), async (req, res) => {
    const { rows, total } = await enc.listPatientEncounters(deps, staffOf(req).clientId, readIntParam(req, 'id'), readListParams(req, 10));
    sendList(res, rows, total);
  });
  r.post('/patients/:id/encounters', requireStaff(), async (req, res) => {
    res.status(201).json(await enc.createEncounter(deps, staffOf(req), readIntParam(req, 'id'), req.body.kind));
  });
  // The existing product's call: client and user come from the session, never from the body (D14).
  r.post('/patients/create_Encounter_vacunation', requireStaff(), async (req, res) => {
    res.status(201).json(await enc.createEncounter(deps, staffOf(req), Number(req.body.patient_id), 'vaccination'));
  });
  r.get('/encounters/:id', requireStaff(), async (req, res) => {
    res.json(await enc.getEncounter(deps, staffOf(req).clientId, readIntParam(req, 'id')));
  });
  const save = async (req: Request, res: Response) => {
    res.json(await enc.saveEncounter(deps, staffOf(req), readIntParam(req, 'id'), req.body));
  };
  r.put('/encounters/:id', requireStaff(), save);
  r.patch('/encounters/:id', requireStaff(), save);
  r.get('/encounters/:id/get_element', requireStaff(), async (req, res) => {
    await enc.assertEncounter(staffOf(req).clientId, readIntParam(req, 'id'));
    res.json(enc.elementsOf(typeof req.query.type === 'string' ? req.query.type : undefined));
  });
  r.post('/observations', requireStaff(), async (req, res) => {
    res.status(201).json(await enc.createObservation(deps, staffOf(req), req.body));
  });
  const update = async (req: Request, res: Response) => {
    res.json(await enc.updateObservation(deps, staffOf(req), readIntParam(req, 'id'), req.body.value));
  };
  r.put('/observations/:id', requireStaff(), update);
  r.patch('/observations/:id', requireStaff(), update);
  return r;
}
