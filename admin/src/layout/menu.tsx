import type { ReactNode } from 'react';
import type { ResourceProps } from '@refinedev/core';
import type { Action } from '@vigia/contract/rules/access';
import type { MenuMeta } from '../resources/registry';
import { roleAccess } from '../providers/access';

export type MenuLink = { path: string; label: string; icon: ReactNode };
type MenuGroup = { key: string; label: string; links: MenuLink[] };
export type MenuTree = { links: MenuLink[]; groups: MenuGroup[] };

const route = (value: ResourceProps['list']) => (typeof value === 'string' ? value : undefined);

/**
 * The sidebar of 01 §2, derived from the registered resources in their order: each resource with a
 * list route and a label is an entry (its create route too when `meta.createLabel` names it);
 * `meta.parent` puts it under a group (a resource with `meta.group`); `meta.hide` leaves it out.
 * A screen that declares `meta.requires` is listed only when `mayOpen` grants that action: the
 * signed-in role, by the same rule (`can`, contract/rules/access.ts) the page and the API apply, so
 * nobody is offered a screen that answers 403 (issue 41: 'Notificaciones' for every role).
 */
export function menuFrom(resources: ResourceProps[], mayOpen: (action: Action) => boolean = (a) => roleAccess(a).allowed): MenuTree {
  const tree: MenuTree = { links: [], groups: [] };
  for (const resource of resources) {
    const meta = (resource.meta ?? {}) as MenuMeta;
    if (meta.group) tree.groups.push({ key: resource.name, label: meta.label ?? resource.name, links: [] });
  }
  for (const resource of resources) {
    const meta = (resource.meta ?? {}) as MenuMeta;
    const list = route(resource.list);
    if (meta.group || meta.hide || !list || !meta.label) continue;
    if (meta.requires && !mayOpen(meta.requires)) continue;
    const entries: MenuLink[] = [{ path: list, label: meta.label, icon: meta.icon }];
    const create = route(resource.create);
    if (create && meta.createLabel) entries.push({ path: create, label: meta.createLabel, icon: meta.createIcon });
    const group = meta.parent ? tree.groups.find((g) => g.key === meta.parent) : undefined;
    (group ? group.links : tree.links).push(...entries);
  }
  // A group whose every screen is out of reach is no heading either.
  tree.groups = tree.groups.filter((g) => g.links.length > 0);
  return tree;
}

/** The menu entry to highlight: the longest menu path that starts the current path. */
export function selectedMenuKey(pathname: string, tree: MenuTree): string | undefined {
  const all = [...tree.links, ...tree.groups.flatMap((g) => g.links)].map((l) => l.path);
  return all.filter((path) => pathname === path || pathname.startsWith(`${path}/`)).sort((a, b) => b.length - a.length)[0];
}
