import { useCallback } from 'react';
import { keys, useDataProvider, useInvalidate, type CrudFilter, type HttpError, type OpenNotificationParams } from '@refinedev/core';
import { useQueryClient, type Query } from '@tanstack/react-query';
import { API_URL } from '../../../constants';

/**
 * The few pieces every page of the patient record, orders and charts shares around Refine's data
 * hooks: absolute URLs for `useCustom`/`useCustomMutation`, the one error-notification path (the
 * server's Spanish `message`, through the notification provider) and invalidation by API path.
 */

export type QueryParams = Record<string, string | number | boolean | null | undefined>;

/** Absolute URL of an API path (`/patients/7/orders`), as Refine's custom calls want it. */
export const apiUrl = (path: string) => `${API_URL}${path}`;

/** Query parameters without the empty ones: the API reads `x=` as a value. */
export function cleanQuery(params: QueryParams): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const [key, value] of Object.entries(params)) if (value !== undefined && value !== null && value !== '') out[key] = value;
  return out;
}

/** Error notification of a read or write: the server's message, `fallback` when it sent none. */
export function errorNotice(fallback: string) {
  return (error?: HttpError): OpenNotificationParams => ({ type: 'error', message: error?.message || fallback });
}

/** Same, except network failures (status 0): the page says so in place instead. */
export function errorNoticeOnline(fallback: string) {
  return (error?: HttpError): OpenNotificationParams | false => (error?.statusCode === 0 ? false : errorNotice(fallback)(error));
}

/** For reads whose failure is only logged (01 §8, 02 §8): no notification. */
export function logOnly(label: string) {
  return (error?: HttpError): false => {
    console.error(`[vigia] ${label}`, error);
    return false;
  };
}

/** A green notification with a fixed text. */
export const successNotice = (message: string): OpenNotificationParams => ({ type: 'success', message });

/** A green notification with the server's own text (`notification.message` or `message`), else `fallback`. */
export function serverSuccess(fallback: string) {
  return (response?: { data?: unknown }): OpenNotificationParams => {
    const data = response?.data as { notification?: { message?: string }; message?: string } | undefined;
    return { type: 'success', message: data?.notification?.message || data?.message || fallback };
  };
}

/** Field errors of a 400 answer (`errors: {field: [messages]}`), limited to the form's own fields. */
export function fieldErrors<F extends string>(error: unknown, fields: readonly F[]): { name: F; errors: string[] }[] {
  const map = (error as HttpError | null)?.errors ?? {};
  return Object.entries(map)
    .filter(([name]) => (fields as readonly string[]).includes(name))
    .map(([name, value]) => ({
      name: name as F,
      errors: Array.isArray(value)
        ? value.map(String)
        : typeof value === 'string'
          ? [value]
          : [String((value as { key?: string })?.key ?? '')],
    }));
}

/** Error notification for a form: none when the error belongs on one of the form's fields. */
export function formErrorNotice(fallback: string, fields: readonly string[]) {
  return (error?: HttpError): OpenNotificationParams | false => (fieldErrors(error, fields).length ? false : errorNotice(fallback)(error));
}

/** The API path a query of Refine's cache reads (custom reads by URL, resource reads by name). */
function pathOf(key: readonly unknown[]): string | undefined {
  if (key[0] !== 'data') return undefined;
  if (key[2] === 'custom') {
    const url = (key[3] as { url?: unknown } | undefined)?.url;
    return typeof url === 'string' && url.startsWith(API_URL) ? url.slice(API_URL.length) : undefined;
  }
  if (typeof key[2] !== 'string') return undefined;
  return key[3] === 'one' && key[4] !== undefined ? `/${key[2]}/${String(key[4])}` : `/${key[2]}`;
}

const under = (path: string, prefix: string) => path === prefix || path.startsWith(`${prefix}/`) || path.startsWith(`${prefix}?`);

/**
 * After a write: refetch every shown read of these API paths or below them (`/patients/7/orders`
 * also refreshes `/patients/7/orders/12`), custom reads and resource lists alike.
 */
export function useInvalidatePaths() {
  const invalidate = useInvalidate();
  return useCallback(
    (...paths: string[]) =>
      invalidate({
        invalidates: ['all'],
        invalidationFilters: {
          type: 'all',
          refetchType: 'active',
          predicate: (query: Query) => {
            const path = pathOf(query.queryKey);
            return !!path && paths.some((p) => under(path, p));
          },
        },
      }),
    [invalidate],
  );
}

/** `values` of a DELETE through `useCustomMutation`: no request body at all (not `{}`). */
export const NO_BODY = undefined as unknown as Record<string, never>;

/**
 * Query parameters as `useList` filters (`field=value`), for lists that page with their own
 * parameters (`page`, `per_page`); use with `pagination: { mode: 'off' }`.
 */
export function asFilters(params: QueryParams): CrudFilter[] {
  return Object.entries(cleanQuery(params)).map(([field, value]) => ({ field, operator: 'eq', value }));
}

/**
 * Starts a `useCustom` GET read now (same cache entry: a card that mounts later with the same `url`
 * and `query` gets this answer, or waits for it), for screens that must not wait for their first
 * commit to begin loading.
 */
export function usePrefetchCustom() {
  const queryClient = useQueryClient();
  const dataProvider = useDataProvider();
  return useCallback(
    (url: string, query: Record<string, unknown>) =>
      void queryClient
        .prefetchQuery({
          queryKey: keys().data().mutation('custom').params({ method: 'get', url, query }).get(),
          queryFn: ({ signal }) => dataProvider().custom!({ url, method: 'get', query, meta: { signal } }),
        })
        .catch(() => undefined),
    [queryClient, dataProvider],
  );
}
