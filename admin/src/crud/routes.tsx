import { lazy, type ReactNode } from 'react';
import { basePath, type AnyResource } from './types';

const CrudScreen = lazy(() => import('./CrudScreen'));

/** One routed screen of a resource: its path and what it renders (a lazy page: its file loads when first shown). */
export type Screen = { path: string; element: ReactNode };

/** Screens of one declaration: /<name>, /<name>/create, /<name>/edit/:id, /<name>/show/:id (unless it has its own `detail`). */
export function crudScreens(resource: AnyResource): Screen[] {
  const base = basePath(resource);
  const screens: Screen[] = [{ path: base, element: <CrudScreen resource={resource} action="list" /> }];
  if (resource.schemas.create) screens.push({ path: `${base}/create`, element: <CrudScreen resource={resource} action="create" /> });
  if (resource.actions?.edit) screens.push({ path: `${base}/edit/:id`, element: <CrudScreen resource={resource} action="edit" /> });
  // A record with its own screen (`detail`) has no generic show view.
  if (!resource.detail) screens.push({ path: `${base}/show/:id`, element: <CrudScreen resource={resource} action="show" /> });
  return screens;
}
