import { defineResource, remoteOptions } from '../crud/types';
import { apiRead } from '../providers/calls';
import { stockStatus } from '../pages/stocks/stock-status';

/** Supplies of the chosen type (biological: 'INFLUENZA · VAXIGRIP TETRA'; device search). */
const SUPPLIES_OF_TYPE = remoteOptions({
  read: apiRead('/supplies'),
  params: (values) => (values.type ? { type: values.type, active: true, _end: 100, _sort: 'tradename' } : null),
  toOptions: (body) =>
    (body ?? []).map((s) => ({ value: s.id, label: s.generic_name ? `${s.generic_name} · ${s.tradename}` : s.tradename })),
  dependsOn: 'type',
});

/** Inventario, /inventory (03 §2): stock and batches; 'Ver lote' opens /stocks/:id. Only `admin` writes. */
export const stocks = defineResource({
  name: 'stocks',
  path: '/inventory',
  schemas: { record: 'Stock', create: 'StockInput', update: 'StockUpdate' },
  writes: 'administer',
  labels: {
    list: 'Inventario',
    singular: 'stock',
    create: 'Crear Stock',
    createTitle: 'Crear Stock',
    editTitle: 'Editar',
    pageSize: 'Registros por página',
    empty: 'Aún no hay stock. Cree el primero con «Crear Stock».',
    created: 'Stock creado',
    updated: 'Stock actualizado',
  },
  pageSizes: [10, 20, 50],
  defaultSort: { field: 'expiration_date', order: 'asc' },
  columns: [
    { field: 'serial', label: 'Serial / Referencia' },
    { field: 'type', label: 'Tipo de insumo', render: 'enum' },
    { field: 'medical_supply_name', label: 'Nombre', empty: 'Dato Incompleto' },
    { field: 'expiration_date', label: 'Vencimiento', render: 'date' },
    { field: 'cuantity', label: 'Cantidad (unidades)' },
    { field: 'active', label: 'Estado', render: 'status', value: stockStatus },
  ],
  filters: [
    { field: 'q', label: 'Buscar', widget: 'search', placeholder: 'Buscar por serial' },
    { field: 'type', label: 'Tipo de insumo', placeholder: 'Todos los tipos' },
  ],
  fields: [
    { field: 'batch', label: '¿Agregar Lote?', initial: true, help: 'Un biológico siempre se registra como lote.' },
    { field: 'type', label: 'Tipo de insumo' },
    {
      field: 'medical_supply_id',
      label: 'Insumo (Tipo de Biológico · nombre comercial, o dispositivo)',
      widget: 'remote-select',
      remote: SUPPLIES_OF_TYPE,
      placeholder: 'Busque el insumo',
    },
    { field: 'expiration_date', label: 'Fecha de vencimiento' },
    { field: 'serial', label: 'Serial de lote', placeholder: '16 letras o números', help: 'Si no es un lote, escriba la referencia.' },
    { field: 'cuantity', label: 'Cantidad (unidades)', initial: 0 },
    { field: 'active', label: 'Activo', initial: true },
  ],
  actions: {
    edit: true,
    extra: [{ label: 'Ver lote', icon: 'view', title: 'Ver el lote y sus aplicaciones', to: (s) => `/stocks/${s.id}` }],
  },
  form: 'modal',
});
