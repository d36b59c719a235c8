import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { MemoryRouter, Route, Routes } from 'react-router';
import { ResourceContext, type IResourceItem } from '@refinedev/core';
import routerBindings from '@refinedev/react-router';
import { describe, expect, it } from 'vitest';
import { resourceOfPath, routerProvider } from './router';

const RESOURCES: IResourceItem[] = [
  { name: 'users', list: '/users', create: '/users/create', edit: '/users/:id/edit', show: '/users/:id' },
  { name: 'orders', list: '/orders', show: '/orders/:id' },
  { name: 'patients', list: '/patients', show: '/patients/:id' },
];

/** What a parse hook answers at an address, rendered inside the router and under a route of its own or none. */
function parsedAt(url: string, parse: () => () => unknown, routePath?: string): unknown {
  let out: unknown;
  const Probe = () => {
    out = parse()();
    return null;
  };
  const probe = createElement(Probe);
  const tree = routePath ? createElement(Routes, null, createElement(Route, { path: routePath, element: probe })) : probe;
  renderToString(
    createElement(
      MemoryRouter,
      { initialEntries: [url] },
      createElement(ResourceContext.Provider, { value: { resources: RESOURCES } }, tree),
    ),
  );
  return out;
}

describe("routerProvider.parse: the answer of @refinedev/react-router's own", () => {
  it.each([
    ['a list', '/users', undefined],
    ['a record, no route params (matched from the resource)', '/users/7', undefined],
    ['a record under its route', '/users/7', '/users/:id'],
    ['an edit page', '/users/7/edit', undefined],
    ['a record with a query', '/patients/12?tab=signs&currentPage=2&pageSize=20', '/patients/:id'],
    ['nested filters in the query', '/orders?filters[0][field]=status&filters[0][value]=1&to=%2Fpatients', undefined],
    ['an address of no resource', '/reports/indicators', undefined],
    ['an encoded id', '/patients/a%20b', undefined],
  ])('%s: %s', (_name, url, routePath) => {
    const ours = parsedAt(url, routerProvider.parse as () => () => unknown, routePath);
    expect(ours).toEqual(parsedAt(url, routerBindings.parse as () => () => unknown, routePath));
    expect(ours).toHaveProperty('pathname', url.split('?')[0]);
  });
});

describe('resourceOfPath: worked out once per address and resource list', () => {
  it('answers the same match object for the same address, a new one for another list', () => {
    const first = resourceOfPath('/users/7/edit', RESOURCES);
    expect(first.resource?.name).toBe('users');
    expect(first.action).toBe('edit');
    expect(resourceOfPath('/users/7/edit', RESOURCES)).toBe(first);
    expect(resourceOfPath('/users/7/edit', [...RESOURCES])).not.toBe(first);
    expect(resourceOfPath('/users/7/edit', [...RESOURCES])).toEqual(first);
  });

  it('keeps at most 64 addresses, then starts again (still answering right)', () => {
    const list = [...RESOURCES];
    const first = resourceOfPath('/patients/0', list);
    for (let i = 1; i <= 64; i++) expect(resourceOfPath(`/patients/${i}`, list).resource?.name).toBe('patients');
    const again = resourceOfPath('/patients/0', list);
    expect(again).not.toBe(first);
    expect(again).toEqual(first);
  });
});
