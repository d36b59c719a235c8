import type { OpenNotificationParams } from '@refinedev/core';

/** What a failed call says when the server sent no message of its own. */
export const FALLBACK_ERROR = 'No fue posible completar la operación';

/**
 * The one error path of the app: a hook's `errorNotification` shows the server's Spanish message
 * (the data provider's HttpError carries it, 03 §2), or `fallback` when there is none.
 */
export function serverError(fallback = FALLBACK_ERROR) {
  return (error?: unknown): OpenNotificationParams => {
    const message = (error as { message?: unknown } | undefined)?.message;
    return { type: 'error', message: typeof message === 'string' && message ? message : fallback };
  };
}

/** A failed read of a hand-built screen. */
export const loadFailed = serverError('No fue posible cargar la información');

/** A hook's `successNotification` with a fixed text. */
export function success(message: string, description?: string) {
  return (): OpenNotificationParams => ({ type: 'success', message, description });
}
