import { useState } from 'react';

/**
 * A list's page that goes back to 1 whenever `filterKey` (the filters it shows, as one text)
 * changes: a new search, tab or tag filter starts at its first page. Set during render, as React
 * recommends for state that follows a prop, so no render shows the old page of the new filter.
 */
export function usePageResetOn(filterKey: string): [number, (page: number) => void] {
  const [page, setPage] = useState(1);
  const [shownFilter, setShownFilter] = useState(filterKey);
  if (shownFilter !== filterKey) {
    setShownFilter(filterKey);
    setPage(1);
  }
  return [page, setPage];
}
