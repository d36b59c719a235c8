import { ORDER_TYPE } from '@vigia/contract/rules/activities';
import { Router, type Request } from 'express';
import { principalOf, requirePatientOrStaff, requireStaff, staffOf } from '../../http/auth.js';
import { readListParams, sendList } from '../../http/list-params.js';
import { route, type OperationHandler } from '../../http/operations.js';
import { readIntParam } from '../../http/params.js';
import * as orders from './orders.queries.js';
import { createOrder } from './orders.create.js';
import { createBulk, type BulkItem } from './orders.bulk.js';
import { updateOrder } from './orders.update.js';
import { generateActivities } from './orders.schedule.js';
import * as activities from './activities.service.js';
import { listClientActivities, type ClientActivitiesDeps } from './activities.list.js';
import { getMedicine, listMedicines } from './medicines.js';
import { ordersResource } from './orders.resource.js';
import { resourceRouter } from '../../resources/resource.engine.js';

/** Orders, activities and the medicines catalogue (02 §2.2–2.6, §2.13, §7). */
export function ordersRouter(deps: ClientActivitiesDeps): Router {
  const r = Router();
  // 'Gestión de órdenes' (GET /orders) is a catalogue list: the resource engine serves it.
  r.use(resourceRouter(ordersResource, deps));
  route(r, 'listPatientOrders', [requireStaff()], async (req, res) => {
    const { rows, total } = await orders.listPatientOrders(deps, staffOf(req).clientId, readIntParam(req, 'id'), readListParams(req, 10), {
      filter: req.query.filter,
      type: req.query.type,
    });
    sendList(res, rows, total);
  });
  // The medication is part of the history the patient states: its RDA is written again (issue 51).
  const medicationChanged = async (req: Request, orderTypes: (number | null | undefined)[]) => {
    if (!orderTypes.includes(ORDER_TYPE.medication)) return;
    const staff = staffOf(req);
    await deps.onMedicationChanged?.(staff.clientId, readIntParam(req, 'id'), staff.userId);
  };
  route(r, 'createPatientOrder', [requireStaff('orders.create')], async (req, res) => {
    const created = await createOrder(deps, staffOf(req), readIntParam(req, 'id'), req.body);
    await medicationChanged(req, [created.order_type]);
    res.status(201).json(created);
  });
  route(r, 'createPatientOrdersBulk', [requireStaff('orders.create')], async (req, res) => {
    // openapi.yaml requires start_at on each bulk item, but the generated BulkOrderItem loses that
    // `required` (it sits in the other branch of the schema's allOf): BulkItem restores it.
    const created = await createBulk(deps, staffOf(req), readIntParam(req, 'id'), req.body.orders as BulkItem[]);
    await medicationChanged(
      req,
      (req.body.orders as BulkItem[]).map((o) => o.order_type),
    );
    res.status(201).json(created);
  });
  route(r, 'getPatientOrder', [requireStaff()], async (req, res) => {
    res.json(await orders.getOrder(deps, staffOf(req).clientId, readIntParam(req, 'id'), readIntParam(req, 'orderId')));
  });
  const update: OperationHandler<'updatePatientOrder'> = async (req, res) => {
    const updated = await updateOrder(deps, staffOf(req), readIntParam(req, 'id'), readIntParam(req, 'orderId'), req.body);
    await medicationChanged(req, [updated.order_type]);
    res.json(updated);
  };
  route(r, 'updatePatientOrder', [requireStaff('activities.manage')], update);
  route(r, 'patchPatientOrder', [requireStaff('activities.manage')], update);
  route(r, 'listOrderActivities', [requireStaff()], async (req, res) => {
    res.json(await activities.listOrderActivities(deps, staffOf(req).clientId, readIntParam(req, 'id'), readIntParam(req, 'orderId')));
  });
  route(r, 'generateOrderActivities', [requireStaff('activities.manage')], async (req, res) => {
    res.status(201).json(await generateActivities(deps, staffOf(req), readIntParam(req, 'id'), readIntParam(req, 'orderId')));
  });
  const updateActivity: OperationHandler<'updateOrderActivity'> = async (req, res) => {
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
  route(r, 'updateOrderActivity', [requireStaff('activities.manage')], updateActivity);
  route(r, 'patchOrderActivity', [requireStaff('activities.manage')], updateActivity);
  route(r, 'listPatientActivities', [requireStaff()], async (req, res) => {
    res.json(await activities.listPatientActivities(deps, staffOf(req).clientId, readIntParam(req, 'id'), req.query));
  });
  route(r, 'listClientActivities', [requireStaff()], async (req, res) => {
    const { rows, total } = await listClientActivities(deps, staffOf(req), readListParams(req, 20), {
      date: req.query.date,
      status: req.query.status,
      type: req.query.type,
      q: req.query.q,
    });
    sendList(res, rows, total);
  });
  route(r, 'confirmMedicationActivity', [requirePatientOrStaff('activities.manage')], async (req, res) => {
    res.json(await activities.confirmActivity(deps, principalOf(req), readIntParam(req, 'id'), readIntParam(req, 'activityId')));
  });
  // The medicines catalogue is staff only (P146): the portal does not read it.
  route(r, 'listMedicines', [requireStaff()], async (req, res) => {
    const { rows, total } = await listMedicines(deps.sequelize, readListParams(req, 20));
    sendList(res, rows, total);
  });
  route(r, 'getMedicine', [requireStaff()], async (req, res) => {
    res.json(await getMedicine(deps.sequelize, readIntParam(req, 'medicineId')));
  });
  return r;
}
