import type { OpenNotificationParams } from '@refinedev/core';
import { fieldErrors } from './errors';

/**
 * The one notification path of the app: every hook's `errorNotification` / `successNotification`
 * comes from here, and the notification provider shows it (4 s, top right, 03 §2).
 */

/** What a failed call says when the server sent no message of its own. */
const FALLBACK_ERROR = 'No fue posible completar la operación';

/** The server's Spanish message of a failed call (the data provider's HttpError carries it, 03 §2), or `fallback`. */
function messageOf(error: unknown, fallback: string): string {
  const message = (error as { message?: unknown } | null | undefined)?.message;
  return typeof message === 'string' && message ? message : fallback;
}

/** A hook's `errorNotification`: the server's message, or `fallback` when there is none. */
export function serverError(fallback = FALLBACK_ERROR) {
  return (error?: unknown): OpenNotificationParams => ({ type: 'error', message: messageOf(error, fallback) });
}

/** Same, except network failures (status 0): the page says so in place instead. */
export function serverErrorOnline(fallback = FALLBACK_ERROR) {
  return (error?: unknown): OpenNotificationParams | false =>
    (error as { statusCode?: unknown } | null | undefined)?.statusCode === 0 ? false : serverError(fallback)(error);
}

/** A failed read of a hand-built screen. */
export const loadFailed = serverError('No fue posible cargar la información');

/** Same, except a 404: the screen says in place that the record does not exist. */
export function loadFailedUnlessMissing(error?: { statusCode?: number } | null): OpenNotificationParams | false {
  return error?.statusCode === 404 ? false : loadFailed(error);
}

/** Error notification of a form: none when the error belongs under one of the form's `fields`. */
export function formError(fallback: string, fields: readonly string[]) {
  return (error?: unknown): OpenNotificationParams | false => (fieldErrors(error, fields).length ? false : serverError(fallback)(error));
}

/** For reads whose failure is only logged (01 §8, 02 §8): no notification. */
export function logOnly(label: string) {
  return (error?: unknown): false => {
    console.error(`[vigia] ${label}`, error);
    return false;
  };
}

/** A hook's `successNotification` with a fixed text. */
export function success(message: string, description?: string) {
  return (): OpenNotificationParams => ({ type: 'success', message, description });
}

/** A hook's `successNotification` with the server's own text (`notification.message` or `message`), else `fallback`. */
export function serverSuccess(fallback: string) {
  return (response?: { data?: unknown }): OpenNotificationParams => {
    const data = response?.data as { notification?: { message?: string }; message?: string } | undefined;
    return { type: 'success', message: data?.notification?.message || data?.message || fallback };
  };
}
