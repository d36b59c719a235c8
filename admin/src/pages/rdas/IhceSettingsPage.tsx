import { useEffect, useState } from 'react';
import { Alert, Button, Card, Form, Input, Result, Space, Switch, Typography } from 'antd';
import { ApiOutlined, EditOutlined } from '@ant-design/icons';
import { MESSAGES } from '@vigia/contract/rules/validation';
import type { Schemas } from '../../contract';
import { RecordPageTitle } from '../../crud/PageHeader';
import { usePageTitle } from '../../layout/usePageTitle';
import { FORBIDDEN_REASON, roleAccess } from '../../providers/access';
import { useApiMutation, useApiQuery } from '../../providers/calls';
import { fieldErrors } from '../../providers/errors';
import { loadFailed, serverError, success } from '../../providers/notices';
import { useInvalidatePaths } from '../../providers/queries';
import { readSession } from '../../session';
import { ReadStateView, useReadState } from '../../ui/ReadState';
import './rdas.css';

type Settings = Schemas['IhceSettings'];
type Input = Schemas['IhceSettingsInput'];
type TestAnswer = Schemas['Notification'];

interface Values {
  enabled: boolean;
  token_url: string;
  base_url: string;
  client_id: string;
  client_secret?: string;
  subscription_key?: string;
  scope: string;
}

type Secret = 'client_secret' | 'subscription_key';

const TITLE = 'IHCE (RDA)';
/** The way back: Integraciones, where the card that leads here sits. */
const INTEGRATIONS = { name: 'integrations', path: '/integrations', labels: { list: 'Integraciones', singular: TITLE } };
const url = [{ type: 'url' as const, message: MESSAGES.url }];
const trimmed = (v: string | undefined) => v?.trim() || null;

/**
 * A write-only secret (D20): 'Guardado' with 'Cambiar' when one is stored, never its value; a field
 * to type one when none is, or after 'Cambiar'. An empty field keeps the stored one (the API's rule).
 */
function SecretField({
  name,
  label,
  stored,
  editing,
  onEdit,
}: {
  name: Secret;
  label: string;
  stored: boolean;
  editing: boolean;
  onEdit: () => void;
}) {
  if (stored && !editing) {
    return (
      <Form.Item label={label}>
        <Space wrap>
          <Typography.Text type="success">Guardado</Typography.Text>
          <Button size="small" icon={<EditOutlined />} onClick={onEdit} aria-label={`Cambiar ${label}`}>
            Cambiar
          </Button>
        </Space>
      </Form.Item>
    );
  }
  return (
    <Form.Item
      name={name}
      label={label}
      extra={stored ? 'Escriba el nuevo valor; si deja el campo vacío se conserva el guardado.' : undefined}
      rules={[
        { max: name === 'client_secret' ? 500 : 200, message: `Debe tener máximo ${name === 'client_secret' ? 500 : 200} caracteres` },
      ]}
    >
      <Input.Password autoComplete="new-password" />
    </Form.Item>
  );
}

/**
 * Integraciones → IHCE (RDA), /ihce (issue 51): the organisation's connection with the Ministry's
 * interoperability platform, which receives its RDA. Administrators only, as getClientIhce answers;
 * the client secret and the subscription key are write-only. 'Probar conexión' asks the platform
 * for a token with what is saved and says the answer in Spanish.
 */
