import { lazy, type ReactNode } from 'react';
import { basePath, showPath, type AnyResource } from './types';

const CrudScreen = lazy(() => import('./CrudScreen'));

/** One routed screen of a resource: its path and what it renders (a lazy page: its file loads when first shown). */
export type Screen = { path: string; element: ReactNode };

/** Screens of one declaration: /<name>, /<name>/create, /<name>/edit/:id, /<name>/show/:id (see showPath). */
export function crudScreens(resource: AnyResource): Screen[] {
  const base = basePath(resource);
  const screens: Screen[] = [{ path: base, element: <CrudScreen resource={resource} action="list" /> }];
  if (resource.schemas.create) screens.push({ path: `${base}/create`, element: <CrudScreen resource={resource} action="create" /> });
  if (resource.actions?.edit) screens.push({ path: `${base}/edit/:id`, element: <CrudScreen resource={resource} action="edit" /> });
  const show = showPath(resource);
  if (show) screens.push({ path: show, element: <CrudScreen resource={resource} action="show" /> });
  return screens;
}
