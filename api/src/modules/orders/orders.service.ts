import type { Sequelize, Transaction } from 'sequelize';
import { execute, insertReturningId, select } from '../../db/sql.js';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../http/errors.js';
import type { ListParams } from '../../http/list-params.js';
import type { StaffPrincipal } from '../../http/auth.js';
import { patientPermissions, type PatientPermissions } from '@vigia/contract/rules/access';
import { findPatient } from '../patients/patients.service.js';
import type { Patient } from '../../db/models/patients.model.js';
import {
  ACTIVITY_STATUS,
  DEFAULT_FIRST_DOSE,
  MEDICATION_UNITS,
  ORDER_ELEMENT_NAMES,
  ORDER_STATUS,
  ORDER_STATUS_NAMES,
  ORDER_TYPE_NAMES,
  PERMANENT_HORIZON_DAYS,
  describeOrder,
  generateActivityTimes,
  localParts,
  orderProgress,
  orderText,
  startFromBulkDate,
  startFromInstant,
  type LocalStart,
} from '@vigia/contract/rules/activities';
import { displayName } from '@vigia/contract/rules/names';
import {
  BULK_DEFAULTS,
  ORDER_MESSAGES,
  SINGLE_DEFAULTS,
  checkOrder,
  toSchedule,
  type NormalisedOrder,
  type OrderFieldsInput,
} from './orders.rules.js';
import { ensureMedicines, getMedicine, medicineLabel } from './medicines.js';
import type { components } from '@vigia/contract/openapi';

type OrderDto = components['schemas']['Order'];

export interface OrdersDeps {
  sequelize: Sequelize;
  now: () => Date;
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
    `SELECT order_id, COUNT(*) AS total, SUM(CASE WHEN status = 2 THEN 1 ELSE 0 END) AS completed,
       SUM(CASE WHEN programmed_at <= :now AND status NOT IN (3, 5) THEN 1 ELSE 0 END) AS due
     FROM activities WHERE order_id IN (:ids) GROUP BY order_id`,
    { ids, now: deps.now() },
  );
  for (const r of rows) map.set(Number(r.order_id), { total: Number(r.total), completed: Number(r.completed), due: Number(r.due) });
  return map;
}

export function toOrderDto(o: OrderRow, c: Counts | undefined): OrderDto {
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
  const sort = SORTS[p.sort ?? ''] ?? 'o.id';
  const order = p.sort ? p.order : 'DESC';
  const rows = await select<OrderRow>(
    deps.sequelize,
    `${ORDER_SELECT} WHERE ${where} ORDER BY ${sort} ${order}, o.id DESC LIMIT :limit OFFSET :offset`,
    { ...params, limit: p.limit, offset: p.offset },
  );
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
  if (f.filter === '0') where += ' AND o.status = 0';
  if (f.filter === '3') where += ' AND o.status >= 1';
  if (f.type != null) where += ' AND o.order_type = :type';
  return listWhere(deps, where, { clientId, patientId, type: f.type }, p);
}

