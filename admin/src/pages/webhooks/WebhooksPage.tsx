import { useState } from 'react';
import { Alert, Button, Card, Descriptions, Form, Input, Skeleton, Space, Switch, Table, Tag, Typography } from 'antd';
import { CheckCircleFilled, ReloadOutlined, SendOutlined } from '@ant-design/icons';
import { MESSAGES, validateCode } from '@vigia/contract/rules/validation';
import { PageHeader } from '../../crud/PageHeader';
import { usePageTitle } from '../../layout/usePageTitle';
import { useInvalidate, useList, useOne, useUpdate } from '@refinedev/core';
import type { Schemas } from '../../contract';
import { useApiGetOnDemand, useApiMutation } from '../../providers/calls';
import { fieldErrors } from '../../providers/errors';
import { serverError, success } from '../../providers/notices';
import { roleAccess } from '../../providers/access';
import { readSession, staffTimeZone } from '../../session';
import { formatWhen } from '@vigia/contract/rules/dates';
import { ReadState, ReadStateView, useReadState } from '../../ui/ReadState';
import './webhooks.css';

type Client = Schemas['Client'];
type WebhookDelivery = Schemas['WebhookDelivery'];

const PAGE_SIZE = 10;
const MASK = '••••••••';

const STATUS_TAGS: Record<WebhookDelivery['status'], { color: string; label: string }> = {
  pending: { color: 'gold', label: 'Pendiente' },
  sending: { color: 'blue', label: 'Enviando' },
  delivered: { color: 'green', label: 'Entregado' },
  failed: { color: 'red', label: 'Fallido' },
};
const EVENT_LABELS: Record<WebhookDelivery['event_type'], string> = { measurement: 'Medición', alert: 'Alerta de valor', test: 'Prueba' };

const failed = serverError('Ocurrió un error inesperado. Intente de nuevo.');
const DELIVERIES = 'webhooks/deliveries';

/** A date-time in the user's zone (D5), e.g. '21/11/2026 08:05'. */
function formatDateTime(iso: string | null | undefined, timeZone: string): string {
  return iso ? formatWhen(iso, timeZone) : '';
}

/** A URL the form accepts before asking the server, which enforces https:// (03 §5) unless WEBHOOKS_ALLOW_HTTP=1 lets a local receiver in. */
function validateWebhookUrl(value: string | undefined): string | null {
  if (!value || !value.trim()) return MESSAGES.required;
  try {
    const u = new URL(value.trim());
    return u.protocol === 'https:' || u.protocol === 'http:' ? null : MESSAGES.url;
  } catch {
    return MESSAGES.url;
  }
}

