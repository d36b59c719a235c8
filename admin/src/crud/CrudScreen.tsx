import { lazy } from 'react';
import { CrudList } from './CrudList';
import type { AnyResource } from './types';

// Page forms and the show view are rarer than the list: their code loads when first opened.
const CrudCreate = lazy(() => import('./CrudForms').then((m) => ({ default: m.CrudCreate })));
const CrudEdit = lazy(() => import('./CrudForms').then((m) => ({ default: m.CrudEdit })));
const CrudShow = lazy(() => import('./CrudShow').then((m) => ({ default: m.CrudShow })));

export type CrudAction = 'list' | 'create' | 'edit' | 'show';

/** One generic screen of a declaration (loaded lazily with antd's table and form code). */
export default function CrudScreen({ resource, action }: { resource: AnyResource; action: CrudAction }) {
  switch (action) {
    case 'create':
      return <CrudCreate key={`${resource.name}-create`} resource={resource} />;
    case 'edit':
      return <CrudEdit key={`${resource.name}-edit`} resource={resource} />;
    case 'show':
      return <CrudShow key={`${resource.name}-show`} resource={resource} />;
    default:
      return <CrudList key={`${resource.name}-list`} resource={resource} />;
  }
}
