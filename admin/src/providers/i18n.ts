import type { I18nProvider } from '@refinedev/core';

/**
 * Spanish for Refine's built-in texts (buttons, confirmations, notifications, pages). antd's own
 * texts (pagination, date pickers, empty tables) come from its `es_ES` locale.
 */
const ES: Record<string, string> = {
  'buttons.create': 'Crear',
  'buttons.save': 'Guardar',
  'buttons.logout': 'Cerrar sesión',
  'buttons.delete': 'Eliminar',
  'buttons.edit': 'Editar',
  'buttons.cancel': 'Cancelar',
  'buttons.confirm': '¿Está seguro?',
  'buttons.filter': 'Filtrar',
  'buttons.clear': 'Limpiar',
  'buttons.refresh': 'Actualizar',
  'buttons.show': 'Ver',
  'buttons.undo': 'Deshacer',
  'buttons.import': 'Importar',
  'buttons.clone': 'Duplicar',
  'buttons.export': 'Exportar',
  'buttons.list': 'Listado',
  'buttons.notAccessTitle': 'No tiene permiso para esta acción',

  'actions.list': 'Listado',
  'actions.create': 'Crear',
  'actions.edit': 'Editar',
  'actions.show': 'Ver',
  'actions.clone': 'Duplicar',

  'table.actions': 'Acciones',

  warnWhenUnsavedChanges: 'Hay cambios sin guardar. ¿Desea salir de todos modos?',

  'notifications.success': 'Operación exitosa',
  'notifications.error': 'Error (código {{statusCode}})',
  'notifications.undoable': 'Tiene {{seconds}} segundos para deshacer',
  'notifications.createSuccess': 'Registro creado correctamente',
  'notifications.createError': 'No fue posible crear el registro',
  'notifications.editSuccess': 'Cambios guardados correctamente',
  'notifications.editError': 'No fue posible guardar los cambios',
  'notifications.deleteSuccess': 'Registro eliminado correctamente',
  'notifications.deleteError': 'No fue posible eliminar el registro',

  'pages.error.404': 'Página no encontrada',
  'pages.error.backHome': 'Ir al inicio',
  'pages.error.info': 'No hay ninguna acción disponible para esta página.',

  'pages.login.title': 'Inicie sesión en su cuenta',
  'pages.login.signin': 'Iniciar sesión',
  'pages.login.fields.email': 'Correo electrónico',
  'pages.login.fields.password': 'Contraseña',
  'pages.login.errors.requiredEmail': '¡El campo es requerido!',
  'pages.login.errors.validEmail': '¡El formato de correo no es válido!',
  'pages.login.errors.requiredPassword': 'Contraseña requerida',

  loading: 'Cargando...',
  'autoSave.success': 'guardado',
  'autoSave.error': 'error al guardar',
  'autoSave.loading': 'guardando...',
  'autoSave.idle': 'esperando cambios',
};

/** Resource names Refine interpolates into its messages (`tags.tags` → 'etiqueta'). */
const resourceNames: Record<string, string> = {};

export function registerResourceName(resource: string, singular: string): void {
  resourceNames[`${resource}.${resource}`] = singular;
}

function interpolate(text: string, options?: Record<string, unknown>): string {
  if (!options) return text;
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (match, name: string) => (options[name] === undefined ? match : String(options[name])));
}

function translate(key: string, options?: unknown, defaultMessage?: string): string {
  // Refine calls both translate(key, default) and translate(key, options, default).
  const [params, fallback] = typeof options === 'string' ? [undefined, options] : [options as Record<string, unknown>, defaultMessage];
  const text = ES[key] ?? resourceNames[key] ?? fallback ?? key;
  return interpolate(text, params);
}

export const i18nProvider: I18nProvider = {
  translate,
  changeLocale: () => Promise.resolve(),
  getLocale: () => 'es',
};
