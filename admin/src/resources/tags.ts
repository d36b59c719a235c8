import type { Schemas } from '../contract';
import { defineResource, type StatusValue } from '../crud/types';

type Tag = Schemas['Tag'];

/** Estado IA (02 §2.11): Activo when the active prompt has status 1, Inactivo for any other status. */
function aiStatus(tag: Pick<Tag, 'active_prompt'>): StatusValue {
  if (!tag.active_prompt) return { text: 'Sin instrucción', tone: 'default' };
  return tag.active_prompt.status === 1 ? { text: 'Activo', tone: 'success' } : { text: 'Inactivo', tone: 'warning' };
}

/** Etiquetas, /tags (02 §2.11). */
export const tags = defineResource({
  name: 'tags',
  schemas: { record: 'Tag', create: 'TagInput', update: 'TagUpdate' },
  writes: 'administer',
  labels: {
    list: 'Etiquetas',
    singular: 'etiqueta',
    create: 'Crear etiqueta',
    createTitle: 'Nueva etiqueta',
    editTitle: 'Editar etiqueta',
    showTitle: 'Etiqueta',
    pageSize: 'Etiquetas por página',
    empty: 'Aún no hay etiquetas. Cree la primera con «Crear etiqueta».',
    created: 'Etiqueta creada',
    updated: 'Etiqueta actualizada',
    deleted: 'Etiqueta eliminada',
    deleteConfirm: (tag) =>
      tag.patients_count > 0
        ? `¿Eliminar la etiqueta «${tag.name}»? Se quitará de ${tag.patients_count} paciente(s).`
        : `¿Eliminar la etiqueta «${tag.name}»?`,
  },
  pageSizes: [5, 10, 20],
  defaultPageSize: 10,
  defaultSort: { field: 'name', order: 'asc' },
  intro: {
    title: 'Gestión de etiquetas',
    text:
      'Las etiquetas agrupan pacientes (por ejemplo «Diabetes» o «Postoperatorio») para encontrarlos y darles seguimiento. ' +
      'De forma opcional, cada etiqueta puede tener instrucciones para Glady IA, el asistente que conversa con los pacientes: ' +
      'se configuran con el botón «Glady IA» de cada fila.',
  },
  columns: [
    { field: 'name', label: 'Nombre', render: 'chip-color' },
    { field: 'active_prompt', key: 'ai_status', label: 'Estado IA', render: 'status', value: aiStatus, sortable: false },
    {
      field: 'active_prompt',
      key: 'instruction',
      label: 'Instrucción',
      render: 'truncate:50',
      value: (tag) => tag.active_prompt?.text,
      empty: 'Sin instrucción',
      showFrom: 'lg',
    },
  ],
  filters: [
    { field: 'q', label: 'Buscar', widget: 'search', placeholder: 'Buscar etiqueta por nombre' },
    { field: 'color', label: 'Color', widget: 'color-select', placeholder: 'Todos los colores' },
  ],
  fields: [
    { field: 'name', label: 'Nombre', placeholder: 'Ej.: Diabetes' },
    { field: 'color', label: 'Color', widget: 'color-swatch' },
  ],
  actions: {
    edit: true,
    delete: true,
    extra: [
      { label: 'Glady IA', icon: 'ai', title: 'Instrucciones de Glady IA para esta etiqueta', to: (tag) => `/tags/${tag.id}/prompts` },
    ],
  },
  form: 'modal',
});
