import type { Sequelize, Transaction } from 'sequelize';
import { execute } from '../../db/sql.js';
import { badRequest, conflict } from '../../http/errors.js';
import type { StaffPrincipal } from '../../http/auth.js';
import { findPatient } from '../patients/patients.service.js';
import {
  ACTIVITY_STATUS,
  ORDER_STATUS,
  PERMANENT_HORIZON_DAYS,
  generateActivityTimes,
  startFromInstant,
  type LocalStart,
} from '@vigia/contract/rules/activities';
import { ORDER_MESSAGES, toSchedule, type NormalisedOrder } from './orders.rules.js';
import { assertPatientCan, findOrder, getOrder, normalisedOf, toDate, type OrderRow, type OrdersDeps } from './orders.queries.js';

/** Inserts the activities of `times` (idempotent by (order_id, slot_at)); answers how many are new. */
export async function insertActivities(
  sequelize: Sequelize,
  order: { id: number; client_id: number; patient_id: number },
  times: Date[],
  status: number,
  now: Date,
  transaction?: Transaction,
): Promise<number> {
  let inserted = 0;
  for (let i = 0; i < times.length; i += 200) {
    const chunk = times.slice(i, i + 200);
    const values = chunk.map((_, j) => `(:client, :patient, :order, :t${j}, :t${j}, :status, :now, :now)`).join(', ');
    const repl: Record<string, unknown> = { client: order.client_id, patient: order.patient_id, order: order.id, status, now };
    chunk.forEach((t, j) => (repl[`t${j}`] = t));
    inserted += await execute(
      sequelize,
      `INSERT INTO activities (client_id, patient_id, order_id, slot_at, programmed_at, status, created_at, updated_at) VALUES ${values}
       ON CONFLICT (order_id, slot_at) DO NOTHING`,
      repl,
      transaction,
    );
  }
  return inserted;
}

/** New activities of an inactive patient start Suspendida (D9). */
export const newActivityStatus = (patientStatus: number) => (patientStatus === 0 ? ACTIVITY_STATUS.suspended : ACTIVITY_STATUS.scheduled);

/** The times an order gets now: from its start, not before `now`, a permanent one up to now + 30 days (D11). */
export function timesFor(o: NormalisedOrder, start: LocalStart, timeZone: string, now: Date, from?: Date): Date[] {
  const until = o.permanent ? new Date(now.getTime() + PERMANENT_HORIZON_DAYS * 86_400_000) : undefined;
  const notBefore = from && from.getTime() > now.getTime() ? from : now;
  return generateActivityTimes(toSchedule(o), start, timeZone, { notBefore, until });
}

export function startOf(o: OrderRow): LocalStart {
  return startFromInstant(toDate(o.start_at!), o.time_zone);
}

/** 'Programar Actividades': generates the activities of a No Gestionada order that has its start_at. */
export async function generateActivities(deps: OrdersDeps, staff: StaffPrincipal, patientId: number, orderId: number) {
  const patient = await findPatient(staff.clientId, patientId);
  assertPatientCan(staff, patient, 'manage_activities');
  const now = deps.now();
  const total = await deps.sequelize.transaction(async (t) => {
    const o = await findOrder(deps, staff.clientId, patientId, orderId, t);
    if (o.status !== ORDER_STATUS.unmanaged) throw conflict('La orden ya fue programada.');
    if (!o.start_at) throw badRequest('start_at', 'Indique la fecha y la hora de inicio antes de programar las actividades.');
    const n = normalisedOf(o);
    const times = timesFor(n, startOf(o), o.time_zone, now);
    if (!times.length) throw badRequest('start_at', ORDER_MESSAGES.noActivities);
    // Conditional: a second click (or a second process) finds the order already programmed.
    const moved = await execute(
      deps.sequelize,
      `UPDATE orders SET status = ${ORDER_STATUS.scheduled}, generated_until = :until, updated_at = :now WHERE id = :id AND status = ${ORDER_STATUS.unmanaged}`,
      { id: o.id, now, until: times.at(-1) },
      t,
    );
    if (!moved) throw conflict('La orden ya fue programada.');
    return insertActivities(deps.sequelize, o, times, newActivityStatus(patient.status), now, t);
  });
  return { total_activities: total, order: await getOrder(deps, staff.clientId, patientId, orderId) };
}
