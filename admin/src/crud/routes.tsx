import { lazy } from 'react';
import { Route } from 'react-router';
import { basePath, type AnyResource } from './types';

const CrudScreen = lazy(() => import('./CrudScreen'));

/** Routes of one declaration: /<name>, /<name>/create, /<name>/edit/:id, /<name>/show/:id (unless it has its own `detail`). */
export function crudRoutes(resource: AnyResource) {
  const base = basePath(resource);
  return [
    <Route key={`${base}`} path={base} element={<CrudScreen resource={resource} action="list" />} />,
    resource.schemas.create ? (
      <Route key={`${base}/create`} path={`${base}/create`} element={<CrudScreen resource={resource} action="create" />} />
    ) : null,
    resource.actions?.edit ? (
      <Route key={`${base}/edit`} path={`${base}/edit/:id`} element={<CrudScreen resource={resource} action="edit" />} />
    ) : null,
    // A record with its own screen (`detail`) has no generic show view.
    resource.detail ? null : (
      <Route key={`${base}/show`} path={`${base}/show/:id`} element={<CrudScreen resource={resource} action="show" />} />
    ),
  ];
}
