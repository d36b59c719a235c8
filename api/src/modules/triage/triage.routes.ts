import { Router } from 'express';
import type { Sequelize } from 'sequelize';
import { requireStaff, staffOf } from '../../http/auth.js';
import { readListParams, sendList } from '../../http/list-params.js';
import { route } from '../../http/operations.js';
import { listTriage } from './triage.service.js';

/** 'Priorización' (issue 21): any staff member of the client reads it. */
export function triageRouter(deps: { sequelize: Sequelize }): Router {
  const r = Router();
  route(r, 'listTriage', [requireStaff()], async (req, res) => {
    const { rows, total } = await listTriage(deps.sequelize, staffOf(req).clientId, readListParams(req, 20), {
      flag: req.query.flag,
      tags: req.query.tags,
    });
    sendList(res, rows, total);
  });
  return r;
}
