import { ORDER_TYPE } from '@vigia/contract/rules/activities';
import {
  MEDICATION_REQUEST_STATUS,
  SERVICE_REQUEST_STATUS,
  medicationRequestFor,
  serviceRequestFor,
  type FhirOrderRow,
} from './fhir.mappers.js';
import { rowIdOf, statusesOf } from './fhir.search.rules.js';
import {
  readRows,
  bind,
  dateParamConditions,
  groupCondition,
  idConditions,
  patientConditions,
  searchById,
  where,
  type Json,
  type Page,
  type SearchDeps,
  type SearchInput,
} from './fhir.search.sql.js';

/**
 * Orders as FHIR (issue 37): a medication order is a MedicationRequest (`x<id>`), a measurement
 * order a ServiceRequest (`s<id>`). Both live in `orders`, told apart by order_type; a read of one
 * kind by the other's id is not found. Keyset on the id (orders (client_id, status, id) and
 * (patient_id, status, id) find the rows).
 */

type OrderDbRow = Omit<FhirOrderRow, 'days' | 'hours' | 'start_at' | 'created_at' | 'updated_at' | 'permanent'> & {
  permanent: boolean | number;
  days: string | null;
  hours: string | null;
  start_at: string | Date | null;
  created_at: string | Date;
  updated_at: string | Date;
};

const ORDER_SELECT = `SELECT o.id, o.patient_id, o.order_type, o.status, o.permanent, o.clinical_element, o.medicine_id,
  md.name AS medicine_name, md.presentation AS medicine_presentation, o.frecuency, o.time_unit, o.during, o.amount,
  o.medication_unit, o.frequency_type, o.days, o.hours, o.start_at, o.to_human, o.created_at, o.updated_at`;
const ORDER_FROM = 'FROM orders o LEFT JOIN medicines md ON md.id = o.medicine_id';

const numberOrNull = (v: unknown) => (v == null ? null : Number(v));
function listOf<T>(raw: string | null): T[] {
  try {
    const v: unknown = JSON.parse(raw ?? '[]');
    return Array.isArray(v) ? (v as T[]) : [];
  } catch {
    return [];
  }
}

function orderRowOf(r: OrderDbRow): FhirOrderRow {
  return {
    ...r,
    id: Number(r.id),
    patient_id: Number(r.patient_id),
    order_type: Number(r.order_type),
    status: Number(r.status),
    clinical_element: numberOrNull(r.clinical_element),
    medicine_id: numberOrNull(r.medicine_id),
    frecuency: numberOrNull(r.frecuency),
    time_unit: numberOrNull(r.time_unit),
    during: Number(r.during),
    medication_unit: numberOrNull(r.medication_unit),
    frequency_type: numberOrNull(r.frequency_type),
    days: listOf<number>(r.days).map(Number),
    hours: listOf<string>(r.hours).map(String),
    start_at: r.start_at == null ? null : new Date(r.start_at),
    created_at: new Date(r.created_at),
    updated_at: new Date(r.updated_at),
  };
}

interface OrderKind {
  type: 'MedicationRequest' | 'ServiceRequest';
  letter: string;
  orderType: number;
  statuses: Record<number, string>;
  statusSystem: string;
  map: (o: FhirOrderRow) => Json;
}
const MEDICATION: OrderKind = {
  type: 'MedicationRequest',
  letter: 'x',
  orderType: ORDER_TYPE.medication,
  statuses: MEDICATION_REQUEST_STATUS,
  statusSystem: 'http://hl7.org/fhir/CodeSystem/medicationrequest-status',
  map: medicationRequestFor,
};
const MEASUREMENT: OrderKind = {
  type: 'ServiceRequest',
  letter: 's',
  orderType: ORDER_TYPE.measurement,
  statuses: SERVICE_REQUEST_STATUS,
  statusSystem: 'http://hl7.org/fhir/request-status',
  map: serviceRequestFor,
};

async function readOrder(kind: OrderKind, deps: SearchDeps, clientId: number, id: string): Promise<Json | null> {
  const rowId = rowIdOf(kind.letter, id);
  if (rowId === null) return null;
  const [row] = await readRows<OrderDbRow>(
    deps,
    `${ORDER_SELECT} ${ORDER_FROM} WHERE o.id = :id AND o.client_id = :clientId AND o.order_type = :orderType`,
    { id: rowId, clientId, orderType: kind.orderType },
  );
  return row ? kind.map(orderRowOf(row)) : null;
}

async function searchOrders(kind: OrderKind, deps: SearchDeps, clientId: number, input: SearchInput): Promise<Page> {
  const w = where(clientId);
  w.sql.push('o.client_id = :clientId', `o.order_type = ${bind(w, kind.orderType)}`);
  patientConditions(w, 'o.patient_id', input.params, ['patient', 'subject']);
  groupCondition(w, 'o.patient_id', input.groupId);
  idConditions(w, 'o.id', kind.letter, input.params);
  for (const raw of input.params.get('status') ?? []) {
    const statuses = statusesOf('status', raw, kind.statuses, kind.statusSystem);
    if (statuses === null) continue;
    w.sql.push(statuses.length ? `o.status IN (${statuses.map((s) => bind(w, s)).join(', ')})` : '1 = 0');
  }
  dateParamConditions(w, 'o.updated_at', '_lastUpdated', input.params);
  return searchById<OrderDbRow>(deps, input, {
    cursorName: `${kind.type}:_id`,
    select: ORDER_SELECT,
    from: ORDER_FROM,
    idColumn: 'o.id',
    where: w,
    map: async (rows) => rows.map((r) => kind.map(orderRowOf(r))),
  });
}

export const readMedicationRequest = (deps: SearchDeps, clientId: number, id: string) => readOrder(MEDICATION, deps, clientId, id);
export const searchMedicationRequests = (deps: SearchDeps, clientId: number, input: SearchInput) =>
  searchOrders(MEDICATION, deps, clientId, input);
export const readServiceRequest = (deps: SearchDeps, clientId: number, id: string) => readOrder(MEASUREMENT, deps, clientId, id);
export const searchServiceRequests = (deps: SearchDeps, clientId: number, input: SearchInput) =>
  searchOrders(MEASUREMENT, deps, clientId, input);
