import axios, { AxiosError } from 'axios';
import type { HttpError, ValidationErrors } from '@refinedev/core';
import type { ApiError } from '../contract';
import { readToken } from '../session';

export const NETWORK_ERROR_MESSAGE =
  'No fue posible comunicarse con el servidor. Verifique su conexión e intente de nuevo.';
export const UNKNOWN_ERROR_MESSAGE = 'Ocurrió un error inesperado. Intente de nuevo.';

/** Refine's HttpError, plus the API's stable `code`. */
export type VigiaHttpError = HttpError & { code?: string };

/** `errors: [{field, message}]` → Refine's field map, which useForm puts under each field. */
export function toValidationErrors(body: Partial<ApiError> | undefined): ValidationErrors | undefined {
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

function isHttpError(error: unknown): error is VigiaHttpError {
  return (
    typeof error === 'object' &&
    error !== null &&
    !(error instanceof AxiosError) &&
    typeof (error as VigiaHttpError).statusCode === 'number' &&
    typeof (error as VigiaHttpError).message === 'string'
  );
}

/** Any failed call becomes an HttpError whose message is the server's Spanish text. */
export function toHttpError(error: unknown): VigiaHttpError {
  if (isHttpError(error)) return error;
  if (error instanceof AxiosError) {
    const status = error.response?.status ?? 0;
    const body = error.response?.data as Partial<ApiError> | undefined;
    const message =
      (body && typeof body.message === 'string' && body.message) ||
      (status === 0 ? NETWORK_ERROR_MESSAGE : UNKNOWN_ERROR_MESSAGE);
    return { message, statusCode: status, code: body?.code, errors: toValidationErrors(body) };
  }
  const message = error instanceof Error && error.message ? error.message : UNKNOWN_ERROR_MESSAGE;
  return { message, statusCode: 0 };
}

/** The one HTTP client of the admin app: bearer token in, HttpError out. */
export const http = axios.create({ headers: { Accept: 'application/json' } });

http.interceptors.request.use((config) => {
  const token = readToken();
  if (token) config.headers.set('Authorization', `Bearer ${token}`);
  return config;
});

http.interceptors.response.use(
  (response) => response,
  (error) => Promise.reject(toHttpError(error)),
);
