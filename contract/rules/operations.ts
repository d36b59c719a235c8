/**
 * The contract's operations as types, by `operationId`: what a route takes (path, query, body)
 * and what it answers. The API binds its handlers by these names (api/src/http/operations.ts), so
 * a handler's inputs are the contract's types and its path and method are the contract's own.
 */
import type { operations } from '../openapi';

export type OperationId = keyof operations;

type JsonOf<T> = T extends { content: { 'application/json': infer B } } ? B : never;
type Parameters<Op extends OperationId> = operations[Op] extends { parameters: infer P } ? P : never;

/** The JSON body an operation accepts (`never` when it takes none). */
export type RequestBody<Op extends OperationId> = operations[Op] extends { requestBody?: infer R } ? JsonOf<NonNullable<R>> : never;

/** Its query parameters, as the validator leaves them (types coerced). */
export type QueryParams<Op extends OperationId> =
  Parameters<Op> extends { query?: infer Q } ? ([Q] extends [never] ? object : NonNullable<Q>) : object;

/** Its path parameters, as Express hands them over: text (read numbers with readIntParam). */
export type PathParams<Op extends OperationId> =
  Parameters<Op> extends { path?: infer P } ? ([P] extends [never] ? object : { [K in keyof NonNullable<P>]: string }) : object;

/** The JSON an operation answers with on success (200 or 201). */
export type ResponseBody<Op extends OperationId> = operations[Op] extends { responses: infer R }
  ? R extends { 200: infer A }
    ? JsonOf<A>
    : R extends { 201: infer A }
      ? JsonOf<A>
      : unknown
  : unknown;

/** An OpenAPI path (`/tags/{id}`) as an Express route (`/tags/:id`). */
export function expressPath(openApiPath: string): string {
  return openApiPath.replace(/\{([^}]+)\}/g, ':$1');
}
