import type { Request } from 'express';

/**
 * An integer path parameter. The contract validator has already answered 400 to one that is not an
 * integer, so this only converts, as each handler's Number() did.
 */
export function readIntParam(req: Request, name: string): number {
  return Number(req.params[name]);
}
