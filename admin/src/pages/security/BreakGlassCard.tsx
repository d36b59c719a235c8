import { useState } from 'react';
import { Button, Card, List, Popconfirm, Select, Skeleton, Space, Typography } from 'antd';
import { UnlockOutlined } from '@ant-design/icons';
import { useList } from '@refinedev/core';
import type { Schemas } from '../../contract';
import { useApiMutation } from '../../providers/calls';
import { serverError, success } from '../../providers/notices';
import { USER_STATUS } from '@vigia/contract/rules/access';
import { ReadFailedAlert, useReadState } from '../../ui/ReadState';

type User = Schemas['User'];

const nameOf = (u: User) => `${u.first_name} ${u.last_name}`;

/**
 * The organisation's break-glass accounts (issue 49), for administrators, beside the second-factor
 * policy: where staff sign in through the identity provider, only these still enter with Vigía's
 * password (and receive the recovery link), for the day the provider does not answer. The server
 * allows the change to administrators of the same organisation only, and records it in the audit.
 */
export function BreakGlassCard() {
  const marked = useList<User>({
    resource: 'users',
    filters: [{ field: 'break_glass', operator: 'eq', value: true }],
    pagination: { currentPage: 1, pageSize: 100 },
    sorters: [{ field: 'last_name', order: 'asc' }],
    errorNotification: false,
  });
  const others = useList<User>({
    resource: 'users',
    filters: [
      { field: 'break_glass', operator: 'eq', value: false },
      { field: 'status', operator: 'eq', value: USER_STATUS.active },
    ],
    pagination: { currentPage: 1, pageSize: 100 },
    sorters: [{ field: 'last_name', order: 'asc' }],
    errorNotification: false,
  });
  const { mutate, mutation } = useApiMutation();
  const [chosen, setChosen] = useState<number | null>(null);

  const save = (user: User, breakGlass: boolean) =>
    mutate(
      {
        method: 'put',
        path: '/users/{id}/break_glass',
        params: { id: user.id },
        values: { break_glass: breakGlass },
        successNotification: success(
          breakGlass ? `${nameOf(user)} es ahora una cuenta de emergencia` : `${nameOf(user)} ya no es una cuenta de emergencia`,
        ),
        errorNotification: serverError('No fue posible guardar la cuenta de emergencia'),
      },
      {
        onSuccess: () => {
          setChosen(null);
          void marked.query.refetch();
          void others.query.refetch();
        },
      },
    );

  const list = marked.query.data ? marked.result.data : null;
  // Both lists as one read (P212): a failure keeps the accounts shown, marked, or says it could not read them.
  const status = useReadState([marked.query, others.query], list?.length === 0, 'las cuentas de emergencia');
  const failed = status.phase === 'failed';
  const candidates = others.query.data ? others.result.data : [];
  const picked = candidates.find((u) => u.id === chosen);

  return (
    <Card
      title={
        <Space>
          <UnlockOutlined aria-hidden /> Cuentas de emergencia
        </Space>
      }
    >
      <Typography.Paragraph>
        Si su institución ingresa con inicio de sesión único, la contraseña de Vigía solo sirve a estas cuentas (y solo ellas reciben el
        enlace para restablecerla). Márquelas para entrar el día que el proveedor de identidad no responda; cada cambio queda en la
        auditoría.
      </Typography.Paragraph>
      <ReadFailedAlert status={status} style={{ marginBottom: 16 }} />
      {failed ? null : list === null ? (
        <Skeleton active />
      ) : (
        <List
          dataSource={list}
          locale={{ emptyText: 'Ninguna cuenta marcada: con inicio de sesión único, nadie entra con contraseña.' }}
          renderItem={(u) => (
            <List.Item
              actions={[
                <Popconfirm
                  key="remove"
                  title={`¿Quitar a ${nameOf(u)} de las cuentas de emergencia?`}
                  okText="Quitar"
                  cancelText="Cancelar"
                  onConfirm={() => save(u, false)}
                >
                  <Button size="small" aria-label={`Quitar a ${nameOf(u)} de las cuentas de emergencia`}>
                    Quitar
                  </Button>
                </Popconfirm>,
              ]}
            >
              {/* Not List.Item.Meta: its title is an h4, out of the page's heading order. */}
              <Space direction="vertical" size={0}>
                <Typography.Text strong>{nameOf(u)}</Typography.Text>
                <Typography.Text type="secondary">
                  {u.email} · {u.role_label}
                </Typography.Text>
              </Space>
            </List.Item>
          )}
        />
      )}
      <Space wrap style={{ marginTop: 16 }}>
        <Select
          aria-label="Usuario para marcar como cuenta de emergencia"
          placeholder="Elija un usuario activo"
          showSearch
          optionFilterProp="label"
          style={{ minWidth: 280 }}
          value={chosen ?? undefined}
          onChange={(v: number) => setChosen(v)}
          options={candidates.map((u) => ({ value: u.id, label: `${nameOf(u)} (${u.email})` }))}
          loading={others.query.isLoading}
        />
        <Button type="primary" disabled={!picked} loading={mutation.isPending} onClick={() => picked && save(picked, true)}>
          Marcar como cuenta de emergencia
        </Button>
      </Space>
    </Card>
  );
}
