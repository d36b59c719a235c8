import { useEffect, useState } from 'react';
import { useInvalidate, useList, useOne, useUpdate } from '@refinedev/core';
import { Button, Card, Form, InputNumber, Result, Select, Space, Table, Tag, Typography } from 'antd';
import { ReloadOutlined } from '@ant-design/icons';
import { Link } from 'react-router';
import { formatWhen } from '@vigia/contract/rules/dates';
import { can, isRole } from '@vigia/contract/rules/access';
import type { Schemas } from '../../contract';
import { PageHeader } from '../../crud/PageHeader';
import { contractDoc } from '../../crud/contract-doc';
import { enumLabel, enumOptions, objectSchema } from '../../crud/schema-rules';
import { usePageTitle } from '../../layout/usePageTitle';
import { FORBIDDEN_REASON } from '../../providers/access';
import { fieldErrors } from '../../providers/errors';
import { loadFailed, serverError, success } from '../../providers/notices';
import { readSession, staffTimeZone } from '../../session';
import '../../crud/crud.css';

type NotificationRecord = Schemas['NotificationRecord'];
type Client = Schemas['Client'];

const TITLE = 'Notificaciones';
const RESOURCE = 'notifications';
const PAGE_SIZES = [10, 20, 50];
const STATE_COLORS: Record<NotificationRecord['state'], string> = { queued: 'gold', sent: 'green', failed: 'red' };

/** The filters and their labels come from the contract's enumerations (x-labels). */
const FILTERS = [
  { field: 'channel', label: 'Canal', schema: 'NotificationChannel' },
  { field: 'reason', label: 'Motivo', schema: 'NotificationReason' },
  { field: 'audience', label: 'Destinatario', schema: 'NotificationAudience' },
  { field: 'state', label: 'Estado', schema: 'NotificationState' },
] as const;
type FilterField = (typeof FILTERS)[number]['field'];
const schemaOf = (name: string) => objectSchema(contractDoc, name);
const labelOf = (name: string, value: unknown) => enumLabel(schemaOf(name), value) ?? '';

/** 'Escalamiento': minutes without an entry before a high-priority alert is escalated (P174). */
function EscalationSetting({ clientId }: { clientId: number }) {
  const { result: client } = useOne<Client>({ resource: 'clients', id: clientId, errorNotification: false });
  const { mutate, mutation } = useUpdate<Client>();
  const [form] = Form.useForm<{ escalation_minutes: number }>();
  useEffect(() => {
    if (client) form.setFieldsValue({ escalation_minutes: client.escalation_minutes ?? 30 });
  }, [client, form]);
  const save = (values: { escalation_minutes: number }) =>
    mutate(
      {
        resource: 'clients',
        id: clientId,
        values,
        meta: { method: 'put' },
        successNotification: success('Tiempo de escalamiento guardado'),
        errorNotification: serverError('No fue posible guardar el tiempo de escalamiento'),
      },
      { onError: (error) => form.setFields(fieldErrors<{ escalation_minutes: number }>(error)) },
    );
  return (
    <Card size="small" title="Escalamiento de alertas de prioridad alta">
      <Form form={form} layout="inline" onFinish={save}>
        <Form.Item
          name="escalation_minutes"
          label="Minutos sin gestión antes de escalar"
          rules={[{ required: true, type: 'integer', min: 5, max: 1440, message: 'Debe estar entre 5 y 1440 minutos' }]}
        >
          <InputNumber min={5} max={1440} precision={0} />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={mutation.isPending}>
          Guardar
        </Button>
      </Form>
    </Card>
  );
}

/**
 * /notifications (issue 20, P177): every message the product sent or tried, newest first, with the
 * recipient masked, filters by channel, reason, recipient and state, and a link to the alert.
 * Administrators only; they also set the escalation delay here.
 */
