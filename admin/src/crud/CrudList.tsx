import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { Alert, Button, Form, Input, Modal, Pagination, Select, Space, Table, Tooltip, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import {
  EditOutlined,
  EyeOutlined,
  LinkOutlined,
  PlusOutlined,
  RobotOutlined,
  SettingOutlined,
} from '@ant-design/icons';
import { DeleteButton, getDefaultSortOrder, List, useModalForm, useTable, type UseModalFormReturnType } from '@refinedev/antd';
import type { BaseKey, BaseRecord, CrudFilter, HttpError } from '@refinedev/core';
import { contractDoc } from './contract-doc';
import { CrudFormFields, useFormFields, type FormField } from './form';
import { crudNotifications, serverErrorNotification } from './notifications';
import { tagColor } from './palette';
import { renderCell } from './renderers';
import { enumOptions, listCapabilities, objectSchema, toRequestBody, type JsonSchema } from './schema-rules';
import type { ActionIcon, AnyResource, FilterDeclaration } from './types';
import { LinkButton } from '../layout/LinkButton';
import { usePageTitle } from '../layout/usePageTitle';
import './crud.css';

type Row = BaseRecord & Record<string, unknown>;
type Values = Record<string, unknown>;

const ICONS: Record<ActionIcon, ReactNode> = {
  ai: <RobotOutlined />,
  view: <EyeOutlined />,
  link: <LinkOutlined />,
  settings: <SettingOutlined />,
};

const SEARCH_DELAY_MS = 350;

function SearchFilter({ filter, onChange }: { filter: FilterDeclaration; onChange: (value?: string) => void }) {
  const [text, setText] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => onChange(text.trim() || undefined), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [text]);
  return (
    <Input.Search
      allowClear
      aria-label={filter.label}
      placeholder={filter.placeholder ?? filter.label}
      value={text}
      onChange={(e) => setText(e.target.value)}
      onSearch={(value) => onChange(value.trim() || undefined)}
      className="vigia-filter-search"
    />
  );
}

function SelectFilter({
  filter,
  schema,
  onChange,
}: {
  filter: FilterDeclaration;
  schema?: JsonSchema;
  onChange: (value?: string | number) => void;
}) {
  const options = (schema ? enumOptions(schema) : []).map((o) => ({
    value: o.value,
    label:
      filter.widget === 'color-select' ? (
        <span className="vigia-option-color">
          <span className="vigia-dot" style={{ background: tagColor(o.value).background }} />
          {o.label}
        </span>
      ) : (
        o.label
      ),
    text: o.label,
  }));
  return (
    <Select
      allowClear
      aria-label={filter.label}
      placeholder={filter.placeholder ?? filter.label}
      options={options}
      optionFilterProp="text"
      onChange={(value) => onChange(value ?? undefined)}
      className="vigia-filter-select"
      popupMatchSelectWidth={false}
    />
  );
}

type ModalFormProps = {
  resource: AnyResource;
  title: string;
  fields: FormField[];
  form: UseModalFormReturnType<Row, HttpError, Values>;
};

function CrudModalForm({ resource, title, fields, form }: ModalFormProps) {
  const { modalProps, formProps } = form;
  return (
    <Modal {...modalProps} title={title} okText="Guardar" cancelText="Cancelar" destroyOnHidden width={520}>
      <Form
        {...formProps}
        layout="vertical"
        requiredMark
        onFinish={(values) => formProps.onFinish?.(toRequestBody(fields.map((f) => f.spec), values as Values))}
      >
        <CrudFormFields resource={resource} fields={fields} autoFocus />
      </Form>
    </Modal>
  );
}

