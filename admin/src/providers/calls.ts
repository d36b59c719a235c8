import { useCallback, useMemo } from 'react';
import {
  useCustom,
  useCustomMutation,
  useNotification,
  type BaseRecord,
  type CreateResponse,
  type CustomResponse,
  type HttpError,
  type OpenNotificationParams,
  type UseCustomProps,
} from '@refinedev/core';
import { onlineManager, type QueryObserverResult } from '@tanstack/react-query';
import type { paths } from '@vigia/contract/openapi';
import { fillPath } from './api';
import { apiUrl, NO_BODY } from './data';
import { OFFLINE_WRITE_MESSAGE, type VigiaHttpError } from './errors';
import { useGetOnDemand, usePrefetchCustom } from './queries';

/**
 * The staff app's custom calls (issue 40), typed from the contract's operations: a screen names an
 * OpenAPI path of `@vigia/contract/openapi` and its method, and the path parameters, query, body and
 * answer come from that operation, so a mistyped path, a missing parameter or a wrong answer type is
 * a compile error. The only module that builds API URLs for useCustom / useCustomMutation (the
 * structure check holds the rest of admin/src to it).
 */

/** What useCustom returns (Refine does not export the type by name). */
export type ApiQueryResult<T> = Omit<ReturnType<typeof useCustom>, 'query' | 'result'> & {
  query: QueryObserverResult<CustomResponse<T>, VigiaHttpError>;
  result: { data: T };
};

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
export type WriteMethod = Exclude<Method, 'get'>;

/** Every path of the contract (`/patients/{id}/orders`). */
export type ApiPath = keyof paths & string;

type Operation<P extends ApiPath, M extends Method> = NonNullable<paths[P][M]>;

/** The methods the contract has for a path. */
export type MethodOf<P extends ApiPath> = { [M in Method]-?: [Operation<P, M>] extends [never] ? never : M }[Method];

/** The paths that have a given method. */
export type PathWith<M extends Method> = { [P in ApiPath]: M extends MethodOf<P> ? P : never }[ApiPath];

type ParametersOf<P extends ApiPath, M extends Method> = Operation<P, M> extends { parameters: infer X } ? X : never;

/** The path parameters of an operation (`never` when it has none). */
export type PathParamsOf<P extends ApiPath, M extends Method> = ParametersOf<P, M> extends { path: infer X } ? X : never;

/** The query parameters of an operation (`never` when it has none). */
export type QueryOf<P extends ApiPath, M extends Method> = ParametersOf<P, M> extends { query?: infer Q } ? NonNullable<Q> : never;

/** The JSON body of an operation (`never` when it takes none). */
export type BodyOf<P extends ApiPath, M extends Method> =
  Operation<P, M> extends { requestBody?: never }
    ? never
    : Operation<P, M> extends { requestBody: { content: { 'application/json': infer B } } }
      ? B
      : Operation<P, M> extends { requestBody?: { content: { 'application/json': infer B } } }
        ? B | undefined
        : never;

type JsonOf<R> = R extends { content: { 'application/json': infer T } } ? T : never;
type ResponsesOf<P extends ApiPath, M extends Method> = Operation<P, M> extends { responses: infer R } ? R : never;

/** The answer of an operation: its 200 JSON, else its 201 JSON, `void` for a 204. */
export type AnswerOf<P extends ApiPath, M extends Method> =
  ResponsesOf<P, M> extends { 200: infer R }
    ? JsonOf<R>
    : ResponsesOf<P, M> extends { 201: infer R }
      ? JsonOf<R>
      : ResponsesOf<P, M> extends { 204: unknown }
        ? void
        : never;

/** Every success answer of an operation (200, 201, 202 JSON), `void` for a 204: the session client's answers. */
export type SuccessOf<P extends ApiPath, M extends Method> =
  | { [S in 200 | 201 | 202]: ResponsesOf<P, M> extends { [K in S]: infer R } ? JsonOf<R> : never }[200 | 201 | 202]
  | (ResponsesOf<P, M> extends { 204: unknown } ? void : never);

/** Values of path parameters: the contract's names, numbers or strings (a route's `:id`). */
type ParamValues<X> = { [K in keyof X]-?: number | string };

/** `params` required when the path has parameters, refused when it has none. */
export type ParamsOption<P extends ApiPath, M extends Method> = [PathParamsOf<P, M>] extends [never]
  ? { params?: never }
  : { params: ParamValues<PathParamsOf<P, M>> };

/** `query` when the operation takes one (required when the contract requires it). */
type QueryOption<P extends ApiPath, M extends Method> = [QueryOf<P, M>] extends [never]
  ? { query?: never }
  : ParametersOf<P, M> extends { query: unknown }
    ? { query: QueryOf<P, M> }
    : { query?: QueryOf<P, M> };

