import { Op, type WhereOptions } from 'sequelize';
import { sortOrder } from '../../http/list-params.js';
import { Order } from '../../db/models/orders.model.js';
import { defineResource } from '../../resources/resource.js';
import { ORDER_STATUS } from '@vigia/contract/rules/activities';
import type { components } from '@vigia/contract/openapi';
import { ordersByIds } from './orders.queries.js';

type S = components['schemas'];

/** 'Gestión de órdenes' tabs (D7): 0 No Gestionadas, 1 Programadas (scheduled, running), 2 Cerradas (cancelled, completed). */
export const ORDER_TABS: Record<string, number[]> = {
  '0': [ORDER_STATUS.unmanaged],
  '1': [ORDER_STATUS.scheduled, ORDER_STATUS.running],
  '2': [ORDER_STATUS.cancelled, ORDER_STATUS.completed],
};

/**
 * The organisation's orders, 'Gestión de órdenes' (02 §2.6, D7): GET /orders with the simple-rest
 * conventions, plus the tab (`filter`) and `type`. An order is created, changed and scheduled on
 * its patient (/patients/{id}/orders…, orders.routes.ts), where the patient's status and the
 * activities beside it are checked in one transaction; this resource only lists.
 */
export const ordersResource = defineResource<Order, S['Order']>({
  name: 'orders',
  model: Order,
  tenant: 'client_id',
  access: { write: 'orders.create' },
  operations: { list: 'listClientOrders' },
  fields: {
    id: { column: 'id', kind: 'integer', sort: true },
    order_type: { column: 'order_type', kind: 'enum', sort: true },
    status: { column: 'status', kind: 'integer', sort: true },
    notify: { column: 'notify', kind: 'boolean' },
    permanent: { column: 'permanent', kind: 'boolean' },
    clinical_element: { column: 'clinical_element', kind: 'integer' },
    medicine_id: { column: 'medicine_id', kind: 'integer' },
    to_human: { column: 'to_human', kind: 'text' },
    start_at: { column: 'start_at', kind: 'datetime' },
    created_at: { column: 'created_at', kind: 'datetime', sort: true },
  },
  defaultLimit: 10,
  notFound: 'La orden no existe.',
  order: (p) => sortOrder(p, [['id', 'DESC']], ['id', 'DESC']),
  where(query) {
    const and: WhereOptions[] = [];
    const tab = ORDER_TABS[String(query.filter ?? '')];
    if (tab) and.push({ status: { [Op.in]: tab } });
    if (query.type != null) and.push({ order_type: Number(query.type) });
    return and.length ? { [Op.and]: and } : null;
  },
  present: (rows, ctx) =>
    ordersByIds(
      { sequelize: ctx.sequelize, now: () => ctx.now },
      ctx.clientId,
      rows.map((o) => o.id),
    ),
});
