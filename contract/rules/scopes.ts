/**
 * The scopes of a 'Cliente de API' (issue 50): `system/*.rs` ('Todas') already reads every type,
 * so a list that has it and single types too says two things at once (and after 'Todas' is
 * removed, the single types would silently become the client's whole access). The form keeps
 * them exclusive and the API refuses the mix; one rule for both.
 */

/** 'Todas': every type the API serves, read and searched. */
export const ALL_SCOPES = 'system/*.rs';

export const MIXED_SCOPES_MESSAGE = 'Elija «Todas» (system/*.rs) o tipos de datos concretos, no ambos.';

/** The API's check: the Spanish reason a list of scopes mixes 'Todas' with single types, or null. */
export function mixedScopesProblem(scopes: readonly string[]): string | null {
  return scopes.includes(ALL_SCOPES) && scopes.some((s) => s !== ALL_SCOPES) ? MIXED_SCOPES_MESSAGE : null;
}

/**
 * The form's multi-select after a change: choosing 'Todas' leaves it alone, choosing a single type
 * while 'Todas' is there takes 'Todas' away. `previous` tells which of the two was just chosen.
 */
export function exclusiveScopes<S extends string>(previous: readonly S[], next: readonly S[]): S[] {
  if (!mixedScopesProblem(next)) return [...next];
  const addedAll = next.includes(ALL_SCOPES as S) && !previous.includes(ALL_SCOPES as S);
  return addedAll ? [ALL_SCOPES as S] : next.filter((s) => s !== ALL_SCOPES);
}
