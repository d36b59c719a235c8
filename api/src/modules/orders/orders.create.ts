import type { Transaction } from 'sequelize';
import { insertReturningId } from '../../db/sql.js';
import { badRequest } from '../../http/errors.js';
import type { StaffPrincipal } from '../../http/auth.js';
import { findPatient } from '../patients/patients.service.js';
import { ORDER_ELEMENT_NAMES, ORDER_STATUS, orderText } from '@vigia/contract/rules/activities';
import { checkOrder, SINGLE_DEFAULTS, toSchedule, type NormalisedOrder, type OrderFieldsInput } from './orders.rules.js';
import { ensureMedicines, getMedicine, medicineLabel } from './medicines.js';
import { assertPatientCan, getOrder, type OrdersDeps } from './orders.queries.js';
import type { components } from '@vigia/contract/openapi';

type S = components['schemas'];

/** The rules' check of an order's fields, as a 400 on the failing field (`prefix`: a bulk item's path). */
export function checked(input: OrderFieldsInput, defaults: object, prefix = ''): NormalisedOrder {
  const r = checkOrder(input, defaults as Record<string, unknown>);
  if (!r.ok) throw badRequest(`${prefix}${r.field}`, r.message);
  return r.order;
}

/** The order's description (to_human); a medicine missing from the catalogue is a 400 on medicine_id. */
export async function textOf(deps: OrdersDeps, o: NormalisedOrder, prefix = ''): Promise<string> {
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

/** Stores one order in the caller's transaction; answers its id. */
export async function insertOrder(
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
export async function createOrder(deps: OrdersDeps, staff: StaffPrincipal, patientId: number, body: S['OrderInput']): Promise<S['Order']> {
  const patient = await findPatient(staff.clientId, patientId);
  assertPatientCan(staff, patient, 'create_order');
  const o = checked(body, SINGLE_DEFAULTS);
  const text = await textOf(deps, o);
  const startAt = body.start_at ? new Date(body.start_at) : null;
  const id = await deps.sequelize.transaction((t) => insertOrder(deps, staff, patientId, o, ORDER_STATUS.unmanaged, startAt, text, t));
  return getOrder(deps, staff.clientId, patientId, id);
}
