import { createElement, lazy } from 'react';
import type { Schemas } from '../contract';
import { defineResource, type StatusValue } from '../crud/types';
import { ClientIdCell, ScopesCell } from '../pages/api_clients/ApiClientCells';
import { apiClientBody, apiClientValues } from '../pages/api_clients/api-client-form';

type ApiClient = Schemas['ApiClient'];

/** The keys, scopes and status controls read the contract, which loads with the form. */
const ApiClientFields = lazy(() => import('../pages/api_clients/ApiClientFields'));

const statusChip = (client: Pick<ApiClient, 'status'>): StatusValue =>
  client.status === 'active' ? { text: 'Activo', tone: 'success' } : { text: 'Suspendido', tone: 'warning' };

/**
 * Clientes de API, /api_clients (issue 37): the systems that read the organisation's data through
 * FHIR with their own keys (SMART Backend Services). Reached from 'Integraciones'; only `admin`
 * reads and writes them, as the API does.
 */
export const apiClients = defineResource({
  name: 'api_clients',
  schemas: { record: 'ApiClient', create: 'ApiClientInput', update: 'ApiClientUpdate' },
  writes: 'administer',
  labels: {
    list: 'Clientes de API',
    singular: 'cliente de API',
    create: 'Registrar cliente',
    createTitle: 'Nuevo cliente de API',
    editTitle: 'Editar cliente de API',
    showTitle: 'Cliente de API',
    pageSize: 'Clientes por página',
    empty: 'Aún no hay clientes de API. Registre el primero con «Registrar cliente».',
    created: 'Cliente de API registrado',
    updated: 'Cliente de API actualizado',
    deleted: 'Cliente de API eliminado',
  },
  pageSizes: [5, 10, 20],
  defaultPageSize: 10,
  defaultSort: { field: 'name', order: 'asc' },
  intro: {
    title: '¿Qué es un cliente de API?',
    text:
      'Es otro sistema (la historia clínica de un hospital, la plataforma de un asegurador, un sistema del ministerio) ' +
      'que lee los datos de esta institución en formato FHIR con sus propias claves, sin usar la contraseña de ninguna persona. ' +
      'Regístrelo con su nombre, sus claves públicas y los datos que puede leer, y entregue al integrador el «Client ID». ' +
      'La «Guía para integradores» (docs/fhir.md) le explica cómo conectarse.',
  },
  columns: [
    { field: 'name', label: 'Nombre' },
    { field: 'client_id', label: 'Client ID', sortable: false, render: (value) => createElement(ClientIdCell, { value: String(value) }) },
    {
      field: 'scopes',
      label: 'Datos que puede leer',
      sortable: false,
      render: (value) => createElement(ScopesCell, { value: value as string[] }),
    },
    { field: 'status', label: 'Estado', render: 'status', value: statusChip },
    { field: 'last_token_at', label: 'Último token', render: 'datetime', empty: 'Nunca' },
    { field: 'created_at', label: 'Registrado', render: 'datetime', showFrom: 'lg' },
  ],
  // On a phone a card per client, titled with its name, the Client ID whole under it (issue 50).
  phoneCards: { title: 'name' },
  filters: [
    { field: 'q', label: 'Buscar', widget: 'search', placeholder: 'Buscar por nombre o Client ID' },
    { field: 'status', label: 'Estado', placeholder: 'Todos los estados' },
  ],
  fields: [{ field: 'name', label: 'Nombre del sistema', placeholder: 'Ej.: Historia clínica Hospital Central' }],
  customFields: { Fields: ApiClientFields, toBody: apiClientBody, toValues: apiClientValues },
  actions: { edit: true, delete: true },
  deleteDialog: (client) => ({
    title: '¿Eliminar el cliente de API?',
    okText: 'Eliminar cliente',
    busyText: 'Eliminando...',
    content:
      `«${client.name}» pierde el acceso a la API de inmediato: no podrá pedir más tokens y los que tiene dejan de valer. ` +
      'Para devolverle el acceso habrá que registrarlo de nuevo, con otro Client ID. Para pausarlo, márquelo «Suspendido» al editarlo.',
  }),
  form: 'modal',
});
