import { useState } from 'react';
import { useInvalidate, useList } from '@refinedev/core';
import { Alert, Button, Form, Input, Modal, Popconfirm, Space, Table, Tag, Tooltip } from 'antd';
import { CheckCircleOutlined, DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import type { OpenNotificationParams } from '@refinedev/core';
import type { Schemas } from '../contract';
import { useApiMutation, type ApiWriteCallbacks } from '../providers/calls';
import { serverError, success } from '../providers/notices';
import {
  PROMPT_COMPACT_PAGE_SIZES,
  PROMPT_DISPLAY_CUT,
  PROMPT_MESSAGES,
  PROMPT_PAGE_SIZES,
  PROMPT_STATUS,
  truncateText,
  validatePromptText,
} from '@vigia/contract/rules/prompts';
import './prompts.css';
import { SectionTitle } from './SectionTitle';
import { ReadState } from '../ui/ReadState';

type Prompt = Schemas['Prompt'];

/** Whose instructions: the client's global ones, a tag's or a patient's. */
export type PromptsOwner = { kind: 'client' } | { kind: 'tag'; id: number } | { kind: 'patient'; id: number };

type Mutate = ReturnType<typeof useApiMutation>['mutate'];
type Notices = { successNotification: () => OpenNotificationParams; errorNotification: (error?: unknown) => OpenNotificationParams };
type PromptChange = { create: Schemas['PromptInput'] } | ({ update: number } & Schemas['PromptUpdate']) | { remove: number };

/** The owner's list path, which is also its Refine resource (`patients/12/prompts`). */
function listPath(owner: PromptsOwner): string {
  return owner.kind === 'client' ? '/client_prompts' : `/${owner.kind === 'tag' ? 'tags' : 'patients'}/${owner.id}/prompts`;
}

/** One write of the owner's instructions, on the contract's operation for that owner. */
function writePrompt(mutate: Mutate, owner: PromptsOwner, change: PromptChange, notices: Notices, callbacks: ApiWriteCallbacks<unknown>) {
  if (owner.kind === 'client') {
    if ('create' in change) return mutate({ method: 'post', path: '/client_prompts', values: change.create, ...notices }, callbacks);
    if ('remove' in change)
      return mutate({ method: 'delete', path: '/client_prompts/{promptId}', params: { promptId: change.remove }, ...notices }, callbacks);
    const { update: promptId, ...values } = change;
    return mutate({ method: 'put', path: '/client_prompts/{promptId}', params: { promptId }, values, ...notices }, callbacks);
  }
  if (owner.kind === 'tag') {
    const { id } = owner;
    if ('create' in change)
      return mutate({ method: 'post', path: '/tags/{id}/prompts', params: { id }, values: change.create, ...notices }, callbacks);
    if ('remove' in change)
      return mutate(
        { method: 'delete', path: '/tags/{id}/prompts/{promptId}', params: { id, promptId: change.remove }, ...notices },
        callbacks,
      );
    const { update: promptId, ...values } = change;
    return mutate({ method: 'put', path: '/tags/{id}/prompts/{promptId}', params: { id, promptId }, values, ...notices }, callbacks);
  }
  const { id } = owner;
  if ('create' in change)
    return mutate({ method: 'post', path: '/patients/{id}/prompts', params: { id }, values: change.create, ...notices }, callbacks);
  if ('remove' in change)
    return mutate(
      { method: 'delete', path: '/patients/{id}/prompts/{promptId}', params: { id, promptId: change.remove }, ...notices },
      callbacks,
    );
  const { update: promptId, ...values } = change;
  return mutate({ method: 'put', path: '/patients/{id}/prompts/{promptId}', params: { id, promptId }, values, ...notices }, callbacks);
}

export interface PromptsPanelProps {
  owner: PromptsOwner;
  heading: string;
  titles: { create: string; edit: string };
  canWrite: boolean;
  /** Why writing is off (role, deceased patient), shown on the disabled button. */
  disabledReason?: string;
  allowDelete?: boolean;
  /** Hides the create button and the actions (01 §2). */
  compact?: boolean;
  /** Reload when this becomes true (tab shown). */
  active?: boolean;
}

/** AI instructions of one owner with their history (01 §2, 02 §2.11): one active at a time. */
export function PromptsPanel({ owner, heading, titles, canWrite, disabledReason, allowDelete, compact, active = true }: PromptsPanelProps) {
  const sizes = compact ? PROMPT_COMPACT_PAGE_SIZES : PROMPT_PAGE_SIZES;
  const [page, setPage] = useState({ current: 1, pageSize: 10 });
  const [editing, setEditing] = useState<Prompt | 'new' | null>(null);
  const [text, setText] = useState('');
  const [touched, setTouched] = useState(false);
  const resource = listPath(owner).replace(/^\//, '');
  const { query, result } = useList<Prompt>({
    resource,
    pagination: { currentPage: page.current, pageSize: page.pageSize, mode: 'server' },
    queryOptions: { enabled: active, placeholderData: (previous) => previous },
    errorNotification: serverError('No fue posible cargar las instrucciones'),
  });
  const data = { rows: result.data, total: result.total ?? 0 };
  const loading = query.isFetching;
  const invalidate = useInvalidate();
  const { mutate, mutation } = useApiMutation();
  const saving =
    mutation.isPending && (mutation.variables?.method === 'post' || (mutation.variables?.values as { text?: string })?.text !== undefined);
  const reload = () => invalidate({ resource, invalidates: ['list'] });

  const open = (prompt: Prompt | 'new') => {
    setEditing(prompt);
    setText(prompt === 'new' ? '' : prompt.text);
    setTouched(false);
  };

  const error = validatePromptText(text);
  const save = () => {
    if (error || !editing) return;
    const creating = editing === 'new';
    writePrompt(
      mutate,
      owner,
      creating ? { create: { text: text.trim(), status: PROMPT_STATUS.active } } : { update: editing.id, text: text.trim() },
      {
        successNotification: success(creating ? 'Instrucción creada' : 'Instrucción actualizada'),
        errorNotification: serverError('No fue posible guardar la instrucción'),
      },
      {
        onSuccess: () => {
          setEditing(null);
          if (creating && page.current !== 1) setPage((p) => ({ ...p, current: 1 }));
          else void reload();
        },
      },
    );
  };

  const activate = (prompt: Prompt) =>
    writePrompt(
      mutate,
      owner,
      { update: prompt.id, status: PROMPT_STATUS.active },
      { successNotification: success('Instrucción activada'), errorNotification: serverError('No fue posible activar la instrucción') },
      { onSuccess: () => void reload() },
    );

  const remove = (prompt: Prompt) =>
    writePrompt(
      mutate,
      owner,
      { remove: prompt.id },
      { successNotification: success('Instrucción eliminada'), errorNotification: serverError('No fue posible eliminar la instrucción') },
      { onSuccess: () => void reload() },
    );

  const columns = [
    {
      title: 'Texto',
      dataIndex: 'text',
      render: (value: string) => <span className="prompts-text">{truncateText(value, PROMPT_DISPLAY_CUT)}</span>,
    },
    {
      title: 'Estado',
      dataIndex: 'status',
      width: 110,
      render: (status: number) => (status === PROMPT_STATUS.active ? <Tag color="green">Activo</Tag> : <Tag>Inactivo</Tag>),
    },
    ...(compact
      ? []
      : [
          {
            title: 'Acciones',
            key: 'actions',
            width: 150,
            render: (_: unknown, prompt: Prompt) => {
              const isActive = prompt.status === PROMPT_STATUS.active;
              return (
                <Space size={4}>
                  <Tooltip title={!isActive ? PROMPT_MESSAGES.onlyActive : !canWrite ? disabledReason : 'Editar'}>
                    <Button
                      aria-label="Editar instrucción"
                      type="text"
                      icon={<EditOutlined />}
                      disabled={!isActive || !canWrite}
                      onClick={() => open(prompt)}
                    />
                  </Tooltip>
                  {!isActive && (
                    <Popconfirm
                      title="¿Activar esta instrucción?"
                      description="La instrucción activa pasará a inactiva."
                      okText="Activar"
                      cancelText="Cancelar"
                      onConfirm={() => activate(prompt)}
                      disabled={!canWrite}
                    >
                      <Tooltip title={canWrite ? 'Activar' : disabledReason}>
                        <Button aria-label="Activar instrucción" type="text" icon={<CheckCircleOutlined />} disabled={!canWrite} />
                      </Tooltip>
                    </Popconfirm>
                  )}
                  {allowDelete && (
                    <Popconfirm
                      title="¿Eliminar esta instrucción?"
                      okText="Eliminar"
                      cancelText="Cancelar"
                      okButtonProps={{ danger: true }}
                      onConfirm={() => remove(prompt)}
                      disabled={!canWrite}
                    >
                      <Button aria-label="Eliminar instrucción" type="text" danger icon={<DeleteOutlined />} disabled={!canWrite} />
                    </Popconfirm>
                  )}
                </Space>
              );
            },
          },
        ]),
  ];

  return (
    <div className="prompts-panel">
      <div className="prompts-head">
        <SectionTitle className="prompts-heading">{heading}</SectionTitle>
        {!compact && (
          <Tooltip title={canWrite ? undefined : disabledReason}>
            <Button type="primary" icon={<PlusOutlined />} disabled={!canWrite} onClick={() => open('new')}>
              Crear instrucción
            </Button>
          </Tooltip>
        )}
      </div>
      {!compact && (
        <Alert
          type="info"
          showIcon
          className="prompts-info"
          message="Solo una instrucción está activa a la vez: al crear o activar una, las demás quedan inactivas."
        />
      )}
      {/* A failed read is never 'Aún no hay instrucciones' (P212). */}
      <ReadState reads={[query]} what="las instrucciones" isEmpty={data.rows.length === 0}>
        <Table<Prompt>
          rowKey="id"
          size="middle"
          loading={loading}
          dataSource={data.rows}
          columns={columns}
          locale={{ emptyText: 'Aún no hay instrucciones' }}
          pagination={{
            current: page.current,
            pageSize: page.pageSize,
            total: data.total,
            showSizeChanger: true,
            pageSizeOptions: sizes.map(String),
            locale: { items_per_page: '/ página' },
            onChange: (current, pageSize) => setPage({ current: pageSize !== page.pageSize ? 1 : current, pageSize }),
          }}
        />
      </ReadState>
      <Modal
        open={editing !== null}
        title={editing === 'new' ? titles.create : titles.edit}
        onCancel={() => setEditing(null)}
        destroyOnHidden
        footer={[
          <Button key="cancel" onClick={() => setEditing(null)}>
            Cancelar
          </Button>,
          <Button key="save" type="primary" loading={saving} disabled={!!error} onClick={save}>
            Guardar
          </Button>,
        ]}
      >
        <Form layout="vertical">
          <Form.Item
            label="Instrucción para IA"
            htmlFor="prompt-text"
            validateStatus={touched && error ? 'error' : undefined}
            help={touched && error ? error : undefined}
          >
            <Input.TextArea
              id="prompt-text"
              rows={4}
              value={text}
              maxLength={4000}
              onChange={(e) => {
                setText(e.target.value);
                setTouched(true);
              }}
              onBlur={() => setTouched(true)}
            />
          </Form.Item>
        </Form>
      </Modal>
    </div>
  );
}
