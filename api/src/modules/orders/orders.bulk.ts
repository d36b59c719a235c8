import { execute } from '../../db/sql.js';
import { badRequest } from '../../http/errors.js';
import type { StaffPrincipal } from '../../http/auth.js';
import { findPatient } from '../patients/patients.service.js';
import { ORDER_STATUS, bulkStart, type LocalStart } from '@vigia/contract/rules/activities';
import { BULK_DEFAULTS, ORDER_MESSAGES, type NormalisedOrder } from './orders.rules.js';
import { assertPatientCan, type OrdersDeps } from './orders.queries.js';
import { checked, insertOrder, textOf } from './orders.create.js';
import { insertActivities, newActivityStatus, timesFor } from './orders.schedule.js';
import type { components } from '@vigia/contract/openapi';

/**
 * openapi.yaml requires start_at on a bulk item; the generated type loses that `required`, which
 * sits in the other branch of the schema's allOf.
 */
export type BulkItem = components['schemas']['BulkOrderItem'] & { start_at: string };

/** 'Crear múltiples órdenes': every item valid or nothing is created; each order is Programada with its activities. */
export async function createBulk(deps: OrdersDeps, staff: StaffPrincipal, patientId: number, items: BulkItem[]) {
  const patient = await findPatient(staff.clientId, patientId);
  assertPatientCan(staff, patient, 'create_order');
  if (!items.length) throw badRequest('orders', ORDER_MESSAGES.noValidOrders);
  const now = deps.now();
  const prepared: Array<{ o: NormalisedOrder; text: string; start: LocalStart; times: Date[] }> = [];
  for (const [i, item] of items.entries()) {
    const o = checked(item, BULK_DEFAULTS, `orders.${i}.`);
    const text = await textOf(deps, o, `orders.${i}.`);
    // A past start date is replaced by today (02 §5), like the dialog's preview.
    const start = bulkStart(item.start_at, now, patient.time_zone);
    const times = timesFor(o, start, patient.time_zone, now);
    prepared.push({ o, text, start, times });
  }
  let totalActivities = 0;
  const ids: number[] = [];
  await deps.sequelize.transaction(async (t) => {
    for (const { o, text, start, times } of prepared) {
      const startAt = times[0] ?? new Date(`${start.date}T00:00:00Z`);
      const status = times.length ? ORDER_STATUS.scheduled : ORDER_STATUS.unmanaged;
      const id = await insertOrder(deps, staff, patientId, o, status, startAt, text, t);
      if (times.length)
        await execute(deps.sequelize, 'UPDATE orders SET generated_until = :until WHERE id = :id', { id, until: times.at(-1) }, t);
      totalActivities += await insertActivities(
        deps.sequelize,
        { id, client_id: staff.clientId, patient_id: patientId },
        times,
        newActivityStatus(patient.status),
        now,
        t,
      );
      ids.push(id);
    }
  });
  return { total_orders: ids.length, total_activities: totalActivities, order_ids: ids };
}
