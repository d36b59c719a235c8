import { Router } from 'express';
import type { Sequelize } from 'sequelize';
import { principalOf, requireStaff, staffOf } from '../../http/auth.js';
import { notFound } from '../../http/errors.js';
import { readListParams, sendList } from '../../http/list-params.js';
import { route, type OperationHandler } from '../../http/operations.js';
import { readIntParam } from '../../http/params.js';
import { findPatient } from '../patients/patients.service.js';
import * as alarms from './alarms.service.js';

export function alarmsRouter(sequelize: Sequelize, now: () => Date): Router {
  const r = Router();
  route(r, 'listAlarms', [requireStaff()], async (req, res) => {
    const { rows, total } = await alarms.listAlarms(sequelize, staffOf(req).clientId, {
      ...readListParams(req, 10, alarms.ALARM_FIELDS),
      clinical_element: req.query.clinical_element,
    });
    sendList(res, rows, total);
  });
  route(r, 'createAlarm', [requireStaff('administer')], async (req, res) => {
    res.status(201).json(await alarms.createAlarm(sequelize, staffOf(req).clientId, req.body, now()));
  });
  route(r, 'getAlarm', [requireStaff()], async (req, res) => {
    res.json(await alarms.getAlarm(sequelize, staffOf(req).clientId, readIntParam(req, 'id')));
  });
  const update: OperationHandler<'updateAlarm'> = async (req, res) => {
    res.json(await alarms.updateAlarm(sequelize, staffOf(req).clientId, readIntParam(req, 'id'), req.body, now()));
  };
  route(r, 'updateAlarm', [requireStaff('administer')], update);
  route(r, 'patchAlarm', [requireStaff('administer')], update);
  route(r, 'deleteAlarm', [requireStaff('administer')], async (req, res) => {
    await alarms.deleteAlarm(sequelize, staffOf(req).clientId, readIntParam(req, 'id'));
    res.status(204).end();
  });
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
