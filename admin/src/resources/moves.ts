import { defineResource, remoteOptions } from '../crud/types';
import { apiRead } from '../providers/calls';

/** Active batches with what they hold, to choose the batch of a move. */
const ACTIVE_STOCKS = remoteOptions({
  read: apiRead('/stocks'),
  params: () => ({ active: true, _end: 100, _sort: 'serial' }),
  toOptions: (body) =>
    (body ?? []).map((s) => ({
      value: s.id,
      label: `${s.serial} · ${s.medical_supply_name ?? s.type_name} · ${s.cuantity} und.`,
    })),
});

/** Movimientos, /moves (03 §2): filters by dates, serial and type; a move never leaves a batch negative. */
export const moves = defineResource({
  name: 'moves',
  schemas: { record: 'Move', create: 'MoveInput' },
  // A ledger: listed and created, never read one by one (the contract has no GET /moves/{id}).
  readOne: false,
  writes: 'administer',
  labels: {
    list: 'Movimientos',
    singular: 'movimiento',
    create: 'Crear Movimiento',
    createTitle: 'Crear Movimiento',
    pageSize: 'Movimientos por página',
    empty: 'Aún no hay movimientos.',
    created: 'Movimiento registrado',
  },
  pageSizes: [10, 20, 50],
  defaultSort: { field: 'created_at', order: 'desc' },
  columns: [
    { field: 'created_at', label: 'Fecha', render: 'datetime' },
    { field: 'serial', label: 'Lote' },
    { field: 'type', label: 'Tipo', render: 'enum' },
    { field: 'amount', label: 'Cantidad (unidades)' },
    { field: 'author_name', label: 'Responsable', empty: '—' },
    { field: 'notes', label: 'Notas', render: 'truncate:60', empty: '—', showFrom: 'md' },
  ],
  filters: [
    { field: 'date1', label: 'Desde', widget: 'date' },
    { field: 'date2', label: 'Hasta', widget: 'date' },
    { field: 'serial', label: 'Serial', widget: 'text', placeholder: 'Serial del lote' },
    { field: 'type', label: 'Tipo', placeholder: 'Todos los tipos' },
  ],
  fields: [
    { field: 'type', label: 'Tipo de movimiento' },
    { field: 'stock_id', label: 'Lote', widget: 'remote-select', remote: ACTIVE_STOCKS, placeholder: 'Busque el lote por serial' },
    { field: 'amount', label: 'Cantidad (unidades)' },
    { field: 'notes', label: 'Notas' },
  ],
  actions: { extra: [{ label: 'ver lote', icon: 'view', title: 'Ver el lote', to: (m) => `/stocks/${m.stock_id}` }] },
  form: 'modal',
});
