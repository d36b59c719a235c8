import { useEffect } from 'react';
import { Alert, Button, Card, Form, Input, Space, Switch, Typography } from 'antd';
import { CloudDownloadOutlined, CloudServerOutlined, KeyOutlined } from '@ant-design/icons';
import { MESSAGES } from '@vigia/contract/rules/validation';
import { PageHeader } from '../../crud/PageHeader';
import { LinkButton } from '../../layout/LinkButton';
import { usePageTitle } from '../../layout/usePageTitle';
import { useOne, useUpdate } from '@refinedev/core';
import type { Schemas } from '../../contract';
import { fieldErrors } from '../../providers/errors';
import { serverError, success } from '../../providers/notices';
import { roleAccess } from '../../providers/access';
import { readSession } from '../../session';
import { ReadStateView, useReadState } from '../../ui/ReadState';
import { InstitutionRdaCard } from './InstitutionRdaCard';
import './integrations.css';

interface Values {
  residents_enabled: boolean;
  residents_url: string;
  residents_user: string;
  residents_password?: string;
}

type Client = Schemas['Client'];

const required = { required: true, message: MESSAGES.required };

/** Integraciones (03 §2): the care-residence management product; the password is never shown again (D20). */
export default function IntegrationsPage() {
  usePageTitle('Integraciones');
  const session = readSession();
  const clientId = session?.client_id ?? 0;
  const isAdmin = roleAccess('administer').allowed;
  const { query: clientRead, result: loaded } = useOne<Client>({ resource: 'clients', id: clientId, errorNotification: false });
  const client = loaded ?? null;
  const clientState = useReadState([clientRead], false, 'la integración');
  const { mutate, mutation } = useUpdate<Client>();
  const busy = mutation.isPending;
  const [form] = Form.useForm<Values>();
  const enabled = Form.useWatch('residents_enabled', form);

  // The form shows the stored settings whenever they (re)load; the password is never sent back (D20).
  useEffect(() => {
    if (!client) return;
    form.setFieldsValue({
      residents_enabled: client.residents_enabled,
      residents_url: client.residents_url ?? '',
      residents_user: client.residents_user ?? '',
      residents_password: '',
    });
  }, [client, form]);

  function save(values: Values) {
    const body = {
      residents_enabled: values.residents_enabled,
      ...(values.residents_enabled
        ? { residents_url: values.residents_url?.trim() || null, residents_user: values.residents_user?.trim() || null }
        : {}),
      ...(values.residents_password ? { residents_password: values.residents_password } : {}),
    };
    mutate(
      {
        resource: 'clients',
        id: clientId,
        values: body,
        meta: { method: 'put' },
        successNotification: success('Integración guardada.'),
        errorNotification: serverError('Ocurrió un error inesperado. Intente de nuevo.'),
      },
      {
        onSuccess: () => form.setFieldValue('residents_password', ''),
        onError: (error) => form.setFields(fieldErrors<Values>(error)),
      },
    );
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
        {/* A failed read is never the form of an integration switched off (P212): saving it would switch it off. */}
        <ReadStateView status={clientState}>
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
        </ReadStateView>
      </Card>
      <InstitutionRdaCard clientId={clientId} />
      {isAdmin && (
        <Card title="Clientes de API (FHIR)" className="integrations-card">
          <Typography.Paragraph type="secondary">
            Sistemas externos, como la historia clínica de un hospital, que leen los datos de la institución con sus propias claves.
            Regístrelos, vea cuándo pidieron su último token y suspéndalos o elimínelos.
          </Typography.Paragraph>
          <LinkButton to="/api_clients" icon={<KeyOutlined />}>
            Ver clientes de API
          </LinkButton>
        </Card>
      )}
      {isAdmin && (
        <Card title="Exportaciones FHIR" className="integrations-card">
          <Typography.Paragraph type="secondary">
            Archivos con los datos de toda la institución o de una etiqueta, un recurso FHIR por línea (NDJSON), para cargarlos en otro
            sistema. Los clientes de API los piden por su cuenta; aquí puede iniciar una exportación y descargar sus archivos.
          </Typography.Paragraph>
          <LinkButton to="/fhir_exports" icon={<CloudDownloadOutlined />}>
            Ver exportaciones
          </LinkButton>
        </Card>
      )}
      {isAdmin && (
        <Card title="IHCE (RDA)" className="integrations-card">
          <Typography.Paragraph type="secondary">
            La plataforma de interoperabilidad del Ministerio de Salud, que recibe el Resumen Digital de Atención (RDA) de cada teleconsulta
            y de cada paciente (Resolución 1888 de 2025). Ingrese las credenciales de la API de prestadores y pruebe la conexión; en «RDA
            enviados» vea el estado de cada documento.
          </Typography.Paragraph>
          <Space wrap>
            <LinkButton to="/ihce" icon={<CloudServerOutlined />}>
              Configurar IHCE
            </LinkButton>
            <LinkButton to="/rdas">Ver RDA enviados</LinkButton>
          </Space>
        </Card>
      )}
    </PageHeader>
  );
}
