import { Router } from 'express';
import type { Sequelize } from 'sequelize';
import { requireStaff, staffOf } from '../../http/auth.js';
import { readListParams, sendList } from '../../http/list-params.js';
import { route, type OperationHandler } from '../../http/operations.js';
import { getMyNotifications, listNotifications, NOTIFICATION_FIELDS, updateMyNotifications } from './notifications.service.js';

/** The 'Notificaciones' record (administrators) and each user's own 'Mis notificaciones'. */
export function notificationsRouter(deps: { sequelize: Sequelize; now: () => Date }): Router {
  const r = Router();
  route(r, 'listNotifications', [requireStaff('administer')], async (req, res) => {
    const { rows, total } = await listNotifications(deps.sequelize, staffOf(req).clientId, readListParams(req, 20, NOTIFICATION_FIELDS));
    sendList(res, rows, total);
  });
  route(r, 'getMyNotifications', [requireStaff()], async (req, res) => {
    const me = staffOf(req);
    res.json(await getMyNotifications(deps.sequelize, me.clientId, me.userId));
  });
  const update: OperationHandler<'updateMyNotifications'> = async (req, res) => {
    const me = staffOf(req);
    res.json(await updateMyNotifications(deps.sequelize, me.clientId, me.userId, req.body, deps.now()));
  };
  route(r, 'updateMyNotifications', [requireStaff()], update);
  route(r, 'patchMyNotifications', [requireStaff()], update);
  return r;
}
