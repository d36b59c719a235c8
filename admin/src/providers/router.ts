import { useCallback, useContext } from 'react';
import { matchPath, useLocation, useParams } from 'react-router';
import { matchResourceFromRoute, ResourceContext, type IResourceItem, type RouterProvider } from '@refinedev/core';
import routerBindings from '@refinedev/react-router';
import qs from 'qs';

type ResourceMatch = ReturnType<typeof matchResourceFromRoute>;

/** Addresses remembered per resource list: the staff app visits a few dozen in a session. */
const MAX_PATHS = 64;
const matches = new WeakMap<IResourceItem[], Map<string, ResourceMatch>>();

/**
 * The resource and action of an address, worked out once per address and resource list. Refine's
 * binding works it out again in every hook that reads the route (each useCustom, useGo, useLogout
 * of a page: on the patient page ~50 ms of the main thread before the charts, issue 52).
 */
export function resourceOfPath(pathname: string, resources: IResourceItem[]): ResourceMatch {
  let byPath = matches.get(resources);
  if (!byPath) matches.set(resources, (byPath = new Map()));
  let match = byPath.get(pathname);
  if (!match) {
    if (byPath.size >= MAX_PATHS) byPath.clear();
    match = matchResourceFromRoute(pathname, resources);
    byPath.set(pathname, match);
  }
  return match;
}

const numberIfPossible = (value: unknown) => {
  if (value === undefined) return value;
  const n = Number(value);
  return `${n}` === value ? n : value;
};

/**
 * @refinedev/react-router's `parse`, the same answer, with the resource's match shared by every
 * hook on the page (resourceOfPath) instead of worked out in each.
 */
function useParse() {
  let params: Record<string, string | undefined> = useParams();
  const { pathname, search } = useLocation();
  const { resources } = useContext(ResourceContext);
  const { resource, action, matchedRoute } = resourceOfPath(pathname, resources);
  if (Object.keys(params).length === 0 && matchedRoute) params = matchPath(matchedRoute, pathname)?.params ?? {};
  return useCallback(() => {
    const combined: Record<string, unknown> = { ...params, ...qs.parse(search, { ignoreQueryPrefix: true, depth: 10 }) };
    return {
      ...(resource && { resource }),
      ...(action && { action }),
      ...(params?.id && { id: decodeURIComponent(params.id) }),
      pathname,
      params: {
        ...combined,
        currentPage: numberIfPossible(combined.currentPage),
        pageSize: numberIfPossible(combined.pageSize),
        to: combined.to ? decodeURIComponent(String(combined.to)) : undefined,
      },
    };
  }, [pathname, search, params, resource, action]);
}

/** Refine's react-router binding with its route parsing shared across hooks. */
export const routerProvider: RouterProvider = { ...routerBindings, parse: useParse as RouterProvider['parse'] };
