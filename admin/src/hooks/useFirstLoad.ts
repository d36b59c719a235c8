import { useEffect, useState } from 'react';

/**
 * The value a query gives once its first fetch for `key` has finished; a later refetch (after a
 * save, an invalidation or a focus) does not change it. A form built from it appears with the
 * stored values and keeps what the person types: a read that answers late never overwrites a field
 * (a CI run saved 65 after 60 was typed into Priorización's settings). A new `key` reads afresh.
 */
export function useFirstLoad<T>(value: T | null | undefined, fetching: boolean, key: unknown = null): T | null {
  const [first, setFirst] = useState<{ key: unknown; value: T } | null>(null);
  const current = first !== null && Object.is(first.key, key) ? first.value : null;
  useEffect(() => {
    if (current === null && !fetching && value != null) setFirst({ key, value });
  }, [current, fetching, value, key]);
  return current;
}
