import { Router } from 'express';
import type { Sequelize } from 'sequelize';
import { requireStaff, staffOf } from '../../http/auth.js';
import { route } from '../../http/operations.js';
import { readIntParam } from '../../http/params.js';
import * as variables from './variables.service.js';

/** 'Variables' (01 §2): the LOINC catalogue and a patient's values. */
export function variablesRouter(sequelize: Sequelize, now: () => Date): Router {
  const r = Router();
  route(r, 'listClinicalVariables', [requireStaff()], async (_req, res) => {
    res.json(await variables.listClinicalVariables(sequelize));
  });
  route(r, 'listClinicalObservations', [requireStaff()], async (req, res) => {
    res.json(await variables.listPatientVariables(sequelize, staffOf(req), readIntParam(req, 'id')));
  });
  route(r, 'createClinicalObservation', [requireStaff('clinical.write')], async (req, res) => {
    res.status(201).json(await variables.createClinicalObservation(sequelize, staffOf(req), readIntParam(req, 'id'), req.body, now()));
  });
  return r;
}
