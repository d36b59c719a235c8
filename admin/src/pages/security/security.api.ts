import { useApiMutation, type AnswerOf, type ApiWrite, type PathWith, type WriteMethod } from '../../providers/calls';
import { loadFailed } from '../../providers/notices';
import { readSession } from '../../session';

/**
 * A write of 'Seguridad' through Refine's data provider, awaited: the dialogs show the API's
 * Spanish refusal under their own field (a wrong code) instead of a notification.
 */
export function useFactorWrite() {
  const { mutateAsync } = useApiMutation();
  return async <M extends WriteMethod, P extends PathWith<M>>(write: ApiWrite<M, P>): Promise<AnswerOf<P, M>> => {
    const { data } = await mutateAsync<M, P>({ ...write, successNotification: false, errorNotification: false });
    return data;
  };
}

/**
 * A failed load of 'Seguridad', told only while signed in: on 'Cerrar sesión' the page's query
 * refetched without a token and its 401 showed 'Su sesión no es válida…' over the login.
 */
export const loadFailedSignedIn = (error?: unknown) => (readSession() ? loadFailed(error) : false);
