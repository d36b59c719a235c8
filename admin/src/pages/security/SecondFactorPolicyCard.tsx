import { Button, Card, Checkbox, Form, Skeleton, Space, Typography } from 'antd';
import { TeamOutlined } from '@ant-design/icons';
import { useOne, useUpdate } from '@refinedev/core';
import type { Schemas } from '../../contract';
import { contractDoc } from '../../crud/contract-doc';
import { enumOptions, objectSchema } from '../../crud/schema-rules';
import { fieldErrors } from '../../providers/errors';
import { useFirstLoad } from '../../hooks/useFirstLoad';
import { serverError, success } from '../../providers/notices';
import { ReadFailedAlert, useReadState } from '../../ui/ReadState';

type Client = Schemas['Client'];
type RoleName = Schemas['RoleName'];
type Values = { second_factor_roles: RoleName[] };

/** The roles with their Spanish names (the contract's RoleName x-labels). */
const ROLE_OPTIONS = enumOptions(objectSchema(contractDoc, 'RoleName')).map((o) => ({ value: o.value as RoleName, label: o.label }));

/**
 * The organisation's policy (issue 38): which roles must have a second factor. Like the other
 * settings of the client, it sits on the screen of its subject, for administrators only. A user of
 * a checked role without a factor is taken to enrol one right after the password.
 */
export function SecondFactorPolicyCard({ clientId }: { clientId: number }) {
  const { result: client, query } = useOne<Client>({ resource: 'clients', id: clientId, errorNotification: false });
  const { mutate, mutation } = useUpdate<Client>();
  const [form] = Form.useForm<Values>();

  // The stored roles once, when first read: a later refetch of the client (another card of the page
  // reads it too) must not undo a box just ticked (a CI run saw 'Médico' unticked under its click).
  // The form mounts with them, so no later effect can overwrite what was ticked.
  const first = useFirstLoad(client, query.isFetching, clientId);
  // Without the stored roles the form would show none ticked, and saving it would clear them (P212).
  const status = useReadState([query], false, 'la política de segundo factor');

  const save = (values: Values) =>
    mutate(
      {
        resource: 'clients',
        id: clientId,
        values: { second_factor_roles: values.second_factor_roles ?? [] },
        meta: { method: 'put' },
        successNotification: success('Política de segundo factor guardada'),
        errorNotification: serverError('No fue posible guardar la política'),
      },
      { onError: (error) => form.setFields(fieldErrors<Values>(error)) },
    );

  return (
    <Card
      title={
        <Space>
          <TeamOutlined aria-hidden /> Segundo factor obligatorio
        </Space>
      }
    >
      <ReadFailedAlert status={status} />
      {status.phase === 'failed' ? null : !first ? (
        <Skeleton active />
      ) : (
        <Form form={form} layout="vertical" onFinish={save} initialValues={{ second_factor_roles: first?.second_factor_roles ?? [] }}>
          <Typography.Paragraph>
            En {client?.name ?? 'su institución'}, quienes tengan uno de estos roles deberán configurar la aplicación de autenticación o una
            llave de acceso la próxima vez que entren, antes de poder hacer cualquier otra cosa.
          </Typography.Paragraph>
          <Form.Item name="second_factor_roles" label="Roles que deben usar segundo factor">
            <Checkbox.Group options={ROLE_OPTIONS} />
          </Form.Item>
          <Button type="primary" htmlType="submit" loading={mutation.isPending}>
            Guardar política
          </Button>
        </Form>
      )}
    </Card>
  );
}