/** Webhook HL7 FHIR (03 §2, D19, D20): register, validate, subscribe, and follow the deliveries. */
export default function WebhooksPage() {
  usePageTitle('Webhooks HL7 FHIR');
  const session = readSession();
  const clientId = session?.client_id ?? 0;
  const isAdmin = roleAccess('administer').allowed;
  const { query: clientRead, result: loaded } = useOne<Client>({ resource: 'clients', id: clientId, errorNotification: false });
  const client = loaded ?? null;
  const [editing, setEditing] = useState(false);
  const [validating, setValidating] = useState(false);
  const [form] = Form.useForm<{ webhook_url: string; security_phrase: string }>();
  const { mutate: update, mutation } = useUpdate<Client>();
  const getNow = useApiGetOnDemand();
  const invalidate = useInvalidate();
  const busy = validating || (mutation.isPending && mutation.variables?.values !== undefined && 'webhook_url' in mutation.variables.values);

  const registered = Boolean(client?.webhook_url);
  const showForm = isAdmin && (!registered || editing);
  const clientState = useReadState([clientRead], !registered, 'el webhook');
  const saveClient = (
    values: Partial<Schemas['ClientSettingsInput']>,
    notice: false | ReturnType<typeof success>,
    onSuccess?: () => void,
  ) =>
    update(
      { resource: 'clients', id: clientId, values, meta: { method: 'put' }, successNotification: notice, errorNotification: failed },
      { onSuccess, onError: (error) => form.setFields(fieldErrors<{ webhook_url: string }>(error)) },
    );

  function save(values: { webhook_url: string; security_phrase?: string }) {
    const body = {
      webhook_url: values.webhook_url.trim(),
      ...(values.security_phrase ? { security_phrase: values.security_phrase } : {}),
    };
    saveClient(body, success('Webhook guardado. Pulse Validar para enviar un evento de prueba.'), () => {
      setEditing(false);
      form.resetFields();
    });
  }

  function validate() {
    setValidating(true);
    getNow('/clients/{id}/validate_webhook', {
      params: { id: clientId },
      successNotification: (answer) => ({ type: 'success', message: answer.message }),
      errorNotification: failed,
    })
      .catch(() => undefined)
      .finally(() => {
        setValidating(false);
        void invalidate({ resource: 'clients', id: clientId, invalidates: ['detail'] });
        void invalidate({ resource: DELIVERIES, invalidates: ['list'] });
      });
  }

  const subscribe = (field: 'webhook_measurements' | 'webhook_alerts', on: boolean) => saveClient({ [field]: on }, false);

  return (
    <PageHeader title="Webhook HL7 FHIR">
      {!isAdmin && <Alert type="info" showIcon message="Solo un administrador puede configurar el webhook." style={{ marginBottom: 16 }} />}
      {client?.webhook_disabled_reason && (
        <Alert
          type="warning"
          showIcon
          message="El webhook está desactivado"
          description={client.webhook_disabled_reason}
          style={{ marginBottom: 16 }}
        />
      )}
      <Card title="Receptor FHIR" className="webhooks-card">
        {/* A failed read is neither 'No hay un webhook registrado.' nor an empty form to register one (P212). */}
        <ReadStateView status={clientState} loading={<Skeleton active />}>
          {showForm ? (
            <Form form={form} layout="vertical" onFinish={save} initialValues={{ webhook_url: client?.webhook_url ?? '' }} requiredMark>
              <Form.Item
                name="webhook_url"
                label="URL Webhook"
                required
                rules={[
                  {
                    validator: async (_, v) => {
                      const m = validateWebhookUrl(v);
                      if (m) throw new Error(m);
                    },
                  },
                ]}
              >
                <Input placeholder="https://receptor.ejemplo.co/fhir" autoComplete="off" />
              </Form.Item>
              <Form.Item
                name="security_phrase"
                label="Palabra de seguridad"
                required={!registered}
                extra={
                  registered
                    ? 'Déjela vacía para conservar la palabra guardada.'
                    : 'Mínimo 6 caracteres. Con ella se firman los eventos; no se vuelve a mostrar.'
                }
                rules={[
                  {
                    validator: async (_, v) => {
                      if (registered && !v) return;
                      const m = validateCode(v);
                      if (m) throw new Error(m);
                    },
                  },
                ]}
              >
                <Input.Password placeholder={registered ? MASK : ''} autoComplete="new-password" />
              </Form.Item>
              <Space>
                <Button type="primary" htmlType="submit" loading={busy}>
                  Guardar
                </Button>
                {editing && (
                  <Button
                    onClick={() => {
                      setEditing(false);
                      form.resetFields();
                    }}
                  >
                    Cancelar
                  </Button>
                )}
              </Space>
            </Form>
          ) : registered ? (
            <>
              <Descriptions column={1} size="small" bordered>
                <Descriptions.Item label="URL Webhook">{client?.webhook_url}</Descriptions.Item>
                <Descriptions.Item label="Palabra de seguridad">{client?.security_phrase_set ? MASK : ''}</Descriptions.Item>
                <Descriptions.Item label="Estado">
                  {client?.validate ? (
                    <Tag icon={<CheckCircleFilled />} color="success">
                      Verificado
                    </Tag>
                  ) : (
                    <Tag color="default">Sin validar</Tag>
                  )}
                </Descriptions.Item>
              </Descriptions>
              {isAdmin && (
                <Space style={{ marginTop: 16 }}>
                  <Button type="primary" icon={<SendOutlined />} disabled={client?.validate || busy} loading={busy} onClick={validate}>
                    Validar
                  </Button>
                  <Button onClick={() => setEditing(true)}>Editar</Button>
                </Space>
              )}
            </>
          ) : (
            <Typography.Text type="secondary">No hay un webhook registrado.</Typography.Text>
          )}
        </ReadStateView>
      </Card>

      {registered && (
        <Card title="Suscripciones:" className="webhooks-card">
          {(
            [
              ['webhook_measurements', 'Mediciones', 'Cada medición como Observation FHIR.'],
              ['webhook_alerts', 'Alertas de valor', 'Cada alerta por valor fuera de rango como DetectedIssue FHIR.'],
            ] as const
          ).map(([field, label, help]) => {
            const on = Boolean(client?.[field]);
            return (
              <div key={field} className="webhooks-subscription">
                <Switch aria-label={label} checked={on} disabled={!isAdmin} onChange={(v) => subscribe(field, v)} />
                <span className="webhooks-subscription-label">{label}</span>
                <Tag color={on ? 'green' : 'default'}>{on ? 'Suscrito' : 'No suscrito'}</Tag>
                <Typography.Text type="secondary">{help}</Typography.Text>
              </div>
            );
          })}
          {!client?.validate && (
            <Typography.Paragraph type="secondary" style={{ marginTop: 8, marginBottom: 0 }}>
              Los eventos se envían cuando el webhook está validado.
            </Typography.Paragraph>
          )}
        </Card>
      )}

      {registered && isAdmin && <DeliveryLog timeZone={staffTimeZone()} />}
    </PageHeader>
  );
}

