import type { Sequelize, Transaction } from 'sequelize';
import { select, sqlIn } from '../../db/sql.js';
import { forbidden, notFound } from '../../http/errors.js';
import type { ListParams } from '../../http/list-params.js';
import type { StaffPrincipal } from '../../http/auth.js';
import { patientPermissions, type PatientPermissions } from '@vigia/contract/rules/access';
import { findPatient } from '../patients/patients.service.js';
import type { Patient } from '../../db/models/patients.model.js';
import {
  MEDICATION_UNITS,
  ORDER_ELEMENT_NAMES,
  ORDER_STATUS,
  ORDER_STATUS_NAMES,
  ORDER_TYPE_NAMES,
  describeOrder,
  orderProgress,
  ACTIVITY_STATUS,
} from '@vigia/contract/rules/activities';
import { displayName } from '@vigia/contract/rules/names';
import type { NormalisedOrder } from './orders.rules.js';
import { medicineLabel } from './medicines.js';
import type { components } from '@vigia/contract/openapi';

type OrderDto = components['schemas']['Order'];

export interface OrdersDeps {
  sequelize: Sequelize;
  now: () => Date;
  /** Told after a medication order is written, so the patient's RDA de paciente is written again (issue 51). */
  onMedicationChanged?: (clientId: number, patientId: number, userId: number) => Promise<void>;
}

export interface OrderRow {
  id: number;
  client_id: number;
  patient_id: number;
  user_id: number | null;
  order_type: 0 | 1;
  status: number;
  notify: boolean | number;
  permanent: boolean | number;
  clinical_element: number | null;
  medicine_id: number | null;
  frecuency: number | null;
  time_unit: number | null;
  during: number;
  dose: number | null;
  amount: string | null;
  medication_unit: number | null;
  frequency_type: number | null;
  days: string;
  hours: string;
  start_at: string | Date | null;
  to_human: string | null;
  generated_until: string | Date | null;
  created_at: string | Date;
  time_zone: string;
  first_name: string;
  last_name: string;
  user_first_name: string | null;
  user_last_name: string | null;
  medicine_name: string | null;
  medicine_presentation: string | null;
}

export const toDate = (v: string | Date): Date => (v instanceof Date ? v : new Date(v));
const iso = (v: string | Date | null) => (v == null ? null : toDate(v).toISOString());

const ORDER_SELECT = `SELECT o.*, p.time_zone, p.first_name, p.last_name, u.first_name AS user_first_name, u.last_name AS user_last_name,
  m.name AS medicine_name, m.presentation AS medicine_presentation
  FROM orders o JOIN patients p ON p.id = o.patient_id LEFT JOIN users u ON u.id = o.user_id LEFT JOIN medicines m ON m.id = o.medicine_id`;

/** A stored order as the normalised shape the rules and the generator use. */
export function normalisedOf(o: OrderRow): NormalisedOrder {
  return {
    order_type: Number(o.order_type) as 0 | 1,
    clinical_element: o.clinical_element,
    medicine_id: o.medicine_id,
    frecuency: o.frecuency,
    time_unit: o.time_unit,
    during: o.during,
    dose: o.dose,
    amount: o.amount,
    medication_unit: o.medication_unit,
    frequency_type: o.frequency_type,
    days: JSON.parse(o.days) as number[],
    hours: JSON.parse(o.hours) as string[],
    notify: !!o.notify,
    permanent: !!o.permanent,
  };
}

interface Counts {
  total: number;
  completed: number;
  due: number;
}

