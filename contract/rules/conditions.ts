/** 'Antecedentes' (01 §2, §4, §5, §8, §9): one rule set for the API and the tab. */
export const CONDITION_SEARCH_MIN = 3;
export const CONDITION_SEARCH_DEBOUNCE_MS = 300;
export const CONDITION_NOTES_MAX = 600;

export const CONDITION_MESSAGES = {
  search: 'Error al buscar antecedentes',
  save: 'Error al guardar la condición',
  create: 'Error al crear la condición',
  delete: 'Error al eliminar la condición',
  noPriority: 'No refiere antecedentes prioritarios',
} as const;

/** A search runs from 3 characters (after trimming). */
export function shouldSearchConditions(text: string): boolean {
  return text.trim().length >= CONDITION_SEARCH_MIN;
}

/** What removing an active condition does: a priority one stays listed as NO, another leaves the list. */
export function removalEffect(priority: number): 'switch_off' | 'delete' {
  return priority === 1 ? 'switch_off' : 'delete';
}

export type ConditionDialogMode = 'edit' | 'activate' | 'add';

/**
 * Editing an active condition, activating a priority one that is NO (it has a record or is only in
 * the catalogue), or adding one found by the search.
 */
export function conditionDialogMode(c: { active: boolean; priority: number; hasRecord: boolean }): ConditionDialogMode {
  if (c.hasRecord && c.active) return 'edit';
  return c.priority === 1 ? 'activate' : 'add';
}

export function conditionDialogTitle(mode: ConditionDialogMode, name: string): string {
  return `${{ edit: 'Editar', activate: 'Activar', add: 'Agregar' }[mode]} ${name}`;
}