/** The delivery log with each event's status and 'Reenviar'. */
function DeliveryLog({ timeZone }: { timeZone: string }) {
  const [page, setPage] = useState(1);
  const { query, result } = useList<WebhookDelivery>({
    resource: DELIVERIES,
    pagination: { currentPage: page, pageSize: PAGE_SIZE, mode: 'server' },
    errorNotification: false,
  });
  const data = { rows: result.data, total: result.total ?? 0 };
  const loading = query.isFetching;
  const invalidate = useInvalidate();
  const reload = () => invalidate({ resource: DELIVERIES, invalidates: ['list'] });
  const { mutate } = useApiMutation();

  const resend = (d: WebhookDelivery) =>
    mutate(
      {
        method: 'post',
        path: '/webhooks/deliveries/{id}/resend',
        params: { id: d.id },
        successNotification: success('La entrega quedó en cola para reenviarse.'),
        errorNotification: failed,
      },
      { onSuccess: () => void reload() },
    );

  return (
    <Card
      title="Registro de entregas"
      className="webhooks-card"
      extra={
        <Button icon={<ReloadOutlined />} onClick={() => void reload()}>
          Actualizar
        </Button>
      }
    >
      {/* A failed read is never 'Aún no hay entregas.' (P212). */}
      <ReadState reads={[query]} what="las entregas" isEmpty={data.rows.length === 0}>
        <Table<WebhookDelivery>
          rowKey="id"
          size="middle"
          loading={loading}
          dataSource={data.rows}
          scroll={{ x: 760 }}
          pagination={{ current: page, pageSize: PAGE_SIZE, total: data.total, onChange: setPage, showSizeChanger: false }}
          locale={{ emptyText: 'Aún no hay entregas.' }}
          columns={[
            { title: 'Fecha', dataIndex: 'created_at', render: (v: string) => formatDateTime(v, timeZone) },
            {
              title: 'Evento',
              dataIndex: 'event_type',
              render: (v: WebhookDelivery['event_type'], r) => `${EVENT_LABELS[v]} (${r.resource_type})`,
            },
            { title: 'Paciente', dataIndex: 'patient_name', render: (v: string | null) => v ?? '—' },
            {
              title: 'Estado',
              dataIndex: 'status',
              render: (v: WebhookDelivery['status']) => <Tag color={STATUS_TAGS[v].color}>{STATUS_TAGS[v].label}</Tag>,
            },
            { title: 'Intentos', dataIndex: 'attempts', align: 'right' },
            {
              title: 'Último resultado',
              render: (_, r) =>
                r.status === 'delivered' ? `Entregado ${formatDateTime(r.delivered_at, timeZone)}` : (r.last_error ?? '—'),
            },
            {
              title: 'Acciones',
              render: (_, r) => (
                <Button size="small" disabled={r.status === 'pending' || r.status === 'sending'} onClick={() => resend(r)}>
                  Reenviar
                </Button>
              ),
            },
          ]}
        />
      </ReadState>
    </Card>
  );
}
