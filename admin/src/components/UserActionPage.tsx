import type { ReactNode } from 'react';
import { useNavigate, useParams } from 'react-router';
import { Alert, Button, Card, Popconfirm, Skeleton, Space } from 'antd';
import { useOne } from '@refinedev/core';
import type { Schemas } from '../contract';
import { PageHeader } from '../crud/PageHeader';
import { usePageTitle } from '../layout/usePageTitle';
import { useApiMutation } from '../providers/calls';
import { loadFailedUnlessMissing, serverError } from '../providers/notices';

type User = Schemas['User'];

/**
 * An administrator's action on another user, from the Usuarios list (/users/:id/…, issue 38): the
 * user is read, what the action does is explained with their name, and the action asks once more
 * before it runs; then back to Usuarios with the server's message.
 */
export function UserActionPage(p: {
  title: string;
  /** The contract's operation: DELETE on the user's sessions or factors. */
  path: '/users/{id}/sessions' | '/users/{id}/factors';
  /** What happens, with the user's name and e-mail. */
  explain: (user: User, name: string) => ReactNode;
  confirm: (name: string) => string;
  okText: string;
  done: string;
  failed: string;
}) {
  usePageTitle(p.title);
  const { id } = useParams();
  const navigate = useNavigate();
  const { result: user, query } = useOne<User>({
    resource: 'users',
    id: id ?? '',
    errorNotification: loadFailedUnlessMissing,
  });
  // Only a 404 means there is no such user; any other failure is a read that did not work.
  const missing = query.error?.statusCode === 404;
  const { mutate, mutation } = useApiMutation();
  const name = user ? `${user.first_name} ${user.last_name}` : '';

  const run = () =>
    mutate(
      {
        method: 'delete',
        path: p.path,
        params: { id: id ?? '' },
        successNotification: (data) => ({ type: 'success', message: data?.data.message ?? p.done }),
        errorNotification: serverError(p.failed),
      },
      { onSuccess: () => navigate('/users') },
    );

  return (
    <PageHeader title={p.title}>
      <Card style={{ maxWidth: 640 }}>
        {query.isLoading ? (
          <Skeleton active />
        ) : !user ? (
          <Alert
            type="error"
            showIcon
            message={missing ? 'El usuario no existe.' : 'No fue posible cargar el usuario.'}
            action={
              missing ? undefined : (
                <Button size="small" onClick={() => void query.refetch()}>
                  Reintentar
                </Button>
              )
            }
          />
        ) : (
          <>
            {p.explain(user, name)}
            <Space wrap>
              <Button onClick={() => navigate('/users')}>Volver</Button>
              <Popconfirm title={p.confirm(name)} okText={p.okText} okButtonProps={{ danger: true }} cancelText="Cancelar" onConfirm={run}>
                <Button type="primary" danger loading={mutation.isPending}>
                  {p.title}
                </Button>
              </Popconfirm>
            </Space>
          </>
        )}
      </Card>
    </PageHeader>
  );
}
