import { Router, type Request, type Response } from 'express';
import type { Sequelize } from 'sequelize';
import { requireStaff, staffOf } from '../../http/auth.js';
import { readListParams, sendList } from '../../http/list-params.js';
import { readIntParam } from '../../http/params.js';
import * as conditions from './conditions.service.js';

/** 'Antecedentes' (01 §2): the condition-type catalogue and a patient's conditions. */
export function conditionsRouter(sequelize: Sequelize, now: () => Date): Router {
  const r = Router();
  r.get('/condition_types', requireStaff(), async (req, res) => {
    const priority = req.query.priority != null ? Number(req.query.priority) : undefined;
    const { rows, total } = await conditions.listConditionTypes(sequelize, readListParams(req, 20), priority);
    sendList(res, rows, total);
  });
  r.get('/patients/:id/conditions', requireStaff(), async (req, res) => {
    res.json(await conditions.listPatientConditions(sequelize, staffOf(req), readIntParam(req, 'id')));
  });
  r.post('/patients/:id/conditions', requireStaff(), async (req, res) => {
    res.status(201).json(await conditions.createPatientCondition(sequelize, staffOf(req), readIntParam(req, 'id'), req.body, now()));
  });
  const update = async (req: Request, res: Response) => {
    res.json(
      await conditions.updatePatientCondition(
        sequelize,
        staffOf(req),
        readIntParam(req, 'id'),
        readIntParam(req, 'conditionId'),
        req.body,
        now(),
      ),
    );
  };
  r.put('/patients/:id/conditions/:conditionId', requireStaff(), update);
  r.patch('/patients/:id/conditions/:conditionId', requireStaff(), update);
  r.delete('/patients/:id/conditions/:conditionId', requireStaff(), async (req, res) => {
    await conditions.deletePatientCondition(sequelize, staffOf(req), readIntParam(req, 'id'), readIntParam(req, 'conditionId'), now());
    res.status(204).end();
  });
  return r;
}
