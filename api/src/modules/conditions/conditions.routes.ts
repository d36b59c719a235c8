import { Router, type Request } from 'express';
import type { Sequelize } from 'sequelize';
import { requireStaff, staffOf } from '../../http/auth.js';
import { readListParams, sendList } from '../../http/list-params.js';
import { route, type OperationHandler } from '../../http/operations.js';
import { readIntParam } from '../../http/params.js';
import * as conditions from './conditions.service.js';

/** Told after a patient's conditions change, so their RDA de paciente is written again (issue 51). */
type HistoryChanged = (clientId: number, patientId: number, userId: number) => Promise<void>;

/** 'Antecedentes' (01 §2): the condition-type catalogue and a patient's conditions. */
export function conditionsRouter(sequelize: Sequelize, now: () => Date, onHistoryChanged?: HistoryChanged): Router {
  const r = Router();
  const changed = async (req: Request) => {
    const staff = staffOf(req);
    await onHistoryChanged?.(staff.clientId, readIntParam(req, 'id'), staff.userId);
  };
  route(r, 'listConditionTypes', [requireStaff()], async (req, res) => {
    const { rows, total } = await conditions.listConditionTypes(sequelize, readListParams(req, 20), req.query.priority);
    sendList(res, rows, total);
  });
  route(r, 'listPatientConditions', [requireStaff()], async (req, res) => {
    res.json(await conditions.listPatientConditions(sequelize, staffOf(req), readIntParam(req, 'id')));
  });
  route(r, 'createPatientCondition', [requireStaff('clinical.write')], async (req, res) => {
    const created = await conditions.createPatientCondition(sequelize, staffOf(req), readIntParam(req, 'id'), req.body, now());
    await changed(req);
    res.status(201).json(created);
  });
  const update: OperationHandler<'updatePatientCondition'> = async (req, res) => {
    const updated = await conditions.updatePatientCondition(
      sequelize,
      staffOf(req),
      readIntParam(req, 'id'),
      readIntParam(req, 'conditionId'),
      req.body,
      now(),
    );
    await changed(req);
    res.json(updated);
  };
  route(r, 'updatePatientCondition', [requireStaff('clinical.write')], update);
  route(r, 'patchPatientCondition', [requireStaff('clinical.write')], update);
  route(r, 'deletePatientCondition', [requireStaff('clinical.write')], async (req, res) => {
    await conditions.deletePatientCondition(sequelize, staffOf(req), readIntParam(req, 'id'), readIntParam(req, 'conditionId'), now());
    await changed(req);
    res.status(204).end();
  });
  return r;
}
