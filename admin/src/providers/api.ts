import { API_URL } from '../constants';
import { readToken } from '../session';
import type { Method, ParamsOption, PathParamsOf, PathWith, SuccessOf, ValuesOption } from './calls';
import { takeEarlyRead } from './early-reads';
import { fromResponse } from './errors';

/** A path with its parameters put in (`/patients/{id}` with `{ id: 7 }` → `/patients/7`), encoded. */
export function fillPath(path: string, params: Record<string, number | string> | undefined): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined) throw new Error(`Missing path parameter ${name} of ${path}`);
    return encodeURIComponent(String(value));
  });
}

/** A session call's parameters, body (`values`) and token (default: the stored one; `null`: none). */
type RequestOptions<M extends Method, P extends PathWith<M>> = ParamsOption<P, M> & ValuesOption<P, M> & { token?: string | null };

type RequestArgs<M extends Method, P extends PathWith<M>> = [PathParamsOf<P, M>] extends [never]
  ? object extends ValuesOption<P, M>
    ? [options?: RequestOptions<M, P>]
    : [options: RequestOptions<M, P>]
  : [options: RequestOptions<M, P>];

/**
 * Minimal fetch client for the session calls. The login page uses it, so it stays free of the data
 * provider and Refine (calls.ts lends it types only); typed from the contract's operation like the
 * screens' calls, answering any of its success answers (a sign-in answers a session or a 202
 * challenge). Failures reject with the same HttpError shape as the data provider's.
 */
export async function apiRequest<M extends Method, P extends PathWith<M>>(
  method: M,
  path: P,
  ...[options]: RequestArgs<M, P>
): Promise<SuccessOf<P, M>> {
  const {
    params,
    values: body,
    token = readToken(),
  } = (options ?? {}) as {
    params?: Record<string, number | string>;
    values?: unknown;
    token?: string | null;
  };
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = `Bearer ${token}`;

  const url = `${API_URL}${fillPath(path, params)}`;
  // A GET of this session the entry already started (early-reads.ts): its answer if it succeeded.
  const early = method === 'get' && token === readToken() ? await takeEarlyRead(url) : null;
  if (early) {
    try {
      return (early.text ? JSON.parse(early.text) : undefined) as SuccessOf<P, M>;
    } catch {
      // Not JSON after all: the request as usual says what came.
    }
  }
  let response: Response;
  try {
    response = await fetch(url, {
      method: method.toUpperCase(),
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw fromResponse(0, undefined);
  }

  const text = await response.text();
  let data: unknown;
  try {
    data = text ? JSON.parse(text) : undefined;
  } catch {
    data = undefined;
  }
  if (!response.ok) throw fromResponse(response.status, data);
  return data as SuccessOf<P, M>;
}
