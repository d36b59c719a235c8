import type { Schemas } from '../contract';
import { defineResource, remoteOptions } from '../crud/types';
import { apiRead } from '../providers/calls';
import { validatePassword, validatePasswordConfirmation } from '@vigia/contract/rules/validation';
import { roleAccess } from '../providers/access';
import { authProvider } from '../providers/auth';
import { notify } from '../providers/notification';
import { readSession } from '../session';

type User = Schemas['User'];

const isBlank = (v: unknown) => v === undefined || v === null || String(v) === '';

/** A listing (`{data: {id: label}}`) as options with numeric values. */
const listingOptions = (body: Schemas['Listing']) =>
  Object.entries(body?.data ?? {})
    .map(([value, label]) => ({ value: Number(value), label }))
    .sort((a, b) => a.label.localeCompare(b.label, 'es'));

const COUNTRIES = remoteOptions({
  read: apiRead('/listings/{list_name}', { params: { list_name: 'countries' } }),
  toOptions: listingOptions,
});
/** Cities of the chosen country; changing the country clears the city (03 §5). */
const CITIES = remoteOptions({
  read: apiRead('/listings/{list_name}', { params: { list_name: 'cities' } }),
  params: (values) => (values.country_id ? { country_id: values.country_id } : null),
  toOptions: listingOptions,
  dependsOn: 'country_id',
});

/**
 * A listing of the RDA's code lists (`{data: {code: name}}`): the code is the value the API stores.
 * RETHUS names some professions twice (003 and P07 'Medicina'): those carry their code to tell them apart.
 */
export function codeOptions(body: Schemas['Listing']) {
  const entries = Object.entries(body?.data ?? {});
  const seen = new Map<string, number>();
  for (const [, name] of entries) seen.set(name, (seen.get(name) ?? 0) + 1);
  return entries
    .map(([value, name]) => ({ value, label: (seen.get(name) ?? 0) > 1 ? `${name} (código ${value})` : name }))
    .sort((a, b) => a.label.localeCompare(b.label, 'es'));
}

/** Document types of the user's country (the RDA's PractitionerRDA identifier). */
const ID_TYPES = remoteOptions({
  read: apiRead('/listings/{list_name}', { params: { list_name: 'id_types' } }),
  params: (values) => (values.country_id ? { country_id: values.country_id } : null),
  toOptions: listingOptions,
  dependsOn: 'country_id',
});
/** RETHUS professions (289 codes of the guide's RETHUSqualification), searched by name. */
const PROFESSIONS = remoteOptions({
  read: apiRead('/listings/{list_name}', { params: { list_name: 'professions' } }),
  toOptions: codeOptions,
});

/** 03 §4 and §9: the own city changed, so the session ends 10 seconds later to pick up the new time zone. */
const OWN_CITY_LOGOUT_MS = 10_000;
function afterSave(action: 'create' | 'edit', record: Record<string, unknown>) {
  const saved = record as Partial<Schemas['UserUpdated']>;
  if (action !== 'edit' || !saved.relogin_required || !saved.notification) return;
  notify.success(saved.notification.message);
  window.setTimeout(async () => {
    await authProvider.logout();
    window.location.assign('/');
  }, OWN_CITY_LOGOUT_MS);
}

