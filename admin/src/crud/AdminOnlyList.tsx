import { useState, type ReactNode } from 'react';
import { useInvalidate, useList, type BaseRecord, type CrudFilter } from '@refinedev/core';
import { Button, Card, Result, type TablePaginationConfig } from 'antd';
import { ReloadOutlined } from '@ant-design/icons';
import { usePageResetOn } from '../hooks/usePageResetOn';
import { FORBIDDEN_REASON, roleAccess } from '../providers/access';
import { loadFailed } from '../providers/notices';
import { PageHeader } from './PageHeader';
import { ReadFailedAlert, useOnline, useReadState, type Read } from '../ui/ReadState';

const PAGE_SIZES = [10, 20, 50];

export type AdminOnlyList<T> = {
  resource: string;
  /** The session's role may administer; otherwise nothing is loaded and the page says why. */
  allowed: boolean;
  rows: T[];
  loading: boolean;
  /** The last read failed (its message was shown): the table must not read as an empty list. */
  failed: boolean;
  /** The list's read, for the page's read state (ui/ReadState, P212). */
  read: Read;
  /** The table's paging, read from the server (20 a page, 10/20/50); back to page 1 when the filters change. */
  pagination: TablePaginationConfig;
};

/**
 * A list only administrators read (notifications, P177; unknown messages, P91): the resource's
 * rows a page at a time from the server, keeping the last page on screen while the next loads.
 */
export function useAdminOnlyList<T extends BaseRecord>(resource: string, filters: CrudFilter[]): AdminOnlyList<T> {
  const { allowed } = roleAccess('administer');
  const [page, setPage] = usePageResetOn(JSON.stringify(filters));
  const [pageSize, setPageSize] = useState(20);
  const online = useOnline();
  const { query, result } = useList<T>({
    resource,
    filters,
    pagination: { currentPage: page, pageSize, mode: 'server' },
    queryOptions: { enabled: allowed, placeholderData: (previous) => previous },
    errorNotification: loadFailed,
  });
  return {
    resource,
    allowed,
    rows: result.data,
    loading: query.isFetching,
    // Without network a read cannot be made: the table must not say it is empty either.
    failed: query.isError || !online,
    read: query,
    pagination: {
      current: page,
      pageSize,
      total: result.total ?? 0,
      showSizeChanger: true,
      pageSizeOptions: PAGE_SIZES,
      locale: { items_per_page: '/ página' },
      onChange: (p, size) => {
        setPage(size !== pageSize ? 1 : p);
        setPageSize(size);
      },
    },
  };
}

/**
 * The table's empty text: `empty` when the list has no rows, or, when the read failed, that it could
 * not be read (an empty-list text, 'Aún no hay…', would tell the administrator there is nothing);
 * while the first read runs, that it is loading (antd shows the empty text under its spinner).
 */
export function emptyTextOf(list: Pick<AdminOnlyList<unknown>, 'failed' | 'loading'>, empty: string): string {
  if (list.failed) return 'No fue posible cargar la lista. Pulse «Actualizar» para intentarlo de nuevo.';
  return list.loading ? 'Cargando…' : empty;
}

/**
 * The page of such a list: its title with 'Actualizar', or, for any other role, the title over a
 * 403 that says who reads it (`forbidden`) and why not this user.
 */
export function AdminOnlyListPage<T>({
  title,
  forbidden,
  list,
  children,
}: {
  title: string;
  forbidden: string;
  list: AdminOnlyList<T>;
  children: ReactNode;
}) {
  const invalidate = useInvalidate();
  // Above the table: that it could not be read, with 'Reintentar', or since when its rows are (P212).
  const readState = useReadState([list.read], list.rows.length === 0, `la lista «${title}»`);
  if (!list.allowed) {
    return (
      <PageHeader title={title}>
        <Card>
          <Result status="403" title={forbidden} subTitle={FORBIDDEN_REASON} />
        </Card>
      </PageHeader>
    );
  }
  return (
    <PageHeader
      title={title}
      extra={
        <Button icon={<ReloadOutlined />} onClick={() => void invalidate({ resource: list.resource, invalidates: ['list'] })}>
          Actualizar
        </Button>
      }
    >
      <ReadFailedAlert status={readState} />
      {children}
    </PageHeader>
  );
}
