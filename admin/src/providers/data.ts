import simpleRestDataProvider from '@refinedev/simple-rest';
import { useCallback } from 'react';
import {
  useDataProvider,
  useNotification,
  useOnError,
  type CustomResponse,
  type DataProvider,
  type OpenNotificationParams,
} from '@refinedev/core';
import { API_URL } from '../constants';
import { http } from './http';
import { serverError } from './notices';

const rest = simpleRestDataProvider(API_URL, http);

/** A custom answer; `total` is the `X-Total-Count` header when the API sends one (paged listings). */
export type CustomAnswer<T> = CustomResponse<T> & { total?: number };

/** Drops empty query values, as the hand-written clients did (`?q=` is never sent). */
function cleanQuery(query: unknown): Record<string, unknown> | undefined {
  if (!query || typeof query !== 'object') return undefined;
  return Object.fromEntries(Object.entries(query).filter(([, v]) => v !== undefined && v !== null && v !== ''));
}

/**
 * Lists follow simple-rest's conventions exactly (D3), so the stock provider serves the resources.
 * `custom` (useCustom / useCustomMutation, the hand-built screens) goes through the same client with
 * the query as axios parameters (config.sorters and `eq` filters as simple-rest sends them; other filter
 * operators are not used here), and also returns the listing's total.
 */
export const dataProvider: DataProvider = {
  ...rest,
  custom: async ({ url, method, payload, query, headers, sorters, filters }) => {
    // simple-rest's conventions for config.sorters and plain `eq` filters, before the query's own values.
    const sort = sorters?.length ? { _sort: sorters.map((s) => s.field).join(','), _order: sorters.map((s) => s.order).join(',') } : {};
    const eq = Object.fromEntries((filters ?? []).flatMap((f) => ('field' in f && f.operator === 'eq' ? [[f.field, f.value]] : [])));
    const params = cleanQuery({ ...sort, ...eq, ...(query as Record<string, unknown> | undefined) });
    // An empty body ({} from a mutation with nothing to send) is not sent, as the hand-written clients did.
    const empty = typeof payload === 'object' && payload !== null && !Array.isArray(payload) && Object.keys(payload).length === 0;
    const response = await http.request({ url, method, data: empty ? undefined : payload, params, headers });
    const total = response.headers['x-total-count'];
    return { data: response.data, ...(total === undefined ? {} : { total: Number(total) }) } as CustomAnswer<never>;
  },
};

/** The full URL of an API path, for useCustom / useCustomMutation. */
export const apiUrl = (path: string) => `${API_URL}${path}`;

/** The listing total a custom answer carried (0 when none). */
export function totalOf(answer: CustomResponse<unknown> | undefined): number {
  return (answer as CustomAnswer<unknown> | undefined)?.total ?? 0;
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
 * session. The promise rejects on failure, after notifying.
 */
export function useGetOnDemand() {
  const dataProviders = useDataProvider();
  const { open } = useNotification();
  const { mutate: checkError } = useOnError();
  return useCallback(
    async <T>(path: string, options: OnDemandOptions<T> = {}): Promise<T> => {
      const custom = dataProviders().custom;
      if (!custom) throw new Error('The data provider has no custom method');
      try {
        const { data } = (await custom({ url: apiUrl(path), method: 'get', query: options.query })) as { data: T };
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