/** 'Prescripción actual' (01 §2 card 3): the patient's running orders (Programada, En ejecución), medications then vital signs. */
export async function patientPrescription(deps: Pick<OrdersDeps, 'sequelize' | 'now'>, clientId: number, patientId: number) {
  const rows = await select<OrderRow>(
    deps.sequelize,
    `${ORDER_SELECT} WHERE o.client_id = :clientId AND o.patient_id = :patientId AND o.status IN (1, 2) ORDER BY o.id`,
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

/** 'Gestión de órdenes' tabs (D7): 0 = No Gestionadas, 1 = Programadas (1, 2), 2 = Cerradas (3, 4). */
export async function listClientOrders(deps: OrdersDeps, clientId: number, p: ListParams, f: { filter?: string; type?: number }) {
  let where = 'o.client_id = :clientId';
  const statuses = { '0': [0], '1': [1, 2], '2': [3, 4] }[f.filter ?? ''];
  if (statuses) where += ` AND o.status IN (${statuses.join(',')})`;
  if (f.type != null) where += ' AND o.order_type = :type';
  return listWhere(deps, where, { clientId, type: f.type }, p);
}

/** 403 unless the role and the patient's status allow it (D13, P1, P2). */
export function assertPatientCan(staff: StaffPrincipal, patient: Patient, permission: keyof PatientPermissions): void {
  if (!patientPermissions(staff.role, patient.status)[permission]) {
    if (patient.status === 3) throw forbidden('El paciente falleció: su registro no admite cambios.');
    if (patient.status === 0) throw forbidden('El paciente está inactivo: actívelo antes de gestionar sus órdenes y actividades.');
    throw forbidden();
  }
}

function checked(input: OrderFieldsInput, defaults: object, prefix = ''): NormalisedOrder {
  const r = checkOrder(input, defaults as Record<string, unknown>);
  if (!r.ok) throw badRequest(`${prefix}${r.field}`, r.message);
  return r.order;
}

async function textOf(deps: OrdersDeps, o: NormalisedOrder, prefix = ''): Promise<string> {
  if (o.order_type === 1) {
    await ensureMedicines(deps.sequelize);
    const m = await getMedicine(deps.sequelize, o.medicine_id!).catch(() => {
      throw badRequest(`${prefix}medicine_id`, 'Seleccione un medicamento del catálogo');
    });
    return orderText({
      ...(toSchedule(o) as { order_type: 1; frecuency: number; time_unit: number; during: number }),
      amount: o.amount!,
      medication_unit: o.medication_unit!,
      medicine_name: medicineLabel(m),
    });
  }
  return orderText({
    ...(toSchedule(o) as { order_type: 0; frequency_type: number; days: number[]; hours: string[]; during: number }),
    clinical_element_name: ORDER_ELEMENT_NAMES[o.clinical_element!] ?? '',
  });
}

async function insertOrder(
  deps: OrdersDeps,
  staff: StaffPrincipal,
  patientId: number,
  o: NormalisedOrder,
  status: number,
  startAt: Date | null,
  toHuman: string,
  transaction: Transaction,
): Promise<number> {
  const now = deps.now();
  return insertReturningId(
    deps.sequelize,
    `INSERT INTO orders (client_id, patient_id, user_id, order_type, status, notify, permanent, clinical_element, medicine_id, frecuency, time_unit, during,
       dose, amount, medication_unit, frequency_type, days, hours, start_at, to_human, created_at, updated_at)
     VALUES (:clientId, :patientId, :userId, :order_type, :status, :notify, :permanent, :clinical_element, :medicine_id, :frecuency, :time_unit, :during,
       :dose, :amount, :medication_unit, :frequency_type, :days, :hours, :startAt, :toHuman, :now, :now) RETURNING id`,
    {
      ...o,
      days: JSON.stringify(o.days),
      hours: JSON.stringify(o.hours),
      clientId: staff.clientId,
      patientId,
      userId: staff.userId,
      status,
      startAt,
      toHuman,
      now,
    },
    transaction,
  );
}

/** Single order (02 §2.3): created No Gestionada; scheduling it (start_at + generate) makes it Programada. */
export async function createOrder(deps: OrdersDeps, staff: StaffPrincipal, patientId: number, body: OrderFieldsInput): Promise<OrderDto> {
  const patient = await findPatient(staff.clientId, patientId);
  assertPatientCan(staff, patient, 'create_order');
  const o = checked(body, SINGLE_DEFAULTS);
  const text = await textOf(deps, o);
  const startAt = body.start_at ? new Date(body.start_at) : null;
  const id = await deps.sequelize.transaction((t) => insertOrder(deps, staff, patientId, o, ORDER_STATUS.unmanaged, startAt, text, t));
  return getOrder(deps, staff.clientId, patientId, id);
}

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
const newActivityStatus = (patientStatus: number) => (patientStatus === 0 ? ACTIVITY_STATUS.suspended : ACTIVITY_STATUS.scheduled);

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
      'UPDATE orders SET status = 1, generated_until = :until, updated_at = :now WHERE id = :id AND status = 0',
      { id: o.id, now, until: times.at(-1) },
      t,
    );
    if (!moved) throw conflict('La orden ya fue programada.');
    return insertActivities(deps.sequelize, o, times, newActivityStatus(patient.status), now, t);
  });
  return { total_activities: total, order: await getOrder(deps, staff.clientId, patientId, orderId) };
}

export interface BulkItem extends OrderFieldsInput {
  order_type: number;
  start_at: string;
}

/** 'Crear múltiples órdenes': every item valid or nothing is created; each order is Programada with its activities. */
export async function createBulk(deps: OrdersDeps, staff: StaffPrincipal, patientId: number, items: BulkItem[]) {
  const patient = await findPatient(staff.clientId, patientId);
  assertPatientCan(staff, patient, 'create_order');
  if (!items.length) throw badRequest('orders', ORDER_MESSAGES.noValidOrders);
  const now = deps.now();
  const today = localParts(now, patient.time_zone).date;
  const prepared: Array<{ o: NormalisedOrder; text: string; start: LocalStart; times: Date[] }> = [];
  for (const [i, item] of items.entries()) {
    const o = checked(item, BULK_DEFAULTS, `orders.${i}.`);
    const text = await textOf(deps, o, `orders.${i}.`);
    // A past start date is replaced by today (02 §5), like the dialog's preview.
    const start = startFromBulkDate(item.start_at);
    if (start.date < today) start.date = today;
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

export interface OrderUpdateBody extends OrderFieldsInput {
  status?: number;
}

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
  body: OrderUpdateBody,
): Promise<OrderDto> {
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
      await execute(deps.sequelize, 'UPDATE orders SET status = 3, updated_at = :now WHERE id = :id AND status < 3', { id: o.id, now }, t);
      await execute(
        deps.sequelize,
        'UPDATE activities SET status = 3, updated_at = :now WHERE order_id = :id AND status IN (0, 1, 5)',
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
         notify = :notify, permanent = :permanent, start_at = :startAt, to_human = :text, updated_at = :now WHERE id = :id AND status = 0`,
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

export { DEFAULT_FIRST_DOSE };
