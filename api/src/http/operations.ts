import type { Request, RequestHandler, Response, Router } from 'express';
import type { OperationId, PathParams, QueryParams, RequestBody, ResponseBody } from '@vigia/contract/rules/operations';
import { expressPath } from '@vigia/contract/rules/operations';
import { loadContract, raiseHeldRefusal } from './contract.js';

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
type Method = (typeof METHODS)[number];

/** A request as the contract validator leaves it for one operation. */
export type OperationRequest<Op extends OperationId> = Request<PathParams<Op>, ResponseBody<Op>, RequestBody<Op>, QueryParams<Op>>;
export type OperationHandler<Op extends OperationId> = (req: OperationRequest<Op>, res: Response<ResponseBody<Op>>) => unknown;

let table: Map<string, { method: Method; path: string }> | null = null;

/** Every operation of openapi.yaml by operationId: its method and its Express path (read once). */
export function operationTable(): Map<string, { method: Method; path: string }> {
  if (table) return table;
  table = new Map();
  for (const [path, item] of Object.entries(loadContract().doc.paths)) {
    for (const method of METHODS) {
      const id = item[method]?.operationId;
      if (id) table.set(id, { method, path: expressPath(path) });
    }
  }
  return table;
}

/**
 * Mounts a handler on the method and path the contract gives `op`, after `guards` (who may call
 * it: the kind of session and the role) and then the contract's refusal of the request, if one
 * was held for it (contract.ts holdingRefusals): authorised before validated, for every operation.
 * The handler's request is typed from the contract, so its body, query and path are the
 * operation's own; a name the contract does not have fails when the router is built.
 */
export function route<Op extends OperationId>(router: Router, op: Op, guards: RequestHandler[], handler: OperationHandler<Op>): void {
  const at = operationTable().get(op);
  if (!at) throw new Error(`openapi.yaml has no operation ${op}`);
  router[at.method](at.path, ...guards, raiseHeldRefusal, handler as unknown as RequestHandler);
}
