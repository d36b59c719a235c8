import { Router, type Request, type Response } from 'express';
import { principalOf, requireStaff, staffOf } from '../../http/auth.js';
import { readListParams, sendList } from '../../http/list-params.js';
import { readIntParam } from '../../http/params.js';
import * as orders from './orders.queries.js';
import { createOrder } from './orders.create.js';
import { createBulk } from './orders.bulk.js';
import { updateOrder } from './orders.update.js';
import { generateActivities } from './orders.schedule.js';
import * as activities from './activities.service.js';
import { listClientActivities } from './activities.list.js';
import { getMedicine, listMedicines } from './medicines.js';

const num = (v: unknown) => (v == null || v === '' ? undefined : Number(v));

/** Orders, activities and the medicines catalogue (02 §2.2–2.6, §2.13, §7). */
export function ordersRouter(deps: orders.OrdersDeps): Router {
  const r = Router();
  r.get('/patients/:id/orders', requireStaff(), async (req, res) => {
    const { rows, total } = await orders.listPatientOrders(deps, staffOf(req).clientId, readIntParam(req, 'id'), readListParams(req, 10), {
      filter: req.query.filter as string | undefined,
      type: num(req.query.type),
    });
    sendList(res, rows, total);
  });
  r.post('/patients/:id/orders', requireStaff(), async (req, res) => {
    res.status(201).json(await createOrder(deps, staffOf(req), readIntParam(req, 'id'), req.body));
  });
  r.post('/patients/:id/orders/bulk', requireStaff(), async (req, res) => {
    res.status(201).json(await createBulk(deps, staffOf(req), readIntParam(req, 'id'), req.body.orders));
  });
  r.get('/patients/:id/orders/:orderId', requireStaff(), async (req, res) => {
    res.json(await orders.getOrder(deps, staffOf(req).clientId, readIntParam(req, 'id'), readIntParam(req, 'orderId')));
  });
  const update = async (req: Request, res: Response) => {
    res.json(await updateOrder(deps, staffOf(req), readIntParam(req, 'id'), readIntParam(req, 'orderId'), req.body));
  };
  r.put('/patients/:id/orders/:orderId', requireStaff(), update);
  r.patch('/patients/:id/orders/:orderId', requireStaff(), update);
  r.get('/patients/:id/orders/:orderId/activities', requireStaff(), async (req, res) => {
    res.json(await activities.listOrderActivities(deps, staffOf(req).clientId, readIntParam(req, 'id'), readIntParam(req, 'orderId')));
  });
  r.post('/patients/:id/orders/:orderId/activities', requireStaff(), async (req, res) => {
    res.status(201).json(await generateActivities(deps, staffOf(req), readIntParam(req, 'id'), readIntParam(req, 'orderId')));
  });
  const updateActivity = async (req: Request, res: Response) => {
    res.json(
      await activities.updateActivity(
        deps,
        staffOf(req),
        readIntParam(req, 'id'),
        readIntParam(req, 'orderId'),
        readIntParam(req, 'activityId'),
        req.body,
      ),
    );
  };
  r.put('/patients/:id/orders/:orderId/activities/:activityId', requireStaff(), updateActivity);
  r.patch('/patients/:id/orders/:orderId/activities/:activityId', requireStaff(), updateActivity);
  r.get('/patients/:id/activities', requireStaff(), async (req, res) => {
    res.json(await activities.listPatientActivities(deps, staffOf(req).clientId, readIntParam(req, 'id'), req.query));
  });
  r.get('/activities', requireStaff(), async (req, res) => {
    const { rows, total } = await listClientActivities(deps, staffOf(req), readListParams(req, 20), {
      date: req.query.date as string | undefined,
      status: num(req.query.status),
      type: num(req.query.type),
      q: req.query.q as string | undefined,
    });
    sendList(res, rows, total);
  });
  r.post('/patients/:id/activities/:activityId/confirm', async (req, res) => {
    res.json(await activities.confirmActivity(deps, principalOf(req), readIntParam(req, 'id'), readIntParam(req, 'activityId')));
  });
  r.get('/orders', requireStaff(), async (req, res) => {
    const { rows, total } = await orders.listClientOrders(deps, staffOf(req).clientId, readListParams(req, 10), {
      filter: req.query.filter as string | undefined,
      type: num(req.query.type),
    });
    sendList(res, rows, total);
  });
  r.get('/medicines', async (req, res) => {
    principalOf(req);
    const { rows, total } = await listMedicines(deps.sequelize, readListParams(req, 20));
    sendList(res, rows, total);
  });
  r.get('/medicines/:medicineId', async (req, res) => {
    principalOf(req);
    res.json(await getMedicine(deps.sequelize, readIntParam(req, 'medicineId')));
  });
  return r;
}
