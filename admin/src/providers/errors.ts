import type { HttpError, ValidationErrors } from '@refinedev/core';
import type { ApiError } from '../contract';

const NETWORK_ERROR_MESSAGE = 'No fue posible comunicarse con el servidor. Verifique su conexión e intente de nuevo.';
export const UNKNOWN_ERROR_MESSAGE = 'Ocurrió un error inesperado. Intente de nuevo.';
/** A write tried without network (issue 50): refused at once, and what was typed stays in the form. */
export const OFFLINE_WRITE_MESSAGE = 'Sin conexión: no se guardó. Lo que escribió se conserva; vuelva a intentarlo cuando tenga conexión.';

/** Refine's HttpError, plus the API's stable `code`. */
export type VigiaHttpError = HttpError & { code?: string };

/** `errors: [{field, message}]` → Refine's field map, which useForm puts under each field. */
function toValidationErrors(body: Partial<ApiError> | undefined): ValidationErrors | undefined {
  const list = body?.errors;
  if (!Array.isArray(list) || list.length === 0) {
    return body?.field && body.message ? { [body.field]: body.message } : undefined;
  }
  const map: Record<string, string[]> = {};
  for (const { field, message } of list) {
    if (!field) continue;
    (map[field] ??= []).push(message);
  }
  return Object.keys(map).length ? map : undefined;
}

/** An error answer (status and parsed body) as Refine's HttpError with the server's Spanish message. */
export function fromResponse(status: number, body: unknown): VigiaHttpError {
  const error = (typeof body === 'object' && body !== null ? body : {}) as Partial<ApiError>;
  const message = (typeof error.message === 'string' && error.message) || (status === 0 ? NETWORK_ERROR_MESSAGE : UNKNOWN_ERROR_MESSAGE);
  return { message, statusCode: status, code: error.code, errors: toValidationErrors(error) };
}

export function isHttpError(error: unknown): error is VigiaHttpError {
  return (
    typeof error === 'object' &&
    error !== null &&
    typeof (error as VigiaHttpError).statusCode === 'number' &&
    typeof (error as VigiaHttpError).message === 'string'
  );
}

/**
 * A failed save's per-field messages (a 400's `errors`) for an antd form's setFields; with `fields`,
 * only those of the form's own fields. Empty when there are none.
 */
export function fieldErrors<V = Record<string, unknown>, F extends keyof V & string = keyof V & string>(
  error: unknown,
  fields?: readonly F[],
): { name: F; errors: string[] }[] {
  const map = isHttpError(error) ? error.errors : undefined;
  if (!map) return [];
  return Object.entries(map)
    .filter(([name]) => !fields || (fields as readonly string[]).includes(name))
    .map(([name, value]) => ({
      name: name as F,
      errors: Array.isArray(value)
        ? value.map(String)
        : typeof value === 'string'
          ? [value]
          : [String((value as { key?: string } | undefined)?.key ?? '')],
    }));
}
