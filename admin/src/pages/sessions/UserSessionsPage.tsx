import { useNavigate, useParams } from 'react-router';
import { Alert, Button, Card, Popconfirm, Skeleton, Space, Typography } from 'antd';
import { useOne } from '@refinedev/core';
import type { Schemas } from '../../contract';
import { PageHeader } from '../../crud/PageHeader';
import { usePageTitle } from '../../layout/usePageTitle';
import { useApiMutation } from '../../providers/calls';
import { loadFailed, serverError } from '../../providers/notices';

type User = Schemas['User'];

const TITLE = 'Cerrar todas las sesiones';

/**
 * /users/:id/sessions (issue 38), from the Usuarios list: an administrator ends every session of a
 * user of the institution (a lost phone, a person who left). Their next request is refused.
 */
export default function UserSessionsPage() {
  usePageTitle(TITLE);
  const { id } = useParams();
  const navigate = useNavigate();
  const { result: user, query } = useOne<User>({ resource: 'users', id: id ?? '', errorNotification: loadFailed });
  const { mutate, mutation } = useApiMutation();
  const name = user ? `${user.first_name} ${user.last_name}` : '';

  const endAll = () =>
    mutate(
      {
        method: 'delete',
        path: '/users/{id}/sessions',
        params: { id: id ?? '' },
        successNotification: (data) => ({ type: 'success', message: data?.data.message ?? 'Sesiones cerradas' }),
        errorNotification: serverError('No fue posible cerrar las sesiones'),
      },
      { onSuccess: () => navigate('/users') },
    );

  return (
    <PageHeader title={TITLE}>
      <Card style={{ maxWidth: 640 }}>
        {query.isLoading ? (
          <Skeleton active />
        ) : !user ? (
          <Alert type="error" showIcon message="El usuario no existe." />
        ) : (
          <>
            <Typography.Paragraph>
              Se cerrarán todas las sesiones abiertas de <strong>{name}</strong> ({user.email}), en cualquier navegador o dispositivo. Su
              siguiente acción lo llevará al inicio de sesión con un aviso de que un administrador cerró su sesión.
            </Typography.Paragraph>
            <Space>
              <Button onClick={() => navigate('/users')}>Volver</Button>
              <Popconfirm title={`¿Cerrar todas las sesiones de ${name}?`} okText="Cerrar todas" cancelText="Cancelar" onConfirm={endAll}>
                <Button type="primary" danger loading={mutation.isPending}>
                  Cerrar todas las sesiones
                </Button>
              </Popconfirm>
            </Space>
          </>
        )}
      </Card>
    </PageHeader>
  );
}
