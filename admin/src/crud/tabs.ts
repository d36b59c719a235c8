import type { CrudFilter } from '@refinedev/core';
import type { FilterDeclaration, TabsDeclaration } from './types';

/** URL search parameter that keeps the active tab when the declaration names none. */
export const DEFAULT_TAB_PARAM = 'tab';

/** The tab a URL asks for when it is one of the declared keys, else the first tab. */
export function activeTabKey(tabs: TabsDeclaration, requested: string | null | undefined): string {
  return tabs.items.some((t) => t.key === requested) ? requested! : tabs.items[0].key;
}

/** Whether a declared filter is shown on the tab (a filter without `tabs` is on every tab). */
export function filterOnTab(filter: Pick<FilterDeclaration, 'tabs'>, tabKey: string | undefined): boolean {
  return !filter.tabs || tabKey === undefined || filter.tabs.includes(tabKey);
}

/**
 * The list filters a tab implies: its own value on `tabs.field`, and an empty value (which Refine
 * drops) for every declared filter that tab does not show, so no hidden value narrows the list.
 */
export function tabFilters(tabs: TabsDeclaration, tabKey: string, filters: FilterDeclaration[] = []): CrudFilter[] {
  const tab = tabs.items.find((t) => t.key === tabKey) ?? tabs.items[0];
  return [
    { field: tabs.field, operator: 'eq', value: tab.filter },
    ...filters.filter((f) => !filterOnTab(f, tab.key)).map((f): CrudFilter => ({ field: f.field, operator: 'eq', value: undefined })),
  ];
}

/** Whether the user narrowed the list (a search or a filter), not counting the tab's own filter. */
export function isUserFiltered(filters: CrudFilter[], tabField?: string): boolean {
  return filters.some((f) => 'field' in f && f.field !== tabField && f.value !== undefined && f.value !== '');
}
