import simpleRestDataProvider from '@refinedev/simple-rest';
import type { CrudFilter, CustomResponse, DataProvider } from '@refinedev/core';
import { API_URL } from '../constants';
import { http } from './http';
import { cleanQuery } from './query';

/**
 * The data provider (the app's one HTTP path: screens read and write through Refine's hooks, which
 * call this) and the small pieces its callers pass it: absolute URLs, query parameters, bodies.
 */

const rest = simpleRestDataProvider(API_URL, http);

/** Query parameters of an API call. */
export type QueryParams = Record<string, unknown>;

/** A custom answer; `total` is the `X-Total-Count` header when the API sends one (paged listings). */
type CustomAnswer<T> = CustomResponse<T> & { total?: number };

/** The full URL of an API path (`/patients/7/orders`); screens name the contract's operation instead (providers/calls.ts). */
export const apiUrl = (path: string) => `${API_URL}${path}`;

/**
 * Query parameters as `useList` filters (`field=value`), for lists that page with their own
 * parameters (`page`, `per_page`); use with `pagination: { mode: 'off' }`.
 */
export function asFilters(params: QueryParams): CrudFilter[] {
  return Object.entries(cleanQuery(params)).map(([field, value]) => ({ field, operator: 'eq', value }));
}

/** `values` of a DELETE through `useCustomMutation`: no request body at all (not `{}`). */
export const NO_BODY = undefined as unknown as Record<string, never>;

/** The listing total a custom answer carried (0 when none). */
export function totalOf(answer: CustomResponse<unknown> | undefined): number {
  return (answer as CustomAnswer<unknown> | undefined)?.total ?? 0;
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