export default function IhceSettingsPage() {
  usePageTitle(TITLE);
  const { allowed } = roleAccess('administer');
  const clientId = readSession()?.client_id ?? 0;
  const { query } = useApiQuery('/clients/{id}/ihce', {
    params: { id: clientId },
    queryOptions: { enabled: allowed && clientId > 0 },
    errorNotification: loadFailed,
  });
  const settings: Settings | null = query.data?.data ?? null;
  const status = useReadState([query], false, 'la configuración IHCE');
  const { mutate, mutation } = useApiMutation();
  const test = useApiMutation();
  const invalidatePaths = useInvalidatePaths();
  const [form] = Form.useForm<Values>();
  const [editing, setEditing] = useState<Record<Secret, boolean>>({ client_secret: false, subscription_key: false });
  const [tested, setTested] = useState<TestAnswer | null>(null);

  // The form shows the stored settings whenever they (re)load; secrets are never sent back (D20).
  useEffect(() => {
    if (!settings) return;
    form.setFieldsValue({
      enabled: settings.enabled,
      token_url: settings.token_url ?? '',
      base_url: settings.base_url ?? '',
      client_id: settings.client_id ?? '',
      scope: settings.scope ?? '',
      client_secret: '',
      subscription_key: '',
    });
  }, [settings, form]);

  function save(values: Values) {
    const body: Input = {
      enabled: values.enabled,
      token_url: trimmed(values.token_url),
      base_url: trimmed(values.base_url),
      client_id: trimmed(values.client_id),
      scope: trimmed(values.scope),
      ...(values.client_secret ? { client_secret: values.client_secret } : {}),
      ...(values.subscription_key ? { subscription_key: values.subscription_key } : {}),
    };
    setTested(null);
    mutate(
      {
        method: 'put',
        path: '/clients/{id}/ihce',
        params: { id: clientId },
        values: body,
        successNotification: success('Configuración IHCE guardada'),
        errorNotification: serverError('No fue posible guardar la configuración. Intente de nuevo.'),
      },
      {
        onSuccess: () => {
          setEditing({ client_secret: false, subscription_key: false });
          void invalidatePaths(`/clients/${clientId}/ihce`);
        },
        onError: (error) => form.setFields(fieldErrors<Values>(error)),
      },
    );
  }

  function probe() {
    setTested(null);
    test.mutate(
      {
        method: 'post',
        path: '/clients/{id}/ihce/test',
        params: { id: clientId },
        errorNotification: serverError('No fue posible probar la conexión. Intente de nuevo.'),
      },
      { onSuccess: (answer) => setTested(answer.data) },
    );
  }

  const header = (
    <header className="vigia-page-header">
      <RecordPageTitle resource={INTEGRATIONS} title={TITLE} />
    </header>
  );
  if (!allowed) {
    return (
      <section className="vigia-page">
        {header}
        <div className="vigia-page-body">
          <Card>
            <Result status="403" title="Solo un administrador configura la conexión con la plataforma IHCE" subTitle={FORBIDDEN_REASON} />
          </Card>
        </div>
      </section>
    );
  }
  return (
    <section className="vigia-page">
      {header}
      <div className="vigia-page-body">
        <Card className="integrations-card ihce-card">
          <Typography.Paragraph type="secondary">
            La plataforma de interoperabilidad (IHCE) del Ministerio de Salud recibe los RDA de la institución. Ingrese los datos que el
            Ministerio le entregó para la API de prestadores. El secreto y la clave de suscripción no se vuelven a mostrar. Mientras el
            envío esté desactivado, los RDA se guardan como «Sin enviar» y se envían al activarlo.
          </Typography.Paragraph>
          {/* A failed read is never an empty form: saving it would erase the stored settings (P212). */}
          <ReadStateView status={status}>
            <Form form={form} layout="vertical" onFinish={save} disabled={!settings} initialValues={{ enabled: false }}>
              <Form.Item name="enabled" valuePropName="checked" label="Activo">
                <Switch checkedChildren="Activo" unCheckedChildren="Inactivo" aria-label="Envío a la plataforma IHCE activo" />
              </Form.Item>
              <Form.Item name="token_url" label="URL del token" rules={url}>
                <Input placeholder="https://login.microsoftonline.com/…/oauth2/v2.0/token" autoComplete="off" />
              </Form.Item>
              <Form.Item name="base_url" label="URL base de la API" rules={url}>
                <Input placeholder="https://…/interop/api/v1" autoComplete="off" />
              </Form.Item>
              <Form.Item name="client_id" label="Client ID" rules={[{ max: 200, message: 'Debe tener máximo 200 caracteres' }]}>
                <Input autoComplete="off" />
              </Form.Item>
              <SecretField
                name="client_secret"
                label="Client secret"
                stored={settings?.client_secret_set ?? false}
                editing={editing.client_secret}
                onEdit={() => setEditing({ ...editing, client_secret: true })}
              />
              <SecretField
                name="subscription_key"
                label="Ocp-Apim-Subscription-Key"
                stored={settings?.subscription_key_set ?? false}
                editing={editing.subscription_key}
                onEdit={() => setEditing({ ...editing, subscription_key: true })}
              />
              <Form.Item name="scope" label="Scope" rules={[{ max: 500, message: 'Debe tener máximo 500 caracteres' }]}>
                <Input autoComplete="off" />
              </Form.Item>
              {settings && !settings.configured && (
                <Alert
                  type="info"
                  showIcon
                  style={{ marginBottom: 16 }}
                  message="El envío no está activo o le falta un dato: los RDA se guardan sin enviar."
                />
              )}
              <Space wrap>
                <Button type="primary" htmlType="submit" loading={mutation.isPending}>
                  Guardar
                </Button>
                <Button icon={<ApiOutlined />} onClick={probe} loading={test.mutation.isPending} disabled={!settings}>
                  Probar conexión
                </Button>
              </Space>
            </Form>
          </ReadStateView>
          <div aria-live="polite">
            {tested && (
              <Alert
                className="ihce-test-result"
                type={tested.type === 'success' ? 'success' : 'error'}
                showIcon
                style={{ marginTop: 16 }}
                message={tested.type === 'success' ? 'Conexión correcta' : 'La conexión falló'}
                description={tested.message}
              />
            )}
          </div>
        </Card>
      </div>
    </section>
  );
}