/** The list screen of any declaration: filters, table, page-size selector, create/edit dialogs. */
export function CrudList({ resource }: { resource: AnyResource }) {
  const navigate = useNavigate();
  const { labels } = resource;
  usePageTitle(labels.list);
  const recordSchema = useMemo(() => objectSchema(contractDoc, resource.schemas.record), [resource]);
  const capabilities = useMemo(() => listCapabilities(contractDoc, resource.name), [resource]);
  const pageSizes = resource.pageSizes ?? [10, 20, 50];
  const usesModal = (resource.form ?? 'modal') === 'modal';
  const actions = resource.actions ?? {};

  const { tableProps, sorters, setFilters, currentPage, setCurrentPage, pageSize, setPageSize, result } =
    useTable<Row, HttpError>({
      resource: resource.name,
      pagination: { pageSize: resource.defaultPageSize ?? pageSizes[0], mode: 'server' },
      sorters: { initial: resource.defaultSort ? [resource.defaultSort] : [] },
      syncWithLocation: false,
      errorNotification: serverErrorNotification,
    });

  const createFields = useFormFields(resource, 'create');
  const editFields = useFormFields(resource, 'edit');

  const createForm = useModalForm<Row, HttpError, Values>({
    resource: resource.name,
    action: 'create',
    redirect: false,
    submitOnEnter: true,
    ...crudNotifications(resource, 'create'),
  });
  const editForm = useModalForm<Row, HttpError, Values>({
    resource: resource.name,
    action: 'edit',
    redirect: false,
    submitOnEnter: true,
    ...crudNotifications(resource, 'edit'),
  });

  const openCreate = () => (usesModal ? createForm.show() : navigate(`/${resource.name}/create`));
  const openEdit = (id: BaseKey) => (usesModal ? editForm.show(id) : navigate(`/${resource.name}/edit/${id}`));

  const setFilter = (field: string, value: unknown) => {
    const next: CrudFilter = { field, operator: 'eq', value };
    setFilters([next], 'merge');
    setCurrentPage(1);
  };

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
      render: (_: unknown, record: Row) => (
        <Space size={4} wrap={false} className="vigia-row-actions">
          {actions.extra?.map((action) => {
            const to = action.to(record as never);
            return (
              <LinkButton
                key={action.label}
                size="small"
                icon={action.icon ? ICONS[action.icon] : undefined}
                to={to}
                title={action.title}
              >
                {action.label}
              </LinkButton>
            );
          })}
          {actions.show && (
            <Tooltip title="Ver">
              <Button size="small" icon={<EyeOutlined />} aria-label="Ver" onClick={() => navigate(`/${resource.name}/show/${record.id}`)} />
            </Tooltip>
          )}
          {actions.edit && (
            <Tooltip title="Editar">
              <Button size="small" icon={<EditOutlined />} aria-label="Editar" onClick={() => record.id !== undefined && openEdit(record.id)} />
            </Tooltip>
          )}
          {actions.delete && (
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
  const from = total === 0 ? 0 : (currentPage - 1) * pageSize + 1;
  const to = Math.min(currentPage * pageSize, total);

  return (
    <List
      title={labels.list}
      breadcrumb={false}
      headerButtons={
        resource.schemas.create ? (
          <Button type="primary" icon={<PlusOutlined />} onClick={openCreate}>
            {labels.create ?? 'Crear'}
          </Button>
        ) : null
      }
    >
      {resource.intro && (
        <Alert
          type="info"
          showIcon
          className="vigia-intro"
          message={resource.intro.title}
          description={resource.intro.text}
          closable
        />
      )}

      {resource.filters?.length ? (
        <div className="vigia-filters">
          {resource.filters.map((filter) =>
            filter.widget === 'search' ? (
              <SearchFilter key={filter.field} filter={filter} onChange={(v) => setFilter(filter.field, v)} />
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

      <Table<Row>
        {...tableProps}
        rowKey="id"
        columns={columns}
        pagination={false}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: labels.empty ?? 'No hay registros' }}
        onChange={(_pagination, filters, sorter, extra) =>
          tableProps.onChange?.({ current: currentPage, pageSize }, filters, sorter, extra)
        }
      />

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
        <Typography.Text type="secondary">
          {from}–{to} de {total}
        </Typography.Text>
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

      {usesModal && resource.schemas.create && (
        <CrudModalForm resource={resource} title={labels.createTitle ?? labels.create ?? 'Crear'} fields={createFields} form={createForm} />
      )}
      {usesModal && actions.edit && (
        <CrudModalForm resource={resource} title={labels.editTitle ?? 'Editar'} fields={editFields} form={editForm} />
      )}
    </List>
  );
}
