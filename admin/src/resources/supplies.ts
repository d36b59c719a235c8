import type { Schemas } from '../contract';
import { defineResource } from '../crud/types';

type Supply = Schemas['Supply'];

/** Suministros, /supplies (03 §2): biológicos, dispositivos and other supplies; only `admin` writes. */
export const supplies = defineResource({
  name: 'supplies',
  schemas: { record: 'Supply', create: 'SupplyInput', update: 'SupplyUpdate' },
  writes: 'administer',
  labels: {
    list: 'Suministros',
    singular: 'insumo',
    create: 'Crear Insumo',
    createTitle: 'Crear Insumo',
    editTitle: 'Editar insumo',
    pageSize: 'Insumos por página',
    empty: 'Aún no hay insumos. Cree el primero con «Crear Insumo».',
    created: 'Insumo creado',
    updated: 'Insumo actualizado',
  },
  pageSizes: [10, 20, 50],
  defaultSort: { field: 'tradename', order: 'asc' },
  columns: [
    { field: 'tradename', label: 'Nombre comercial' },
    { field: 'type', label: 'Tipo de insumo', render: 'enum' },
    { field: 'generic_name', label: 'Tipo de Biológico / genérico', empty: 'Dato Incompleto' },
    { field: 'invima_register', label: 'Registro INVIMA', empty: 'Dato Incompleto', showFrom: 'md' },
    { field: 'date_register', label: 'Fecha de registro', render: 'date', empty: 'Dato Incompleto', showFrom: 'lg' },
    {
      field: 'active',
      label: 'Estado',
      render: 'status',
      value: (s: Supply) => (s.active ? { text: 'Activo', tone: 'success' } : { text: 'Inactivo', tone: 'default' }),
    },
  ],
  filters: [
    { field: 'q', label: 'Buscar', widget: 'search', placeholder: 'Buscar por nombre' },
    { field: 'type', label: 'Tipo de insumo', placeholder: 'Todos los tipos' },
  ],
  fields: [
    { field: 'type', label: 'Tipo de insumo' },
    { field: 'tradename', label: 'Nombre comercial', placeholder: 'Ej.: Vaxigrip Tetra' },
    {
      field: 'generic_name',
      label: 'Tipo de Biológico / nombre genérico',
      placeholder: 'Ej.: Influenza',
      help: 'Obligatorio para los biológicos: agrupa las marcas de una misma vacuna.',
    },
    { field: 'invima_register', label: 'Registro INVIMA' },
    { field: 'date_register', label: 'Fecha de registro' },
    { field: 'active', label: 'Activo', initial: true },
  ],
  actions: { edit: true },
  form: 'modal',
});
