import type { AnyResource } from './types';
import { serverError, success } from '../providers/notices';

/** The server's Spanish message is the notification (a 403 reads e.g. 'Solo un administrador...'). */
export const serverErrorNotification = serverError();

export function crudNotifications(resource: AnyResource, action: 'create' | 'edit' | 'delete') {
  const text = {
    create: resource.labels.created ?? 'Registro creado correctamente',
    edit: resource.labels.updated ?? 'Cambios guardados correctamente',
    delete: resource.labels.deleted ?? 'Registro eliminado correctamente',
  }[action];
  return {
    successNotification: success(text),
    errorNotification: (error?: unknown) => serverErrorNotification(error),
  };
}