export default function NotificationsPage() {
  usePageTitle(TITLE);
  const session = readSession();
  const role = session?.role_name;
  const allowed = isRole(role) && can(role, 'administer');
  const [filters, setFilters] = useState<Partial<Record<FilterField, string>>>({});
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(20);
  const { query, result } = useList<NotificationRecord>({
    resource: RESOURCE,
    filters: Object.entries(filters).flatMap(([field, value]) => (value ? [{ field, operator: 'eq' as const, value }] : [])),
    pagination: { currentPage: page, pageSize, mode: 'server' },
    queryOptions: { enabled: allowed, placeholderData: (previous) => previous },
    errorNotification: loadFailed,
  });
  const invalidate = useInvalidate();
  const timeZone = staffTimeZone();

  if (!allowed) {
    return (
      <PageHeader title={TITLE}>
        <Card>
          <Result status="403" title="Solo los administradores ven el registro de notificaciones" subTitle={FORBIDDEN_REASON} />
        </Card>
      </PageHeader>
    );
  }

  const columns = [
    { key: 'created_at', title: 'Fecha', render: (_: unknown, n: NotificationRecord) => formatWhen(n.created_at, timeZone) },
    {
      key: 'recipient',
      title: 'Destinatario',
      render: (_: unknown, n: NotificationRecord) => (
        <Space direction="vertical" size={0}>
          <span>{n.recipient_name ?? labelOf('NotificationAudience', n.audience)}</span>
          <Typography.Text type="secondary">
            {n.recipient} · {labelOf('NotificationAudience', n.audience)}
          </Typography.Text>
        </Space>
      ),
    },
    { key: 'channel', title: 'Canal', render: (_: unknown, n: NotificationRecord) => labelOf('NotificationChannel', n.channel) },
    {
      key: 'reason',
      title: 'Motivo',
      render: (_: unknown, n: NotificationRecord) =>
        `${labelOf('NotificationReason', n.reason)}${n.alert_count > 1 ? ` (resumen de ${n.alert_count} alertas)` : ''}`,
    },
    {
      key: 'state',
      title: 'Estado',
      render: (_: unknown, n: NotificationRecord) => (
        <Space direction="vertical" size={0}>
          <Tag color={STATE_COLORS[n.state]}>{labelOf('NotificationState', n.state)}</Tag>
          {n.error && <Typography.Text type="secondary">{n.error}</Typography.Text>}
        </Space>
      ),
    },
    { key: 'summary', title: 'Mensaje', render: (_: unknown, n: NotificationRecord) => n.summary },
    {
      key: 'alert',
      title: 'Alerta',
      render: (_: unknown, n: NotificationRecord) =>
        n.alert_id && n.patient_id ? <Link to={`/patients/${n.patient_id}/alerts/${n.alert_id}`}>Ver alerta #{n.alert_id}</Link> : null,
    },
  ];

  return (
    <PageHeader
      title={TITLE}
      extra={
        <Button icon={<ReloadOutlined />} onClick={() => void invalidate({ resource: RESOURCE, invalidates: ['list'] })}>
          Actualizar
        </Button>
      }
    >
      <Space direction="vertical" size={16} style={{ width: '100%' }}>
        <EscalationSetting clientId={session?.client_id ?? 0} />
        <Card>
          <Space wrap style={{ marginBottom: 16 }}>
            {FILTERS.map((f) => (
              <Select
                key={f.field}
                aria-label={f.label}
                style={{ minWidth: 170 }}
                value={filters[f.field] ?? ''}
                options={[{ value: '', label: `${f.label}: todos` }, ...enumOptions(schemaOf(f.schema))]}
                onChange={(value: string) => {
                  setPage(1);
                  setFilters((current) => ({ ...current, [f.field]: value }));
                }}
              />
            ))}
          </Space>
          <Table<NotificationRecord>
            rowKey="id"
            size="small"
            loading={query.isFetching}
            dataSource={result?.data ?? []}
            columns={columns}
            scroll={{ x: true }}
            locale={{ emptyText: 'No hay notificaciones' }}
            pagination={{
              current: page,
              pageSize,
              total: result?.total ?? 0,
              pageSizeOptions: PAGE_SIZES,
              showSizeChanger: true,
              locale: { items_per_page: '/ página' },
              onChange: (p, size) => {
                setPage(size !== pageSize ? 1 : p);
                setPageSize(size);
              },
            }}
          />
        </Card>
      </Space>
    </PageHeader>
  );
}