/** Usuarios, /users (03 §2): one dialog creates and edits; only `admin` writes (D13). */
export const users = defineResource({
  name: 'users',
  schemas: { record: 'User', create: 'UserInput', update: 'UserUpdate' },
  writes: 'administer',
  labels: {
    list: 'Usuarios',
    singular: 'usuario',
    create: 'Crear usuario',
    createTitle: 'Nuevo usuario',
    editTitle: 'Editar usuario',
    pageSize: 'Usuarios por página',
    empty: 'Aún no hay usuarios.',
    created: 'Usuario creado',
    updated: 'Usuario actualizado',
  },
  pageSizes: [5, 10, 20],
  defaultPageSize: 10,
  defaultSort: { field: 'last_name', order: 'asc' },
  columns: [
    { field: 'last_name', label: 'Apellidos' },
    { field: 'first_name', label: 'Nombres' },
    {
      field: 'status',
      label: 'Estado',
      render: 'status',
      value: (u: User) => (u.status === 0 ? { text: 'Activo', tone: 'success' } : { text: 'Inactivo', tone: 'default' }),
    },
    { field: 'role_name', label: 'Rol', render: 'enum' },
    { field: 'email', label: 'Email' },
    {
      field: 'cellphone',
      label: 'Teléfono (Whatsapp)',
      value: (u: User) => (u.cellphone ? `${u.prefix ?? ''} ${u.cellphone}`.trim() : null),
      empty: 'Dato Incompleto',
    },
  ],
  filters: [
    { field: 'q', label: 'Buscar', widget: 'search', placeholder: 'Buscar por nombre o correo' },
    { field: 'role_name', label: 'Rol', placeholder: 'Todos los roles' },
    { field: 'status', label: 'Estado', placeholder: 'Todos los estados' },
  ],
  fields: [
    { field: 'first_name', label: 'Nombres' },
    { field: 'last_name', label: 'Apellidos' },
    { field: 'email', label: 'Correo electrónico' },
    {
      field: 'password',
      label: 'Contraseña',
      widget: 'password',
      help: 'Mínimo 8 caracteres, con mayúscula, minúscula, número y uno de @$!%*?&.',
      check: (v) => (isBlank(v) ? null : validatePassword(String(v))),
    },
    {
      field: 'password_confirmation',
      label: 'Confirmar contraseña',
      widget: 'password',
      dependencies: ['password'],
      check: (v, values) =>
        isBlank(v) && isBlank(values.password) ? null : validatePasswordConfirmation(values.password as string, v as string),
    },
    { field: 'prefix', label: 'Prefijo', initial: '+57', placeholder: '+57' },
    { field: 'cellphone', label: 'Teléfono (Whatsapp)', placeholder: 'Ej.: 3001234567' },
    { field: 'country_id', label: 'País', widget: 'remote-select', remote: COUNTRIES, initial: 26 },
    { field: 'city_id', label: 'Ciudad', widget: 'remote-select', remote: CITIES, placeholder: 'Busque la ciudad' },
    { field: 'role_name', label: 'Rol' },
    { field: 'status', label: 'Estado', only: 'edit' },
    // Issue 51: the practitioner of an RDA (PractitionerRDA): document, profession and RETHUS registration.
    { field: 'id_type', label: 'Tipo de documento', widget: 'remote-select', remote: ID_TYPES },
    { field: 'nid', label: 'Número de documento', placeholder: 'Sin puntos ni espacios' },
    {
      field: 'profession',
      label: 'Profesión (RETHUS)',
      widget: 'remote-select',
      remote: PROFESSIONS,
      placeholder: 'Escriba para buscar la profesión',
    },
    { field: 'rethus_number', label: 'Número de registro RETHUS', placeholder: 'Tarjeta o registro profesional' },
    { field: 'media_email', label: 'Notificar por correo electrónico', initial: true },
    { field: 'media_whatsapp', label: 'Notificar por WhatsApp', initial: false },
    { field: 'priority_high', label: 'Alertas de prioridad alta', initial: true },
    { field: 'priority_medium', label: 'Alertas de prioridad media', initial: true },
    { field: 'priority_low', label: 'Alertas de prioridad baja', initial: false },
  ],
  actions: {
    edit: true,
    // Issue 38: a lost phone, a person who left (the API lets only `admin` do it).
    extra: [
      { label: 'Sesiones', icon: 'settings', title: 'Cerrar todas las sesiones', to: (u) => `/users/${u.id}/sessions` },
      // Issue 38: a lost phone. The API's own rule: administrators only, never on oneself.
      {
        label: 'Segundo factor',
        icon: 'settings',
        title: 'Restablecer segundo factor',
        to: (u) => `/users/${u.id}/factors`,
        when: (u) => roleAccess('administer').allowed && u.id !== readSession()?.user_id,
      },
    ],
  },
  onSaved: afterSave,
  form: 'modal',
});