type ParamsArg<P extends ApiPath, M extends Method> = [PathParamsOf<P, M>] extends [never] ? [] : [params: ParamValues<PathParamsOf<P, M>>];

/** The URL and method of one operation of the contract, as Refine's custom hooks want them. */
export function apiCall<M extends Method, P extends PathWith<M>>(
  method: M,
  path: P,
  ...params: ParamsArg<P, M>
): { url: string; method: M } {
  return { url: apiUrl(fillPath(path, params[0] as Record<string, number | string> | undefined)), method };
}

/** A read's path parameters and query, checked against the operation. */
export type ApiReadOptions<P extends ApiPath> = ParamsOption<P, 'get'> & QueryOption<P, 'get'>;

type ReadArgs<P extends ApiPath, O> = [PathParamsOf<P, 'get'>] extends [never]
  ? ParametersOf<P, 'get'> extends { query: unknown }
    ? [options: O]
    : [options?: O]
  : [options: O];

/**
 * One GET of the contract, built ahead: useCustom's cache entry (its `url` and `query`) and, as a type
 * only, the operation's answer. useApiRead reads it; usePrefetchApi starts it before its card mounts.
 */
export interface ApiRead<T> {
  url: string;
  query?: Record<string, unknown>;
  /**
   * How long an answer is taken as read (react-query's staleTime), the same for the read started
   * ahead and the card's: otherwise the card, or the start run again, reads an answer just received
   * once more (issue 52). Default 0.
   */
  staleTime?: number;
  /** Never set: carries the answer's type from apiRead to useApiRead. */
  readonly answer?: T;
}

/** The read of a GET operation with its parameters and query. */
export function apiRead<P extends PathWith<'get'>>(path: P, ...[options]: ReadArgs<P, ApiReadOptions<P>>): ApiRead<AnswerOf<P, 'get'>> {
  const { params, query } = (options ?? {}) as { params?: Record<string, number | string>; query?: Record<string, unknown> };
  return { url: apiUrl(fillPath(path, params)), query };
}

/** useCustom's own options of a read, typed by its answer. */
export type ApiReadHookOptions<T> = Pick<
  UseCustomProps<T, HttpError, Record<string, unknown>, never, T>,
  'queryOptions' | 'successNotification' | 'errorNotification' | 'overtimeOptions' | 'meta'
>;

/**
 * A read through Refine's useCustom (its notifications, its 401 handling, its cache key: `url` and
 * `query`), answering the operation's type.
 */
export function useApiRead<T>(read: ApiRead<T>, options: ApiReadHookOptions<T> = {}): ApiQueryResult<T> {
  const { successNotification, errorNotification, overtimeOptions, meta } = options;
  const queryOptions = read.staleTime === undefined ? options.queryOptions : { staleTime: read.staleTime, ...options.queryOptions };
  const props = {
    url: read.url,
    method: 'get',
    config: { query: read.query },
    meta,
    queryOptions,
    successNotification,
    errorNotification,
    overtimeOptions,
  };
  // The contract's answer is the hook's data; Refine's generic bound (a record) does not hold arrays or unions.
  return useCustom(props as UseCustomProps<BaseRecord, HttpError, unknown, never, BaseRecord>) as unknown as ApiQueryResult<T>;
}

/** useApiRead of `apiRead(path, options)`: a GET of the contract where it is used. */
export function useApiQuery<P extends PathWith<'get'>>(
  path: P,
  ...[options]: ReadArgs<P, ApiReadOptions<P> & ApiReadHookOptions<AnswerOf<P, 'get'>>>
): ApiQueryResult<AnswerOf<P, 'get'>> {
  const read = apiRead<P>(path, ...([options] as ReadArgs<P, ApiReadOptions<P>>));
  return useApiRead(read, options);
}

type Notice<T> = OpenNotificationParams | false | ((data: T) => OpenNotificationParams | false);

/** `values`, the operation's body: required when it takes one, refused when it takes none. */
export type ValuesOption<P extends ApiPath, M extends Method> = [BodyOf<P, M>] extends [never]
  ? { values?: never }
  : undefined extends BodyOf<P, M>
    ? { values?: BodyOf<P, M> }
    : { values: BodyOf<P, M> };

/** One write of the contract: method, path, its parameters, and its body. */
export type ApiWrite<M extends WriteMethod, P extends PathWith<M>> = { method: M; path: P } & ParamsOption<P, M> &
  ValuesOption<P, M> & {
    successNotification?: Notice<CreateResponse<AnswerOf<P, M>>>;
    errorNotification?: Notice<VigiaHttpError>;
    /** The submit's Idempotency-Key (hooks/useIdempotencyKey), for the writes that honour one (issue 50). */
    idempotencyKey?: string;
  };

