import { useCallback, useSyncExternalStore } from 'react';
import { keys, useDataProvider, useInvalidate, useNotification, useOnError, type OpenNotificationParams } from '@refinedev/core';
import { useQueryClient, type Query } from '@tanstack/react-query';
import { API_URL } from '../constants';
import { serverError } from './notices';

/**
 * The hooks around Refine's data hooks that Refine does not have: invalidation by API path, a read
 * started before its screen mounts, and a GET asked on a click.
 */

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

/**
 * Whether a read shown now (a query with observers) of an API path under `prefix` has failed, and a
 * retry of every such read: for a form whose options come from several reads (the patient form's
 * listings) and that says so once rather than show codes for names.
 */
export function useFailedReads(prefix: string): { failed: boolean; retry: () => void } {
  const queryClient = useQueryClient();
  const cache = queryClient.getQueryCache();
  const failedRead = useCallback(
    (query: Query) => {
      const path = pathOf(query.queryKey);
      return query.state.status === 'error' && query.getObserversCount() > 0 && !!path && under(path, prefix);
    },
    [prefix],
  );
  const failed = useSyncExternalStore(
    useCallback((onChange: () => void) => cache.subscribe(onChange), [cache]),
    () => cache.findAll({ predicate: failedRead }).length > 0,
  );
  const retry = useCallback(() => void queryClient.refetchQueries({ predicate: failedRead }), [queryClient, failedRead]);
  return { failed, retry };
}

/**
 * Starts a `useCustom` GET read now (same cache entry: a card that mounts later with the same `url`
 * and `query` gets this answer, or waits for it), for screens that must not wait for their first
 * commit to begin loading. `staleTime` is the card's own: within it, the answer is not read again.
 */
export function usePrefetchCustom() {
  const queryClient = useQueryClient();
  const dataProvider = useDataProvider();
  return useCallback(
    (url: string, query?: Record<string, unknown>, staleTime?: number) =>
      void queryClient
        .prefetchQuery({
          queryKey: keys().data().mutation('custom').params({ method: 'get', url, query }).get(),
          queryFn: ({ signal }) => dataProvider().custom!({ url, method: 'get', query, meta: { signal } }),
          staleTime,
        })
        .catch(() => undefined),
    [queryClient, dataProvider],
  );
}

type OnDemandOptions<T> = {
  query?: Record<string, unknown>;
  successNotification?: (data: T) => OpenNotificationParams | false;
  /** Default: the server's message (providers/notices.ts). */
  errorNotification?: ((error: unknown) => OpenNotificationParams | false) | false;
};

/**
 * A GET asked on a click rather than on render (a download link, 'Validar' of the webhook), through
 * the data provider like the hooks: the same HttpError, the same notifications, a 401 ends the
 * session. The promise rejects on failure, after notifying. Screens call it through calls.ts
 * (useApiGetOnDemand), which builds the URL.
 */
export function useGetOnDemand() {
  const dataProviders = useDataProvider();
  const { open } = useNotification();
  const { mutate: checkError } = useOnError();
  return useCallback(
    async <T>(url: string, options: OnDemandOptions<T> = {}): Promise<T> => {
      const custom = dataProviders().custom;
      if (!custom) throw new Error('The data provider has no custom method');
      try {
        const { data } = (await custom({ url, method: 'get', query: options.query })) as { data: T };
        const notice = options.successNotification?.(data);
        if (notice) open?.(notice);
        return data;
      } catch (error) {
        checkError(error);
        const notice = options.errorNotification === false ? false : (options.errorNotification ?? serverError())(error);
        if (notice) open?.(notice);
        throw error;
      }
    },
    [dataProviders, open, checkError],
  );
}
