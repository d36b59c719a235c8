/**
 * An integer path parameter. The contract validator has already answered 400 to one that is not an
 * integer, so this only converts, as each handler's Number() did.
 */
export function readIntParam(req: { params: object }, name: string): number {
  return Number((req.params as Record<string, unknown>)[name]);
}
