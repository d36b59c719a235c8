/** Query parameters without the empty ones: the API reads `x=` as a value (`?q=` is never sent). */
export function cleanQuery(params: Record<string, unknown> | undefined): Record<string, unknown> {
  return Object.fromEntries(Object.entries(params ?? {}).filter(([, v]) => v !== undefined && v !== null && v !== ''));
}
