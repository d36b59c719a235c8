import { Router } from 'express';
import type { Sequelize } from 'sequelize';
import { principalOf } from '../../http/auth.js';
import { notFound } from '../../http/errors.js';
import { route } from '../../http/operations.js';
import { readIntParam } from '../../http/params.js';
import { resourceRouter } from '../../resources/resource.engine.js';
import { findPatient } from '../patients/patients.service.js';
import { alarmsResource, type AlarmsDeps } from './alarms.resource.js';
import * as alarms from './alarms.service.js';

export function alarmsRouter(sequelize: Sequelize, now: () => Date, deps: AlarmsDeps): Router {
  const r = Router();
  r.use(resourceRouter(alarmsResource(deps), { sequelize, now }));
  // Staff, or the patient's own token (the portal draws the same bands on its charts).
  route(r, 'listPatientAlarms', [], async (req, res) => {
    const principal = principalOf(req);
    const id = readIntParam(req, 'id');
    if (principal.kind === 'patient' && principal.patientId !== id) throw notFound('El paciente no existe.');
    await findPatient(principal.clientId, id);
    res.json(await alarms.listPatientAlarms(sequelize, id, req.query.clinical_element));
  });
  return r;
}
