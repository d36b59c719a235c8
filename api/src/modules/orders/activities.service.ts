import { execute, select, sqlIn } from '../../db/sql.js';
import { badRequest, conflict, forbidden, notFound } from '../../http/errors.js';
import type { Principal, StaffPrincipal } from '../../http/auth.js';
import { findPatient } from '../patients/patients.service.js';
import type { Sequelize } from 'sequelize';
import {
  ACTIVITY_STATUS,
  ACTIVITY_STATUS_NAMES,
  describeOrder,
  ORDER_STATUS,
  PENDING_ACTIVITY_STATUSES,
} from '@vigia/contract/rules/activities';
import { isConfirmableAt } from './activities.confirm.rules.js';
import { assertPatientCan, findOrder, toDate, type OrdersDeps } from './orders.queries.js';
import { medicineLabel } from './medicines.js';
import type { components } from '@vigia/contract/openapi';

type ActivityDto = components['schemas']['Activity'];

export interface ActivityRow {
  id: number;
  order_id: number;
  order_type: 0 | 1;
  to_human: string | null;
  permanent: boolean | number;
  clinical_element: number | null;
  medicine_name: string | null;
  medicine_presentation: string | null;
  programmed_at: string | Date;
  updated_at: string | Date;
  completed_at: string | Date | null;
  status: number;
}

export const ACTIVITY_SELECT = `SELECT a.id, a.order_id, a.programmed_at, a.updated_at, a.completed_at, a.status, o.order_type, o.to_human, o.permanent,
  o.clinical_element, m.name AS medicine_name, m.presentation AS medicine_presentation
  FROM activities a JOIN orders o ON o.id = a.order_id LEFT JOIN medicines m ON m.id = o.medicine_id`;

export function toActivityDto(a: ActivityRow): ActivityDto {
  return {
    id: Number(a.id),
    order_id: a.order_id,
    order_type: Number(a.order_type) as 0 | 1,
    order_description: describeOrder(a.to_human, !!a.permanent),
    clinical_element: a.clinical_element,
    medicine_name: a.medicine_name ? medicineLabel({ name: a.medicine_name, presentation: a.medicine_presentation ?? '' }) : null,
    programmed_at: toDate(a.programmed_at).toISOString(),
    updated_at: toDate(a.updated_at).toISOString(),
    completed_at: a.completed_at ? toDate(a.completed_at).toISOString() : null,
    status: a.status as ActivityDto['status'],
    status_name: ACTIVITY_STATUS_NAMES[a.status] ?? '',
  };
}

const MAX_RANGE_MS = 62 * 86_400_000;

function parseBound(value: unknown, field: string): Date | null {
  if (value == null || value === '') return null;
  const d = new Date(String(value));
  if (Number.isNaN(d.getTime())) throw badRequest(field, 'La fecha no es válida');
  return d;
}

/** The calendar's visible range (star_date, end_date); without them, the current month around `now`. At most 62 days. */
export async function listPatientActivities(
  deps: OrdersDeps,
  clientId: number,
  patientId: number,
  q: { star_date?: unknown; end_date?: unknown },
) {
  await findPatient(clientId, patientId);
  const now = deps.now();
  const start = parseBound(q.star_date, 'star_date') ?? new Date(now.getTime() - 31 * 86_400_000);
  const end = parseBound(q.end_date, 'end_date') ?? new Date(start.getTime() + 62 * 86_400_000);
  if (end.getTime() <= start.getTime()) throw badRequest('end_date', 'La fecha final debe ser posterior a la inicial.');
  if (end.getTime() - start.getTime() > MAX_RANGE_MS) throw badRequest('end_date', 'El rango no puede superar 62 días.');
  const rows = await select<ActivityRow>(
    deps.sequelize,
    `${ACTIVITY_SELECT} WHERE a.patient_id = :patientId AND a.client_id = :clientId AND a.programmed_at >= :start AND a.programmed_at < :end ORDER BY a.programmed_at, a.id`,
    { patientId, clientId, start, end },
  );
  return rows.map(toActivityDto);
}

export async function listOrderActivities(deps: OrdersDeps, clientId: number, patientId: number, orderId: number) {
  await findPatient(clientId, patientId);
  await findOrder(deps, clientId, patientId, orderId);
  const rows = await select<ActivityRow>(deps.sequelize, `${ACTIVITY_SELECT} WHERE a.order_id = :orderId ORDER BY a.programmed_at, a.id`, {
    orderId,
  });
  return rows.map(toActivityDto);
}

