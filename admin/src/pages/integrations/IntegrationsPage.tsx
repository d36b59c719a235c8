import { useEffect, useState } from 'react';
import { Alert, Button, Card, Form, Input, Space, Switch, Typography } from 'antd';
import { MESSAGES } from '@vigia/contract/rules/validation';
import { PageHeader } from '../../crud/PageHeader';
import { usePageTitle } from '../../layout/usePageTitle';
import { notify } from '../../providers/notification';
import { isHttpError } from '../../providers/errors';
import { readSession } from '../../session';
import { integrationsApi, type Client } from './integrations.api';
import './integrations.css';

interface Values {
  residents_enabled: boolean;
  residents_url: string;
  residents_user: string;
  residents_password?: string;
}

const required = { required: true, message: MESSAGES.required };

/** Integraciones (03 §2): the care-residence management product; the password is never shown again (D20). */
export default function IntegrationsPage() {
  usePageTitle('Integraciones');
  const session = readSession();
  const clientId = session?.client_id ?? 0;
  const isAdmin = session?.role_name === 'admin';
  const [client, setClient] = useState<Client | null>(null);
  const [busy, setBusy] = useState(false);
  const [form] = Form.useForm<Values>();
  const enabled = Form.useWatch('residents_enabled', form);

  useEffect(() => {
    integrationsApi.client(clientId).then(
      (c) => {
        setClient(c);
        form.setFieldsValue({
          residents_enabled: c.residents_enabled,
          residents_url: c.residents_url ?? '',
          residents_user: c.residents_user ?? '',
          residents_password: '',
        });
      },
      (e) => console.error(e),
    );
  }, [clientId, form]);

  async function save(values: Values) {
    setBusy(true);
    try {
      const body = {
        residents_enabled: values.residents_enabled,
        ...(values.residents_enabled
          ? { residents_url: values.residents_url?.trim() || null, residents_user: values.residents_user?.trim() || null }
          : {}),
        ...(values.residents_password ? { residents_password: values.residents_password } : {}),
      };
      const saved = await integrationsApi.save(clientId, body);
      setClient(saved);
      form.setFieldValue('residents_password', '');
      notify.success('Integración guardada.');
    } catch (e) {
      if (isHttpError(e) && e.errors)
        form.setFields(
          Object.entries(e.errors).map(([name, errors]) => ({
            name: name as keyof Values,
            errors: ([] as string[]).concat(errors as string[]),
          })),
        );
      notify.error(isHttpError(e) ? e.message : 'Ocurrió un error inesperado. Intente de nuevo.');
    } finally {
      setBusy(false);
    }
  }

  return (
    <PageHeader title="Integraciones">
      {!isAdmin && (
        <Alert type="info" showIcon message="Solo un administrador puede configurar las integraciones." style={{ marginBottom: 16 }} />
      )}
      <Card title="Gestión de residencias (ResiPlus)" className="integrations-card">
        <Typography.Paragraph type="secondary">
          Conecta Vigía con el programa de gestión de la residencia para consultar los datos de los residentes.
        </Typography.Paragraph>
        <Form form={form} layout="vertical" onFinish={save} disabled={!isAdmin || !client} initialValues={{ residents_enabled: false }}>
          <Form.Item name="residents_enabled" valuePropName="checked" label="Estado">
            <Switch checkedChildren="Habilitado" unCheckedChildren="Deshabilitado" aria-label="Integración habilitada" />
          </Form.Item>
          {enabled && (
            <>
              <Form.Item name="residents_url" label="URL del servidor" rules={[required, { type: 'url', message: MESSAGES.url }]}>
                <Input placeholder="https://residencia.ejemplo.co/api" autoComplete="off" />
              </Form.Item>
              <Form.Item name="residents_user" label="Usuario de la API" rules={[required]}>
                <Input autoComplete="off" />
              </Form.Item>
              <Form.Item
                name="residents_password"
                label="Contraseña de la API"
                rules={client?.residents_password_set ? [] : [required]}
                extra={client?.residents_password_set ? 'Hay una contraseña guardada. Escriba otra solo para cambiarla.' : undefined}
              >
                <Input.Password placeholder={client?.residents_password_set ? '••••••••' : ''} autoComplete="new-password" />
              </Form.Item>
            </>
          )}
          <Space>
            <Button type="primary" htmlType="submit" loading={busy}>
              Guardar
            </Button>
          </Space>
        </Form>
      </Card>
    </PageHeader>
  );
}
