import { useCustomMutation } from '@refinedev/core';
import { apiUrl } from '../../providers/data';
import { loadFailed } from '../../providers/notices';
import { readSession } from '../../session';

/**
 * A write of 'Seguridad' through Refine's data provider, awaited: the dialogs show the API's
 * Spanish refusal under their own field (a wrong code) instead of a notification.
 */
export function useFactorWrite() {
  const { mutateAsync } = useCustomMutation();
  return async <T>(method: 'post' | 'patch' | 'delete', path: string, values: object = {}): Promise<T> => {
    const { data } = await mutateAsync({
      url: apiUrl(path),
      method,
      values,
      successNotification: false,
      errorNotification: false,
    });
    return data as T;
  };
}

/**
 * A failed load of 'Seguridad', told only while signed in: on 'Cerrar sesión' the page's query
 * refetched without a token and its 401 showed 'Su sesión no es válida…' over the login.
 */
export const loadFailedSignedIn = (error?: unknown) => (readSession() ? loadFailed(error) : false);