async function findActivity(
  deps: OrdersDeps,
  clientId: number,
  patientId: number,
  activityId: number,
  orderId?: number,
): Promise<ActivityRow & { order_status: number }> {
  const [a] = await select<ActivityRow & { order_status: number }>(
    deps.sequelize,
    `${ACTIVITY_SELECT.replace('SELECT a.id', 'SELECT o.status AS order_status, a.id')} WHERE a.id = :activityId AND a.patient_id = :patientId AND a.client_id = :clientId ${orderId ? 'AND a.order_id = :orderId' : ''}`,
    { activityId, patientId, clientId, orderId },
  );
  if (!a) throw notFound('La actividad no existe.');
  return a;
}

/**
 * D11: a reminder that finally could not be delivered makes its activity 'Fallida' (4), if it is
 * still pending. The messaging jobs call it through their deps (this module writes activities).
 */
export async function failUndeliveredActivity(sequelize: Sequelize, clientId: number, activityId: number): Promise<void> {
  await execute(
    sequelize,
    `UPDATE activities SET status = :failed WHERE id = :id AND client_id = :clientId AND status IN ${sqlIn(...PENDING_ACTIVITY_STATUSES)}`,
    { failed: ACTIVITY_STATUS.failed, id: activityId, clientId },
  );
}

/** Reschedule (programmed_at) or cancel (status 3) a Programada activity (01 §4, 02 §2.13). */
export async function updateActivity(
  deps: OrdersDeps,
  staff: StaffPrincipal,
  patientId: number,
  orderId: number,
  activityId: number,
  body: components['schemas']['ActivityUpdate'],
) {
  const patient = await findPatient(staff.clientId, patientId);
  await findOrder(deps, staff.clientId, patientId, orderId);
  const a = await findActivity(deps, staff.clientId, patientId, activityId, orderId);
  assertPatientCan(staff, patient, 'manage_activities');
  if (a.order_status >= ORDER_STATUS.cancelled) throw conflict('La orden está cerrada: solo se puede consultar.');
  if (a.status !== ACTIVITY_STATUS.scheduled) throw conflict('Solo se pueden reprogramar o cancelar actividades Programadas.');
  const now = deps.now();
  let changed: number;
  if (body.status === ACTIVITY_STATUS.cancelled) {
    changed = await execute(
      deps.sequelize,
      `UPDATE activities SET status = ${ACTIVITY_STATUS.cancelled}, updated_at = :now WHERE id = :id AND status = ${ACTIVITY_STATUS.scheduled}`,
      {
        id: a.id,
        now,
      },
    );
  } else if (body.programmed_at) {
    const at = new Date(body.programmed_at);
    if (at.getTime() <= now.getTime()) throw badRequest('programmed_at', 'La nueva fecha debe ser posterior a la hora actual.');
    changed = await execute(
      deps.sequelize,
      `UPDATE activities SET programmed_at = :at, updated_at = :now WHERE id = :id AND status = ${ACTIVITY_STATUS.scheduled}`,
      {
        id: a.id,
        at,
        now,
      },
    );
  } else {
    throw badRequest('programmed_at', '¡El campo es requerido!');
  }
  if (!changed) throw conflict('Solo se pueden reprogramar o cancelar actividades Programadas.');
  return toActivityDto(await findActivity(deps, staff.clientId, patientId, activityId));
}

/**
 * Medication confirmation (D11, P53): the patient (portal token) or staff with manage_activities
 * confirms a medication activity during its hour; it becomes Completada.
 */
export async function confirmActivity(deps: OrdersDeps, principal: Principal, patientId: number, activityId: number) {
  if (principal.kind === 'patient' && principal.patientId !== patientId) throw forbidden();
  const patient = await findPatient(principal.clientId, patientId);
  if (principal.kind === 'staff') assertPatientCan(principal, patient, 'manage_activities');
  else if (patient.status === 3) throw forbidden('El paciente falleció: su registro no admite cambios.');
  const a = await findActivity(deps, principal.clientId, patientId, activityId);
  if (Number(a.order_type) !== 1)
    throw conflict('Solo las actividades de medicamentos se confirman; las de signos vitales se completan con la medición.');
  const now = deps.now();
  if (a.status === ACTIVITY_STATUS.completed) return toActivityDto(a);
  if (!isConfirmableAt({ order_type: Number(a.order_type), status: a.status, programmed_at: toDate(a.programmed_at) }, now)) {
    throw conflict('La toma solo se puede confirmar durante su hora programada.');
  }
  await execute(
    deps.sequelize,
    `UPDATE activities SET status = ${ACTIVITY_STATUS.completed}, completed_at = :now, updated_at = :now WHERE id = :id AND status IN ${sqlIn(ACTIVITY_STATUS.scheduled, ACTIVITY_STATUS.inProgress)}`,
    { id: a.id, now },
  );
  return toActivityDto(await findActivity(deps, principal.clientId, patientId, activityId));
}
