import type { Request, RequestHandler, Response, Router } from 'express';
import type { OperationId, PathParams, QueryParams, RequestBody, ResponseBody } from '@vigia/contract/rules/operations';
import { expressPath } from '@vigia/contract/rules/operations';
import type { OpenApiDocument } from '@vigia/contract/rules/schema';
import { loadContract } from './contract.js';

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
type Method = (typeof METHODS)[number];

/** A request as the contract validator leaves it for one operation. */
export type OperationRequest<Op extends OperationId> = Request<PathParams<Op>, ResponseBody<Op>, RequestBody<Op>, QueryParams<Op>>;
export type OperationHandler<Op extends OperationId> = (req: OperationRequest<Op>, res: Response<ResponseBody<Op>>) => unknown;

let table: Map<string, { method: Method; path: string }> | null = null;

/** Every operation of openapi.yaml: its method and its Express path. */
export function operationTable(doc: OpenApiDocument = loadContract().doc): Map<string, { method: Method; path: string }> {
  if (table && doc === loadContract().doc) return table;
  const found = new Map<string, { method: Method; path: string }>();
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const id = (item[method] as { operationId?: string } | undefined)?.operationId;
      if (id) found.set(id, { method, path: expressPath(path) });
    }
  }
  if (doc === loadContract().doc) table = found;
  return found;
}

/**
 * Mounts a handler on the method and path the contract gives `op`, after `guards` (role checks).
 * The handler's request is typed from the contract, so its body, query and path are the
 * operation's own; a name the contract does not have fails when the router is built.
 */
export function route<Op extends OperationId>(router: Router, op: Op, guards: RequestHandler[], handler: OperationHandler<Op>): void {
  const at = operationTable().get(op);
  if (!at) throw new Error(`openapi.yaml has no operation ${op}`);
  router[at.method](at.path, ...guards, handler as unknown as RequestHandler);
}
