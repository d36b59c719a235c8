import { useEffect } from 'react';
import { Button, Card, Form, Skeleton, Switch, Typography } from 'antd';
import { useInvalidate } from '@refinedev/core';
import type { Schemas } from '../../contract';
import { PageHeader } from '../../crud/PageHeader';
import { usePageTitle } from '../../layout/usePageTitle';
import { useApiMutation, useApiQuery } from '../../providers/calls';
import { loadFailed, serverError, success } from '../../providers/notices';
import { ReadState } from '../../ui/ReadState';

type Values = Schemas['MyNotificationsInput'];

const TITLE = 'Mis notificaciones';

const CHANNELS = [
  { name: 'media_email', label: 'Correo electrónico' },
  { name: 'media_whatsapp', label: 'WhatsApp' },
] as const;
const PRIORITIES = [
  { name: 'priority_high', label: 'Prioridad Alta' },
  { name: 'priority_medium', label: 'Prioridad Media' },
  { name: 'priority_low', label: 'Prioridad Baja' },
] as const;

/**
 * /my_notifications (issue 20, P178): each user chooses the channels and the alert priorities they
 * are told of; reached from the user menu of the toolbar. Administrators edit anyone's in Usuarios.
 */
export default function MyNotificationsPage() {
  usePageTitle(TITLE);
  const [form] = Form.useForm<Values>();
  const { result, query } = useApiQuery('/my_notifications', { errorNotification: loadFailed });
  const settings = result?.data;
  const { mutate, mutation } = useApiMutation();
  const invalidate = useInvalidate();

  useEffect(() => {
    if (settings) form.setFieldsValue(settings);
  }, [settings, form]);

  const save = (values: Values) =>
    mutate(
      {
        method: 'put',
        path: '/my_notifications',
        values,
        successNotification: success('Preferencias de notificación guardadas'),
        errorNotification: serverError('No fue posible guardar las preferencias'),
      },
      { onSuccess: () => void invalidate({ invalidates: ['all'] }) },
    );

  const phone = settings?.cellphone ? `${settings.prefix ?? ''} ${settings.cellphone}`.trim() : null;
  return (
    <PageHeader title={TITLE}>
      <Card style={{ maxWidth: 640 }}>
        {/* A failed read says so with 'Reintentar', not a skeleton that never ends (P212). */}
        <ReadState reads={[query]} what="sus preferencias de notificación" loading={<Skeleton active />}>
          {settings && (
            <Form form={form} layout="horizontal" onFinish={save} labelCol={{ span: 10 }} wrapperCol={{ span: 14 }}>
              <Typography.Title level={2} style={{ fontSize: 16 }}>
                Canales
              </Typography.Title>
              <Typography.Paragraph type="secondary">
                Correo: {settings.email}. WhatsApp: {phone ?? 'sin celular registrado (pídalo a un administrador en Usuarios)'}.
              </Typography.Paragraph>
              {CHANNELS.map((c) => (
                <Form.Item key={c.name} name={c.name} label={c.label} valuePropName="checked">
                  <Switch />
                </Form.Item>
              ))}
              <Typography.Title level={2} style={{ fontSize: 16 }}>
                Alertas que quiero recibir
              </Typography.Title>
              {PRIORITIES.map((p) => (
                <Form.Item key={p.name} name={p.name} label={p.label} valuePropName="checked">
                  <Switch />
                </Form.Item>
              ))}
              <Button type="primary" htmlType="submit" loading={mutation.isPending}>
                Guardar
              </Button>
            </Form>
          )}
        </ReadState>
      </Card>
    </PageHeader>
  );
}
