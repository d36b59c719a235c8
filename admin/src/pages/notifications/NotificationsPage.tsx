import { useState } from 'react';
import { useOne, useUpdate } from '@refinedev/core';
import { Button, Card, Form, Grid, InputNumber, List, Select, Skeleton, Space, Switch, Table, Tag, Typography } from 'antd';
import { Link } from 'react-router';
import { formatWhen } from '@vigia/contract/rules/dates';
import type { Schemas } from '../../contract';
import { AdminOnlyListPage, emptyTextOf, useAdminOnlyList } from '../../crud/AdminOnlyList';
import { contractDoc } from '../../crud/contract-doc';
import { describeField, enumLabel, enumOptions, objectSchema, toFormRules } from '../../crud/schema-rules';
import { useFirstLoad } from '../../hooks/useFirstLoad';
import { usePageTitle } from '../../layout/usePageTitle';
import { fieldErrors } from '../../providers/errors';
import { serverError, success } from '../../providers/notices';
import { readSession, staffTimeZone } from '../../session';
import '../../crud/crud.css';

type NotificationRecord = Schemas['NotificationRecord'];
type Client = Schemas['Client'];

const TITLE = 'Notificaciones';
const RESOURCE = 'notifications';
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

/** The setting's range and message, as the API checks them (ClientSettingsInput); the page always sends it. */
const ESCALATION = { ...describeField(contractDoc, 'ClientSettingsInput', 'escalation_minutes'), required: true };
const ESCALATION_RULES = toFormRules(ESCALATION);

type Settings = Pick<Schemas['ClientSettingsInput'], 'escalation_minutes' | 'message_full_name' | 'message_rule_name'>;

/** 'Escalamiento': minutes without an entry before a high-priority alert is escalated (P174); what messages show. */
function EscalationSetting({ clientId, narrow }: { clientId: number; narrow: boolean }) {
  const { result: client, query } = useOne<Client>({ resource: 'clients', id: clientId, errorNotification: false });
  const loaded = useFirstLoad(client, query.isFetching);
  const { mutate, mutation } = useUpdate<Client>();
  const [form] = Form.useForm<Settings>();
  const save = (values: Settings) =>
    mutate(
      {
        resource: 'clients',
        id: clientId,
        values,
        meta: { method: 'put' },
        successNotification: success('Configuración de avisos guardada'),
        errorNotification: serverError('No fue posible guardar la configuración de avisos'),
      },
      { onError: (error) => form.setFields(fieldErrors<Settings>(error)) },
    );
  return (
    <Card size="small" title={<span style={{ whiteSpace: 'normal' }}>Escalamiento y contenido de los avisos</span>}>
      {!loaded ? (
        <Skeleton.Input active />
      ) : (
        <Form
          form={form}
          layout={narrow ? 'vertical' : 'inline'}
          onFinish={save}
          initialValues={{
            escalation_minutes: loaded.escalation_minutes ?? 30,
            message_full_name: loaded.message_full_name ?? false,
            message_rule_name: loaded.message_rule_name ?? false,
          }}
        >
          {/* No min/max on the input: Ant Design would clamp an out-of-range value on blur and save
              another number; the contract's rule refuses it with its message instead (issue 41). */}
          <Form.Item
            name="escalation_minutes"
            label="Minutos sin gestión antes de escalar"
            rules={ESCALATION_RULES}
            extra="Se aplica también a las alertas abiertas, contado desde su apertura."
          >
            <InputNumber precision={0} style={{ width: narrow ? '100%' : 120 }} />
          </Form.Item>
          {/* What an e-mail subject or a phone's preview shows (issue 41): by default initials and
              the document's last digits, the value and the priority; the rest behind the link. */}
          <Form.Item
            name="message_full_name"
            label="Nombre completo del paciente en los avisos"
            valuePropName="checked"
            extra="Si no, sus iniciales y el final del documento."
          >
            <Switch />
          </Form.Item>
          <Form.Item
            name="message_rule_name"
            label="Nombre de la regla en los avisos"
            valuePropName="checked"
            extra="Puede revelar una condición; si no, solo el valor y la prioridad."
          >
            <Switch />
          </Form.Item>
          <Form.Item>
            <Button type="primary" htmlType="submit" loading={mutation.isPending}>
              Guardar
            </Button>
          </Form.Item>
        </Form>
      )}
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
  const [filters, setFilters] = useState<Partial<Record<FilterField, string>>>({});
  const list = useAdminOnlyList<NotificationRecord>(
    RESOURCE,
    Object.entries(filters).flatMap(([field, value]) => (value ? [{ field, operator: 'eq' as const, value }] : [])),
  );
  const timeZone = staffTimeZone();
  // A phone gets one card per message (stacked rows) instead of a table wider than the screen.
  const narrow = !Grid.useBreakpoint().md;

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
    <AdminOnlyListPage title={TITLE} forbidden="Solo los administradores ven el registro de notificaciones" list={list}>
      <Space direction="vertical" size={16} style={{ width: '100%' }}>
        <EscalationSetting clientId={session?.client_id ?? 0} narrow={narrow} />
        <Card>
          <Space wrap direction={narrow ? 'vertical' : 'horizontal'} style={{ marginBottom: 16, width: narrow ? '100%' : undefined }}>
            {FILTERS.map((f) => (
              <Select
                key={f.field}
                aria-label={f.label}
                style={narrow ? { width: '100%' } : { minWidth: 170 }}
                value={filters[f.field] ?? ''}
                options={[{ value: '', label: `${f.label}: todos` }, ...enumOptions(schemaOf(f.schema))]}
                onChange={(value: string) => {
                  setFilters((current) => ({ ...current, [f.field]: value }));
                }}
              />
            ))}
          </Space>
          {narrow ? (
            <List<NotificationRecord>
              className="vigia-notification-cards"
              loading={list.loading}
              dataSource={list.rows}
              rowKey="id"
              locale={{ emptyText: emptyTextOf(list, 'No hay notificaciones') }}
              pagination={{
                current: list.pagination.current,
                pageSize: list.pagination.pageSize,
                total: list.pagination.total,
                onChange: list.pagination.onChange,
                simple: true,
                size: 'small',
              }}
              renderItem={(n) => (
                <List.Item className="vigia-notification-card">
                  <Space direction="vertical" size={2} style={{ width: '100%', minWidth: 0 }}>
                    {columns.map((c) => (
                      <div key={c.key} style={{ overflowWrap: 'anywhere' }}>
                        <Typography.Text type="secondary">{c.title}: </Typography.Text>
                        {c.render(undefined, n)}
                      </div>
                    ))}
                  </Space>
                </List.Item>
              )}
            />
          ) : (
            <Table<NotificationRecord>
              rowKey="id"
              size="small"
              loading={list.loading}
              dataSource={list.rows}
              columns={columns}
              scroll={{ x: true }}
              locale={{ emptyText: emptyTextOf(list, 'No hay notificaciones') }}
              pagination={list.pagination}
            />
          )}
        </Card>
      </Space>
    </AdminOnlyListPage>
  );
}