async function countsOf(deps: OrdersDeps, ids: number[]): Promise<Map<number, Counts>> {
  const map = new Map<number, Counts>();
  if (!ids.length) return map;
  const rows = await select<{ order_id: number; total: number; completed: number; due: number }>(
    deps.sequelize,
    `SELECT order_id, COUNT(*) AS total, SUM(CASE WHEN status = ${ACTIVITY_STATUS.completed} THEN 1 ELSE 0 END) AS completed,
       SUM(CASE WHEN programmed_at <= :now AND status NOT IN ${sqlIn(ACTIVITY_STATUS.cancelled, ACTIVITY_STATUS.suspended)} THEN 1 ELSE 0 END) AS due
     FROM activities WHERE order_id IN (:ids) GROUP BY order_id`,
    { ids, now: deps.now() },
  );
  for (const r of rows) map.set(Number(r.order_id), { total: Number(r.total), completed: Number(r.completed), due: Number(r.due) });
  return map;
}

function toOrderDto(o: OrderRow, c: Counts | undefined): OrderDto {
  const n = normalisedOf(o);
  const medicine = o.medicine_name ? medicineLabel({ name: o.medicine_name, presentation: o.medicine_presentation ?? '' }) : null;
  const element = o.clinical_element == null ? null : o.clinical_element;
  return {
    id: o.id,
    order_type: n.order_type,
    order_type_name: ORDER_TYPE_NAMES[n.order_type],
    status: o.status as OrderDto['status'],
    status_name: ORDER_STATUS_NAMES[o.status] ?? '',
    progress: orderProgress(c?.completed ?? 0, c?.due ?? 0),
    notify: n.notify,
    permanent: n.permanent,
    to_human: o.to_human,
    description: describeOrder(o.to_human, n.permanent),
    created_at: toDate(o.created_at).toISOString(),
    time_zone_patient: o.time_zone,
    user: { id: o.user_id, name: o.user_first_name ? `${displayName(o.user_first_name)} ${displayName(o.user_last_name)}` : null },
    patient: { id: o.patient_id, full_name: `${displayName(o.first_name)} ${displayName(o.last_name)}` },
    clinical_element: element,
    clinical_element_id: element,
    clinical_element_name: element == null ? null : (ORDER_ELEMENT_NAMES[element] ?? null),
    medicine_id: o.medicine_id,
    medicine_name: medicine,
    frecuency: o.frecuency,
    time_unit: o.time_unit,
    during: o.during,
    dose: o.dose,
    amount: o.amount,
    medication_unit: o.medication_unit,
    medication_unit_name: o.medication_unit == null ? null : (MEDICATION_UNITS[o.medication_unit] ?? null),
    frequency_type: o.frequency_type,
    days: n.days,
    hours: n.hours,
    start_at: iso(o.start_at),
    only: null,
    activities_count: c?.total ?? 0,
    programmable: o.status === ORDER_STATUS.unmanaged && !c?.total,
  };
}

async function dtos(deps: OrdersDeps, rows: OrderRow[]): Promise<OrderDto[]> {
  const counts = await countsOf(
    deps,
    rows.map((r) => r.id),
  );
  return rows.map((r) => toOrderDto(r, counts.get(r.id)));
}

/** Tenancy (D14): an order of another patient or client answers 404. */
export async function findOrder(
  deps: OrdersDeps,
  clientId: number,
  patientId: number,
  orderId: number,
  transaction?: Transaction,
): Promise<OrderRow> {
  const [o] = await select<OrderRow>(
    deps.sequelize,
    `${ORDER_SELECT} WHERE o.id = :orderId AND o.patient_id = :patientId AND o.client_id = :clientId`,
    { orderId, patientId, clientId },
    transaction,
  );
  if (!o) throw notFound('La orden no existe.');
  return o;
}

export async function getOrder(deps: OrdersDeps, clientId: number, patientId: number, orderId: number): Promise<OrderDto> {
  await findPatient(clientId, patientId);
  return (await dtos(deps, [await findOrder(deps, clientId, patientId, orderId)]))[0];
}

const SORTS: Record<string, string> = { id: 'o.id', created_at: 'o.created_at', status: 'o.status', order_type: 'o.order_type' };

