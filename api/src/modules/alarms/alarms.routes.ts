import { Router, type Request, type Response } from 'express';
import type { Sequelize } from 'sequelize';
import { principalOf, requireStaff, staffOf } from '../../http/auth.js';
import { notFound } from '../../http/errors.js';
import { readListParams, sendList } from '../../http/list-params.js';
import { readIntParam } from '../../http/params.js';
import { pageWindow } from '../alerts/alerts.rules.js';
import { findPatient } from '../patients/patients.service.js';
import * as alarms from './alarms.service.js';

const optionalNumber = (v: unknown) => (v == null || v === '' ? undefined : Number(v));

export function alarmsRouter(sequelize: Sequelize, now: () => Date): Router {
  const r = Router();
  r.get('/alarms', requireStaff(), async (req, res) => {
    const p = readListParams(req, 10);
    const { offset, limit } = pageWindow(req.query as Record<string, unknown>, 10);
    const { rows, total } = await alarms.listAlarms(sequelize, staffOf(req).clientId, {
      ...p,
      offset,
      limit,
      clinical_element: optionalNumber(req.query.clinical_element),
      priority: optionalNumber(req.query.priority),
    });
    sendList(res, rows, total);
  });
  r.post('/alarms', requireStaff('administer'), async (req, res) => {
    res.status(201).json(await alarms.createAlarm(sequelize, staffOf(req).clientId, req.body, now()));
  });
  r.get('/alarms/:id', requireStaff(), async (req, res) => {
    res.json(await alarms.getAlarm(sequelize, staffOf(req).clientId, readIntParam(req, 'id')));
  });
  const update = async (req: Request, res: Response) => {
    res.json(await alarms.updateAlarm(sequelize, staffOf(req).clientId, readIntParam(req, 'id'), req.body, now()));
  };
  r.put('/alarms/:id', requireStaff('administer'), update);
  r.patch('/alarms/:id', requireStaff('administer'), update);
  r.delete('/alarms/:id', requireStaff('administer'), async (req, res) => {
    await alarms.deleteAlarm(sequelize, staffOf(req).clientId, readIntParam(req, 'id'));
    res.status(204).end();
  });
  // Staff, or the patient's own token (the portal draws the same bands on its charts).
  r.get('/patients/:id/alarms', async (req, res) => {
    const principal = principalOf(req);
    const id = readIntParam(req, 'id');
    if (principal.kind === 'patient' && principal.patientId !== id) throw notFound('El paciente no existe.');
    await findPatient(principal.clientId, id);
    res.json(await alarms.listPatientAlarms(sequelize, id, optionalNumber(req.query.clinical_element)));
  });
  return r;
}