/** What happens after one write (react-query's callbacks of `mutate`). */
export interface ApiWriteCallbacks<T> {
  onSuccess?: (data: CreateResponse<T>) => void;
  onError?: (error: VigiaHttpError) => void;
  onSettled?: () => void;
}

/**
 * What useCustomMutation is handed for one write: the URL with its parameters put in, and no body
 * at all (not `{}`) when the operation takes none.
 */
export function refineWrite<M extends WriteMethod, P extends PathWith<M>>(write: ApiWrite<M, P>) {
  const { method, path, params, values, successNotification, errorNotification, idempotencyKey } = write as ApiWrite<M, P> & {
    params?: Record<string, number | string>;
    values?: unknown;
  };
  return {
    url: apiUrl(fillPath(path, params)),
    method,
    values: values === undefined ? NO_BODY : values,
    successNotification,
    errorNotification,
    ...(idempotencyKey ? { config: { headers: { 'Idempotency-Key': idempotencyKey } } } : {}),
  };
}

/**
 * Writes of the contract through Refine's useCustomMutation: `mutate({ method, path, params, values })`
 * checks the body against the operation and answers its type.
 *
 * Without network a write is refused at once (issue 50), said once, and handed to the form's onError
 * like any failed save, so the form keeps what was typed: react-query would otherwise hold it paused
 * and send it whenever the network came back, perhaps long after the nurse has left the screen.
 */
export function useApiMutation() {
  const { mutate, mutateAsync, mutation, overtime } = useCustomMutation<BaseRecord, HttpError, unknown>();
  const { open } = useNotification();
  const refuseOffline = useCallback(
    (callbacks?: ApiWriteCallbacks<unknown>): VigiaHttpError | null => {
      if (onlineManager.isOnline()) return null;
      const error: VigiaHttpError = { message: OFFLINE_WRITE_MESSAGE, statusCode: 0, code: 'offline' };
      open?.({ type: 'error', key: 'offline-write', message: OFFLINE_WRITE_MESSAGE });
      callbacks?.onError?.(error);
      callbacks?.onSettled?.();
      return error;
    },
    [open],
  );
  const toRefine = useCallback(
    <M extends WriteMethod, P extends PathWith<M>>(write: ApiWrite<M, P>) => refineWrite(write) as Parameters<typeof mutate>[0],
    [],
  );
  // Stable functions, as Refine's own mutate and mutateAsync are (a screen may list them as dependencies).
  const writes = useMemo(
    () => ({
      mutate: <M extends WriteMethod, P extends PathWith<M>>(write: ApiWrite<M, P>, callbacks?: ApiWriteCallbacks<AnswerOf<P, M>>) => {
        if (refuseOffline(callbacks as ApiWriteCallbacks<unknown>)) return;
        mutate(toRefine(write), callbacks as Parameters<typeof mutate>[1]);
      },
      mutateAsync: async <M extends WriteMethod, P extends PathWith<M>>(
        write: ApiWrite<M, P>,
        callbacks?: ApiWriteCallbacks<AnswerOf<P, M>>,
      ) => {
        const offline = refuseOffline(callbacks as ApiWriteCallbacks<unknown>);
        if (offline) throw offline;
        return (await mutateAsync(toRefine(write), callbacks as Parameters<typeof mutateAsync>[1])) as unknown as CreateResponse<
          AnswerOf<P, M>
        >;
      },
    }),
    [mutate, mutateAsync, toRefine, refuseOffline],
  );
  return { mutation, overtime, ...writes };
}

/**
 * Starts a read now (providers/queries.ts usePrefetchCustom): a useApiRead of the same read that
 * mounts later gets its answer, or waits for it.
 */
export function usePrefetchApi() {
  const prefetch = usePrefetchCustom();
  return useCallback(<T>(read: ApiRead<T>) => prefetch(read.url, read.query, read.staleTime), [prefetch]);
}

/** A GET asked on a click (providers/queries.ts useGetOnDemand), answering the operation's type. */
export function useApiGetOnDemand() {
  const getNow = useGetOnDemand();
  return useCallback(
    <P extends PathWith<'get'>>(
      path: P,
      options: ParamsOption<P, 'get'> &
        QueryOption<P, 'get'> & {
          successNotification?: (data: AnswerOf<P, 'get'>) => OpenNotificationParams | false;
          errorNotification?: ((error: unknown) => OpenNotificationParams | false) | false;
        },
    ) => {
      const { params, query } = options as { params?: Record<string, number | string>; query?: Record<string, unknown> };
      return getNow<AnswerOf<P, 'get'>>(apiUrl(fillPath(path, params)), {
        query,
        successNotification: options.successNotification,
        errorNotification: options.errorNotification,
      });
    },
    [getNow],
  );
}