async function listWhere(deps: OrdersDeps, where: string, params: Record<string, unknown>, p: ListParams) {
  // The patient's orders sort by one field, then the newest first.
  const orderBy = `${SORTS[p.sort ?? ''] ?? 'o.id'} ${p.sort ? p.order : 'DESC'}, o.id DESC`;
  const rows = await select<OrderRow>(deps.sequelize, `${ORDER_SELECT} WHERE ${where} ORDER BY ${orderBy} LIMIT :limit OFFSET :offset`, {
    ...params,
    limit: p.limit,
    offset: p.offset,
  });
  const [{ n }] = await select<{ n: number }>(deps.sequelize, `SELECT COUNT(*) AS n FROM orders o WHERE ${where}`, params);
  return { rows: await dtos(deps, rows), total: Number(n) };
}

/** Patient orders (02 §2.2): filter '0' = to manage (status 0); '3' = history (every managed order, status >= 1, P52). */
export async function listPatientOrders(
  deps: OrdersDeps,
  clientId: number,
  patientId: number,
  p: ListParams,
  f: { filter?: string; type?: number },
) {
  await findPatient(clientId, patientId);
  let where = 'o.client_id = :clientId AND o.patient_id = :patientId';
  if (f.filter === '0') where += ` AND o.status = ${ORDER_STATUS.unmanaged}`;
  if (f.filter === '3') where += ` AND o.status >= ${ORDER_STATUS.scheduled}`;
  if (f.type != null) where += ' AND o.order_type = :type';
  return listWhere(deps, where, { clientId, patientId, type: f.type }, p);
}

/** 'Prescripción actual' (01 §2 card 3): the patient's running orders (Programada, En ejecución), medications then vital signs. */
export async function patientPrescription(deps: Pick<OrdersDeps, 'sequelize' | 'now'>, clientId: number, patientId: number) {
  const rows = await select<OrderRow>(
    deps.sequelize,
    `${ORDER_SELECT} WHERE o.client_id = :clientId AND o.patient_id = :patientId AND o.status IN ${sqlIn(ORDER_STATUS.scheduled, ORDER_STATUS.running)} ORDER BY o.id`,
    { clientId, patientId },
  );
  const orders = await dtos(deps as OrdersDeps, rows);
  return {
    medications: orders
      .filter((o) => o.order_type === 1)
      .map((o) => ({
        id: o.id,
        order_id: o.id,
        medication: o.medicine_name ?? null,
        frecuency: o.description ?? null,
        progress: o.progress,
      })),
    vitals: orders
      .filter((o) => o.order_type === 0)
      .map((o) => ({
        id: o.id,
        order_id: o.id,
        clinical_element: o.clinical_element ?? null,
        clinical_element_name: o.clinical_element_name ?? null,
        days: o.days ?? [],
        progress: o.progress,
      })),
  };
}

/**
 * Orders of the organisation by id, as the contract's Order, in the order of `ids` (the list
 * 'Gestión de órdenes' pages them through the resource engine, orders.resource.ts).
 */
export async function ordersByIds(deps: OrdersDeps, clientId: number, ids: number[]): Promise<OrderDto[]> {
  if (!ids.length) return [];
  const rows = await select<OrderRow>(deps.sequelize, `${ORDER_SELECT} WHERE o.client_id = :clientId AND o.id IN (:ids)`, {
    clientId,
    ids,
  });
  const byId = new Map((await dtos(deps, rows)).map((o) => [o.id, o]));
  return ids.map((id) => byId.get(id)).filter((o): o is OrderDto => !!o);
}

/** 403 unless the role and the patient's status allow it (D13, P1, P2). */
export function assertPatientCan(staff: StaffPrincipal, patient: Patient, permission: keyof PatientPermissions): void {
  if (!patientPermissions(staff.role, patient.status)[permission]) {
    if (patient.status === 3) throw forbidden('El paciente falleció: su registro no admite cambios.');
    if (patient.status === 0) throw forbidden('El paciente está inactivo: actívelo antes de gestionar sus órdenes y actividades.');
    throw forbidden();
  }
}
