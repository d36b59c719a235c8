import { createElement } from 'react';
import type { Schemas } from '../contract';
import { defineResource, type StatusValue } from '../crud/types';
import { PRIORITY_NAMES, RANGE_MESSAGE, validateRange } from '@vigia/contract/rules/alarms';
import { AlarmDeleteContent } from '../pages/alerts/AlarmDeleteContent';

type Alarm = Schemas['Alarm'];

/** 02 §9: 1 Alta (error), 2 Media (warning), 3 Baja (primary). */
function priorityChip(alarm: Pick<Alarm, 'priority'>): StatusValue {
  const tone = ({ 1: 'error', 2: 'warning', 3: 'processing' } as const)[alarm.priority];
  return { text: PRIORITY_NAMES[alarm.priority] ?? '', tone };
}

const checkRange = (_value: unknown, values: Record<string, unknown>) =>
  validateRange(values.minimum_condition as number | undefined, values.maximum_condition as number | undefined);

/** Alarm rules, 'Alertas' at /alerts (02 §2.10). */
export const alarms = defineResource({
  name: 'alarms',
  path: '/alerts',
  schemas: { record: 'Alarm', create: 'AlarmInput', update: 'AlarmUpdate' },
  writes: 'administer',
  labels: {
    list: 'Alertas',
    singular: 'alerta',
    create: 'Configurar alerta',
    createTitle: 'Configurar alerta',
    editTitle: 'Editar Alerta',
    pageSize: 'Alertas por página',
    empty: 'No hay alertas disponibles. Cree su primera alerta para comenzar',
    loading: 'Cargando alertas...',
    created: 'Alerta creada',
    updated: 'Alerta actualizada',
    deleted: 'Alerta eliminada',
  },
  pageSizes: [5, 10, 20],
  defaultPageSize: 10,
  defaultSort: { field: 'name', order: 'asc' },
  rowClick: 'edit',
  columns: [
    { field: 'name', label: 'Nombre' },
    { field: 'clinical_element_name', label: 'Elemento Clínico', sortable: false },
    {
      field: 'minimum_condition',
      key: 'range',
      label: 'Rango',
      sortable: false,
      value: (a) => `${a.minimum_condition} - ${a.maximum_condition} ${a.clinical_element_unit}`,
    },
    { field: 'priority', label: 'Prioridad', render: 'status', value: priorityChip },
    { field: 'patients_count', label: 'Pacientes', sortable: false },
    { field: 'alarm_default_new_patients', label: 'Asignada a pacientes nuevos', render: 'boolean', sortable: false },
    { field: 'request_repeat_measurement', label: 'Repetir medición', render: 'boolean', sortable: false, showFrom: 'lg' },
    { field: 'ia_alarm', label: 'Notificar a Paciente', render: 'boolean', sortable: false, showFrom: 'lg' },
    { field: 'ia_script', label: 'Plantilla de notificación', empty: '—', sortable: false, showFrom: 'lg' },
  ],
  fields: [
    { field: 'type', label: 'Tipo', widget: 'select', initial: 1 },
    { field: 'name', label: 'Nombre', placeholder: 'Ej.: Taquicardia' },
    { field: 'clinical_element', label: 'Elemento clínico', widget: 'select', exclude: [0] },
    { field: 'priority', label: 'Prioridad', widget: 'select' },
    { field: 'minimum_condition', label: 'Valor mínimo', help: RANGE_MESSAGE, check: checkRange, dependencies: ['maximum_condition'] },
    { field: 'maximum_condition', label: 'Valor máximo', check: checkRange, dependencies: ['minimum_condition'] },
    { field: 'alarm_default_new_patients', label: 'Asignar a pacientes nuevos', widget: 'switch', initial: false },
    { field: 'request_repeat_measurement', label: 'Solicitar repetir medición', widget: 'switch', disabled: true, initial: false },
    { field: 'ia_alarm', label: 'Notificar al paciente con IA', widget: 'switch', initial: false },
    { field: 'ia_script', label: 'Plantilla de notificación', enabledBy: 'ia_alarm', placeholder: 'alarma_predeterminada' },
    { field: 'prompt_ia', label: 'Instrucción para la IA', widget: 'textarea', enabledBy: 'ia_alarm' },
  ],
  actions: { edit: true, delete: true },
  deleteDialog: (alarm) => ({
    title: 'Confirmar eliminación',
    okText: 'Eliminar Alerta',
    busyText: 'Eliminando...',
    content: createElement(AlarmDeleteContent, { alarm }),
  }),
  form: 'modal',
});
