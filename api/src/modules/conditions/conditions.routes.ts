import { Router } from 'express';
import type { Sequelize } from 'sequelize';
import { requireStaff, staffOf } from '../../http/auth.js';
import { readListParams, sendList } from '../../http/list-params.js';
import { route, type OperationHandler } from '../../http/operations.js';
import { readIntParam } from '../../http/params.js';
import * as conditions from './conditions.service.js';

/** 'Antecedentes' (01 §2): the condition-type catalogue and a patient's conditions. */
export function conditionsRouter(sequelize: Sequelize, now: () => Date): Router {
  const r = Router();
  route(r, 'listConditionTypes', [requireStaff()], async (req, res) => {
    const { rows, total } = await conditions.listConditionTypes(sequelize, readListParams(req, 20), req.query.priority);
    sendList(res, rows, total);
  });
  route(r, 'listPatientConditions', [requireStaff()], async (req, res) => {
    res.json(await conditions.listPatientConditions(sequelize, staffOf(req), readIntParam(req, 'id')));
  });
  route(r, 'createPatientCondition', [requireStaff()], async (req, res) => {
    res.status(201).json(await conditions.createPatientCondition(sequelize, staffOf(req), readIntParam(req, 'id'), req.body, now()));
  });
  const update: OperationHandler<'updatePatientCondition'> = async (req, res) => {
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
  route(r, 'updatePatientCondition', [requireStaff()], update);
  route(r, 'patchPatientCondition', [requireStaff()], update);
  route(r, 'deletePatientCondition', [requireStaff()], async (req, res) => {
    await conditions.deletePatientCondition(sequelize, staffOf(req), readIntParam(req, 'id'), readIntParam(req, 'conditionId'), now());
    res.status(204).end();
  });
  return r;
}
