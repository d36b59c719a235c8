import type { ResourceProps } from '@refinedev/core';
import type { AnyResource } from '../crud/types';
import { registerResourceName } from '../providers/i18n';
import { tags } from './tags';

/** Every resource rendered by the generic CRUD screens. */
export const resources: AnyResource[] = [tags];

for (const resource of resources) registerResourceName(resource.name, resource.labels.singular);

/** Refine's view of the same declarations (routes per action). */
export function toRefineResources(list: AnyResource[]): ResourceProps[] {
  return list.map((r) => ({
    name: r.name,
    list: `/${r.name}`,
    create: `/${r.name}/create`,
    edit: `/${r.name}/edit/:id`,
    show: `/${r.name}/show/:id`,
    meta: { label: r.labels.list },
  }));
}
