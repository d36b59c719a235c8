import { CrudList } from './CrudList';
import { CrudCreate, CrudEdit } from './CrudForms';
import { CrudShow } from './CrudShow';
import type { AnyResource } from './types';

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
