import type { Schemas } from '../contract';
import { defineResource, type StatusValue, type Tone } from '../crud/types';
import { formatWhen } from '@vigia/contract/rules/dates';

type Order = Schemas['Order'];

/** 02 §4: 0 grey, 1 primary, 2 yellow, 3 red, 4 (Completada) green. */
const ORDER_TONES: Record<number, Tone> = { 0: 'default', 1: 'processing', 2: 'warning', 3: 'error', 4: 'success' };

/** Status chip: the name, plus the progress while 'En ejecución' (02 §2.5). */
function orderStatus(o: Pick<Order, 'status' | 'status_name' | 'progress'>): StatusValue {
  return { text: o.status === 2 ? `${o.status_name} ${o.progress}%` : o.status_name, tone: ORDER_TONES[o.status] ?? 'default' };
}

/** Status >= 3 (Cancelada, Completada) is view-only (D7). */
const isClosed = (o: Pick<Order, 'status'>) => o.status >= 3;
const detailOf = (o: Order) => `/patients/${o.patient.id}/orders/${o.id}`;

/** 'Gestión de órdenes', /orders (02 §2.6, D7): the client's orders in three tabs on `GET /orders?filter=`. */
export const orders = defineResource({
  name: 'orders',
  schemas: { record: 'Order' },
  writes: 'orders.create',
  labels: {
    list: 'Gestión de órdenes',
    singular: 'orden',
    pageSize: 'Órdenes por página',
    loading: 'Cargando órdenes...',
  },
  tabs: {
    field: 'filter',
    items: [
      { key: '0', label: 'No Gestionadas', filter: '0', empty: 'No hay órdenes por gestionar.' },
      { key: '1', label: 'Programadas', filter: '1', empty: 'No hay órdenes programadas ni en ejecución.' },
      { key: '2', label: 'Cerradas', filter: '2', empty: 'No hay órdenes cerradas.' },
    ],
  },
  pageSizes: [5, 10, 20],
  defaultPageSize: 10,
  defaultSort: { field: 'created_at', order: 'desc' },
  columns: [
    { field: 'patient', label: 'Paciente', value: (o) => o.patient.full_name, sortable: false },
    { field: 'created_at', label: 'Fecha', render: (_v, o) => formatWhen(o.created_at, o.time_zone_patient) },
    { field: 'order_type', label: 'Tipo', render: 'enum' },
    {
      field: 'medicine_name',
      key: 'what',
      label: 'Elemento / Medicamento',
      value: (o) => (o.order_type === 0 ? o.clinical_element_name : o.medicine_name),
      empty: 'Dato Incompleto',
    },
    { field: 'status', label: 'Estado', render: 'status', value: orderStatus },
    { field: 'notify', label: 'Notificar', render: 'boolean', showFrom: 'md' },
  ],
  filters: [{ field: 'type', label: 'Tipo de orden', widget: 'toggle', tabs: ['1', '2'] }],
  actions: {
    extra: [
      { label: 'Gestionar', icon: 'edit', title: 'Gestionar la orden', when: (o) => !isClosed(o), to: detailOf },
      { label: 'Ver', icon: 'view', title: 'Ver la orden', when: isClosed, to: detailOf },
    ],
  },
  // 02 §2.1: an order's detail opens 500 ms after the click.
  detail: { to: detailOf, delayMs: 500 },
});
