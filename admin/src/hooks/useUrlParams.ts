import { useCallback } from 'react';
import { useSearchParams } from 'react-router';

/**
 * The page's URL parameters and a setter that changes some of them and keeps the rest.
 *
 * The setter starts from the address bar, not from the params of the render that made it: React
 * Router commits a navigation in a transition, so a second change made before that render (a
 * search typed right after a filter was picked) would otherwise start from the older params and
 * drop the first change. `undefined` or '' removes a parameter; `replace` keeps the history clean.
 */
export function useUrlParams() {
  const [params, setParams] = useSearchParams();
  const change = useCallback(
    (changes: Record<string, string | undefined>, edit?: (next: URLSearchParams) => void) =>
      setParams(
        () => {
          const next = new URLSearchParams(window.location.search);
          for (const [key, value] of Object.entries(changes)) {
            if (value === undefined || value === '') next.delete(key);
            else next.set(key, value);
          }
          edit?.(next);
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );
  return [params, change] as const;
}
