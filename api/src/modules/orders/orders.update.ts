import { execute, sqlIn } from '../../db/sql.js';
import { AppError, badRequest, conflict } from '../../http/errors.js';
import type { StaffPrincipal } from '../../http/auth.js';
import { findPatient } from '../patients/patients.service.js';
import { ORDER_STATUS, localParts, ACTIVITY_STATUS } from '@vigia/contract/rules/activities';
import { SINGLE_DEFAULTS, type OrderFieldsInput } from './orders.rules.js';
import { assertPatientCan, findOrder, getOrder, normalisedOf, toDate, type OrdersDeps } from './orders.queries.js';
import { checked, textOf } from './orders.create.js';
import type { components } from '@vigia/contract/openapi';

type S = components['schemas'];

const EDIT_FIELDS = [
  'clinical_element',
  'medicine_id',
  'frecuency',
  'time_unit',
  'during',
  'dose',
  'amount',
  'medication_unit',
  'frequency_type',
  'days',
  'hours',
  'permanent',
  'only',
] as const;

/**
 * PUT /patients/{id}/orders/{orderId} (02 §4): {status: 3} cancels the order and its pending activities;
 * {notify} in status 1 or 2; {start_at} and the form's fields while No Gestionada. Status >= 3 is view-only.
 */
export async function updateOrder(
  deps: OrdersDeps,
  staff: StaffPrincipal,
  patientId: number,
  orderId: number,
  body: S['OrderUpdate'],
): Promise<S['Order']> {
  const patient = await findPatient(staff.clientId, patientId);
  const now = deps.now();
  const o = await findOrder(deps, staff.clientId, patientId, orderId);
  if (o.status >= ORDER_STATUS.cancelled) {
    if (patient.status === 3) assertPatientCan(staff, patient, 'manage_activities');
    throw conflict('La orden está cerrada: solo se puede consultar.');
  }
  const edits = EDIT_FIELDS.filter((f) => body[f] !== undefined);
  if (body.status === ORDER_STATUS.cancelled) {
    assertPatientCan(staff, patient, 'manage_activities');
    await deps.sequelize.transaction(async (t) => {
      await execute(
        deps.sequelize,
        `UPDATE orders SET status = ${ORDER_STATUS.cancelled}, updated_at = :now WHERE id = :id AND status < ${ORDER_STATUS.cancelled}`,
        { id: o.id, now },
        t,
      );
      await execute(
        deps.sequelize,
        `UPDATE activities SET status = ${ACTIVITY_STATUS.cancelled}, updated_at = :now WHERE order_id = :id AND status IN ${sqlIn(ACTIVITY_STATUS.scheduled, ACTIVITY_STATUS.inProgress, ACTIVITY_STATUS.suspended)}`,
        { id: o.id, now },
        t,
      );
    });
    return getOrder(deps, staff.clientId, patientId, orderId);
  }
  if (edits.length || body.start_at !== undefined) {
    assertPatientCan(staff, patient, edits.length ? 'create_order' : 'manage_activities');
    if (o.status !== ORDER_STATUS.unmanaged) throw conflict('Solo se puede editar una orden No Gestionada.');
    const current = normalisedOf(o);
    const merged: OrderFieldsInput = { ...current, order_type: current.order_type, ...Object.fromEntries(edits.map((f) => [f, body[f]])) };
    if (body.notify !== undefined) merged.notify = body.notify;
    const n = checked(merged, SINGLE_DEFAULTS);
    const text = await textOf(deps, n);
    let startAt = o.start_at ? toDate(o.start_at) : null;
    if (body.start_at !== undefined) {
      startAt = body.start_at ? new Date(body.start_at) : null;
      if (startAt && localParts(startAt, o.time_zone).date < localParts(now, o.time_zone).date)
        throw badRequest('start_at', 'La fecha de inicio no puede ser anterior a hoy.');
    }
    await execute(
      deps.sequelize,
      `UPDATE orders SET clinical_element = :clinical_element, medicine_id = :medicine_id, frecuency = :frecuency, time_unit = :time_unit, during = :during,
         dose = :dose, amount = :amount, medication_unit = :medication_unit, frequency_type = :frequency_type, days = :days, hours = :hours,
         notify = :notify, permanent = :permanent, start_at = :startAt, to_human = :text, updated_at = :now WHERE id = :id AND status = ${ORDER_STATUS.unmanaged}`,
      { ...n, days: JSON.stringify(n.days), hours: JSON.stringify(n.hours), startAt, text, now, id: o.id },
    );
    return getOrder(deps, staff.clientId, patientId, orderId);
  }
  if (body.notify !== undefined) {
    assertPatientCan(staff, patient, 'manage_activities');
    if (o.status !== ORDER_STATUS.scheduled && o.status !== ORDER_STATUS.running) {
      throw conflict('Las notificaciones solo se cambian en órdenes Programadas o En ejecución.');
    }
    await execute(deps.sequelize, 'UPDATE orders SET notify = :notify, updated_at = :now WHERE id = :id', {
      id: o.id,
      notify: body.notify,
      now,
    });
    return getOrder(deps, staff.clientId, patientId, orderId);
  }
  throw new AppError(400, 'validation_error', 'Envíe al menos un campo para actualizar.');
}
