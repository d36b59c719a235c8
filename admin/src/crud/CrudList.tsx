import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { Alert, Button, Pagination, Select, Space, Table, Tabs, Tooltip, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import { EditOutlined, EyeOutlined, LinkOutlined, PlusOutlined, RobotOutlined, SettingOutlined } from '@ant-design/icons';
import { DeleteButton, getDefaultSortOrder, useModalForm, useTable } from '@refinedev/antd';
import { useCan, type BaseKey, type CrudFilter, type HttpError } from '@refinedev/core';
import { contractDoc } from './contract-doc';
import { CrudEditDialog, CrudModalForm, type Row, type Values } from './CrudDialogs';
import { DeleteDialogButton } from './DeleteDialog';
import { DateFilter, SearchFilter, SelectFilter, TextFilter, ToggleFilter } from './filters';
import { useFormFields } from './form';
import { crudNotifications, serverErrorNotification } from './notifications';
import { PageHeader } from './PageHeader';
import { renderCell } from './renderers';
import { listCapabilities, objectSchema } from './schema-rules';
import { activeTabKey, DEFAULT_TAB_PARAM, filterOnTab, isUserFiltered, tabFilters } from './tabs';
import { basePath, type ActionIcon, type AnyResource } from './types';
import { LinkButton } from '../layout/LinkButton';
import { usePageTitle } from '../layout/usePageTitle';
import './crud.css';
import { useMediaQuery } from '../layout/useMediaQuery';
import { useUrlParams } from '../hooks/useUrlParams';
import { ReadState } from '../ui/ReadState';
import { PhoneCards, usePhoneLayout } from '../ui/PhoneCards';

const ICONS: Record<ActionIcon, ReactNode> = {
  ai: <RobotOutlined />,
  view: <EyeOutlined />,
  link: <LinkOutlined />,
  settings: <SettingOutlined />,
  edit: <EditOutlined />,
};

/** A banner the user closed stays closed on this browser. */
function useDismissed(key: string): [boolean, () => void] {
  const [dismissed, setDismissed] = useState(() => localStorage.getItem(key) === '1');
  return [
    dismissed,
    () => {
      localStorage.setItem(key, '1');
      setDismissed(true);
    },
  ];
}

/** The list screen of any declaration: filters, table, page-size selector, create/edit dialogs. */
export function CrudList({ resource }: { resource: AnyResource }) {
  const navigate = useNavigate();
  const [introHidden, hideIntro] = useDismissed(`vigia.intro.${resource.name}`);
  const { labels } = resource;
  usePageTitle(labels.list);
  const recordSchema = useMemo(() => objectSchema(contractDoc, resource.schemas.record), [resource]);
  const capabilities = useMemo(() => listCapabilities(contractDoc, resource.name), [resource]);
  const pageSizes = resource.pageSizes ?? [10, 20, 50];
  const usesModal = (resource.form ?? 'modal') === 'modal';
  const actions = resource.actions ?? {};
  const createAccess = useCan({ resource: resource.name, action: 'create' }).data;
  const editAccess = useCan({ resource: resource.name, action: 'edit' }).data;

  // Tabs (02 §2.6): the active one lives in the URL, so a reload or a shared link keeps it.
  const [searchParams, changeParams] = useUrlParams();
  const tabs = resource.tabs;
  const tabParam = tabs?.param ?? DEFAULT_TAB_PARAM;
  const activeTab = tabs ? activeTabKey(tabs, searchParams.get(tabParam)) : undefined;
  const selectTab = (key: string) => changeParams({ [tabParam]: key });

  const { tableProps, tableQuery, sorters, filters, setFilters, currentPage, setCurrentPage, pageSize, setPageSize, result } = useTable<
    Row,
    HttpError
  >({
    resource: resource.name,
    pagination: { pageSize: resource.defaultPageSize ?? pageSizes[0], mode: 'server' },
    sorters: { initial: resource.defaultSort ? [resource.defaultSort] : [] },
    filters: { initial: tabs ? tabFilters(tabs, activeTab!, resource.filters).filter((f) => f.value !== undefined) : [] },
    syncWithLocation: false,
    errorNotification: serverErrorNotification,
  });

  // A new tab (clicked, or the URL changed by back/forward) sets its filter and goes back to page 1.
  const listedTab = useRef(activeTab);
  useEffect(() => {
    if (!tabs || activeTab === undefined || listedTab.current === activeTab) return;
    listedTab.current = activeTab;
    setFilters(tabFilters(tabs, activeTab, resource.filters), 'merge');
    setCurrentPage(1);
  }, [activeTab, tabs, resource.filters, setFilters, setCurrentPage]);

  const openDetail = (record: Row) => {
    const detail = resource.detail;
    if (!detail) return;
    const to = detail.to(record as never);
    if (detail.delayMs) setTimeout(() => navigate(to), detail.delayMs);
    else navigate(to);
  };

  const createFields = useFormFields(resource, 'create');
  const [editingId, setEditingId] = useState<BaseKey>();

  const createForm = useModalForm<Row, HttpError, Values>({
    resource: resource.name,
    action: 'create',
    redirect: false,
    submitOnEnter: true,
    onMutationSuccess: (data) => resource.onSaved?.('create', data.data as Record<string, unknown>),
    ...crudNotifications(resource, 'create'),
  });
  const openCreate = () => (usesModal ? createForm.show() : navigate(`${basePath(resource)}/create`));
  const openEdit = (id: BaseKey) => (usesModal ? setEditingId(id) : navigate(`${basePath(resource)}/edit/${id}`));

  const setFilter = (field: string, value: unknown) => {
    const next: CrudFilter = { field, operator: 'eq', value };
    setFilters([next], 'merge');
    setCurrentPage(1);
  };

  // From 1200 px the table takes the page's width and its cells wrap, so every column shows and
  // 'Acciones' needs no sticky place (at 1440 px it covered 'Notificar', 'Cantidad (unidades)' and
  // 'Notas'). Narrower, the table scrolls sideways with 'Acciones' kept in view.
  const wide = useMediaQuery('(min-width: 1200px)');
  const phoneCards = usePhoneLayout() && resource.phoneCards !== undefined;
  const columns: TableColumnsType<Row> = resource.columns.map((column) => ({
    key: column.key ?? column.field,
    dataIndex: column.field,
    title: column.label,
    width: column.width,
    responsive: column.showFrom ? [column.showFrom] : undefined,
    sorter: column.value ? false : (column.sortable ?? capabilities.sortable.includes(column.field)),
    defaultSortOrder: column.value ? undefined : getDefaultSortOrder(column.field, sorters),
    render: (_: unknown, record: Row) => renderCell(column, record, recordSchema),
  }));

  if (actions.edit || actions.delete || actions.show || actions.extra?.length) {
    columns.push({
      key: 'actions',
      title: 'Acciones',
      align: 'right',
      fixed: wide ? undefined : 'right',
      // Buttons in a clickable row must not also open the row.
      onCell: () => ({ onClick: (event) => event.stopPropagation() }),
      render: (_: unknown, record: Row) => (
        <Space size={4} wrap={false} className="vigia-row-actions">
          {actions.extra
            ?.filter((action) => !action.when || action.when(record as never))
            .map((action) => {
              const to = action.to(record as never);
              return (
                <Tooltip key={action.label} title={action.title}>
                  <LinkButton size="small" icon={action.icon ? ICONS[action.icon] : undefined} to={to}>
                    {action.label}
                  </LinkButton>
                </Tooltip>
              );
            })}
          {actions.show && (
            <Tooltip title="Ver">
              <Button
                size="small"
                icon={<EyeOutlined />}
                aria-label="Ver"
                onClick={() => navigate(`${basePath(resource)}/show/${record.id}`)}
              />
            </Tooltip>
          )}
          {actions.edit && (
            <Tooltip title={editAccess?.can === false ? editAccess.reason : 'Editar'}>
              <Button
                size="small"
                icon={<EditOutlined />}
                aria-label="Editar"
                disabled={editAccess?.can === false}
                onClick={() => record.id !== undefined && openEdit(record.id)}
              />
            </Tooltip>
          )}
          {actions.delete && resource.deleteDialog && record.id !== undefined && (
            <Tooltip title={editAccess?.can === false ? editAccess.reason : 'Eliminar'}>
              <DeleteDialogButton
                resource={resource}
                id={record.id}
                dialog={resource.deleteDialog(record as never)}
                disabled={editAccess?.can === false}
              />
            </Tooltip>
          )}
          {actions.delete && !resource.deleteDialog && (
            <Tooltip title="Eliminar">
              <DeleteButton
                size="small"
                hideText
                aria-label="Eliminar"
                resource={resource.name}
                recordItemId={record.id}
                confirmTitle={labels.deleteConfirm?.(record as never) ?? '¿Está seguro?'}
                confirmOkText="Eliminar"
                confirmCancelText="Cancelar"
                {...crudNotifications(resource, 'delete')}
              />
            </Tooltip>
          )}
        </Space>
      ),
    });
  }

  const total = result.total ?? 0;
  const filtered = isUserFiltered(filters, tabs?.field);
  const tabEmpty = tabs?.items.find((t) => t.key === activeTab)?.empty;
  const emptyText = filtered ? 'No hay resultados para esta búsqueda.' : (tabEmpty ?? labels.empty ?? 'No hay registros');
  const titleColumn = resource.columns.find((c) => (c.key ?? c.field) === resource.phoneCards?.title);
  const actionsColumn = columns.find((c) => c.key === 'actions');
  const shownFilters = (resource.filters ?? []).filter((f) => filterOnTab(f, activeTab));
  const from = total === 0 ? 0 : (currentPage - 1) * pageSize + 1;
  const to = Math.min(currentPage * pageSize, total);

  return (
    <PageHeader
      title={labels.list}
      extra={
        resource.schemas.create ? (
          <Tooltip title={createAccess?.can === false ? createAccess.reason : undefined}>
            <Button type="primary" icon={<PlusOutlined />} onClick={openCreate} disabled={createAccess?.can === false}>
              {labels.create ?? 'Crear'}
            </Button>
          </Tooltip>
        ) : null
      }
    >
      {resource.intro && !introHidden && (
        <Alert
          type="info"
          showIcon
          className="vigia-intro"
          message={resource.intro.title}
          description={resource.intro.text}
          closable={{ 'aria-label': 'Ocultar esta información' }}
          afterClose={hideIntro}
        />
      )}

      {tabs && (
        <Tabs
          className="vigia-tabs"
          activeKey={activeTab}
          onChange={selectTab}
          items={tabs.items.map((t) => ({ key: t.key, label: t.label }))}
        />
      )}

      {shownFilters.length ? (
        <div className="vigia-filters">
          {shownFilters.map((filter) =>
            filter.widget === 'search' ? (
              <SearchFilter key={filter.field} filter={filter} onChange={(v) => setFilter(filter.field, v)} />
            ) : filter.widget === 'text' ? (
              <TextFilter key={filter.field} filter={filter} onChange={(v) => setFilter(filter.field, v)} />
            ) : filter.widget === 'date' ? (
              <DateFilter key={filter.field} filter={filter} onChange={(v) => setFilter(filter.field, v)} />
            ) : filter.widget === 'toggle' ? (
              <ToggleFilter
                key={filter.field}
                filter={filter}
                schema={capabilities.filters[filter.field]}
                onChange={(v) => setFilter(filter.field, v)}
              />
            ) : (
              <SelectFilter
                key={filter.field}
                filter={filter}
                schema={capabilities.filters[filter.field]}
                onChange={(v) => setFilter(filter.field, v)}
              />
            ),
          )}
        </div>
      ) : null}

      {/* A failed read says so in place (P212), never 'No hay registros' or 'Sin resultados'. */}
      <ReadState reads={[tableQuery]} what={`la lista «${labels.list}»`} isEmpty={total === 0}>
        {phoneCards ? (
          <PhoneCards<Row>
            label={labels.list}
            rows={(tableProps.dataSource as Row[] | undefined) ?? []}
            rowKey={(r) => String(r.id)}
            loading={!!tableProps.loading}
            empty={emptyText}
            title={(r) => titleColumn && renderCell(titleColumn, r, recordSchema)}
            fields={resource.columns
              .filter((c) => c !== titleColumn)
              .map((c) => ({ key: c.key ?? c.field, label: c.label, render: (r: Row) => renderCell(c, r, recordSchema) }))}
            actions={actionsColumn ? (r) => actionsColumn.render?.(undefined, r, 0) as ReactNode : undefined}
          />
        ) : (
          <Table<Row>
            {...tableProps}
            rowKey="id"
            columns={columns}
            loading={labels.loading ? { spinning: !!tableProps.loading, tip: labels.loading } : tableProps.loading}
            onRow={
              resource.rowClick === 'edit' && editAccess?.can !== false
                ? (record) => ({ onClick: () => record.id !== undefined && openEdit(record.id), style: { cursor: 'pointer' } })
                : resource.detail
                  ? (record) => ({ onClick: () => openDetail(record), style: { cursor: 'pointer' } })
                  : undefined
            }
            pagination={false}
            scroll={wide ? undefined : { x: 'max-content' }}
            locale={{ emptyText }}
            onChange={(_pagination, filters, sorter, extra) =>
              tableProps.onChange?.({ current: currentPage, pageSize }, filters, sorter, extra)
            }
          />
        )}

        <div className="vigia-table-footer">
          <Space size={8}>
            <Typography.Text type="secondary">{labels.pageSize}</Typography.Text>
            <Select
              size="small"
              value={pageSize}
              aria-label={labels.pageSize}
              options={pageSizes.map((n) => ({ value: n, label: String(n) }))}
              onChange={(size) => {
                setPageSize(size);
                setCurrentPage(1);
              }}
            />
          </Space>
          <Typography.Text type="secondary">{total === 0 ? 'Sin resultados' : `${from}–${to} de ${total}`}</Typography.Text>
          <Pagination
            size="small"
            current={currentPage}
            pageSize={pageSize}
            total={total}
            showSizeChanger={false}
            onChange={(page) => setCurrentPage(page)}
            hideOnSinglePage={false}
          />
        </div>
      </ReadState>

      {usesModal && resource.schemas.create && (
        <CrudModalForm
          resource={resource}
          action="create"
          title={labels.createTitle ?? labels.create ?? 'Crear'}
          fields={createFields}
          form={createForm}
        />
      )}
      {usesModal && actions.edit && editingId !== undefined && (
        <CrudEditDialog key={editingId} resource={resource} id={editingId} onClosed={() => setEditingId(undefined)} />
      )}
    </PageHeader>
  );
}
