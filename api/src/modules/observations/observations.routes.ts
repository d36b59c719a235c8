import { Router } from 'express';
import type { Sequelize } from 'sequelize';
import { requireStaff, staffOf } from '../../http/auth.js';
import { readListParams, sendList } from '../../http/list-params.js';
import { route } from '../../http/operations.js';
import { readIntParam } from '../../http/params.js';
import * as observations from './observations.service.js';

/** 'Anotaciones' of a patient (01 §2): list, create, delete. */
export function observationsRouter(sequelize: Sequelize, now: () => Date): Router {
  const r = Router();
  route(r, 'listObservations', [requireStaff()], async (req, res) => {
    const { rows, total } = await observations.listObservations(
      sequelize,
      staffOf(req),
      readIntParam(req, 'id'),
      readListParams(req, 50),
      now(),
    );
    sendList(res, rows, total);
  });
  route(r, 'createObservation', [requireStaff('clinical.write')], async (req, res) => {
    res.status(201).json(await observations.createObservation(sequelize, staffOf(req), readIntParam(req, 'id'), req.body, now()));
  });
  route(r, 'deleteObservation', [requireStaff('clinical.write')], async (req, res) => {
    await observations.deleteObservation(sequelize, staffOf(req), readIntParam(req, 'id'), readIntParam(req, 'observationId'));
    res.status(204).end();
  });
  return r;
}
