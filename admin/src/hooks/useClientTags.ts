import { useList } from '@refinedev/core';
import type { Schemas } from '../contract';
import { logOnly } from '../providers/notices';

type Tag = Schemas['Tag'];

/** The client's tags by name (the first 100), for the tag filter and the tags dialog; a failure means none. */
export function useClientTags(): Tag[] {
  const { result } = useList<Tag>({
    resource: 'tags',
    pagination: { currentPage: 1, pageSize: 100 },
    sorters: [{ field: 'name', order: 'asc' }],
    errorNotification: logOnly('etiquetas'),
  });
  return result.data;
}
