import { useNavigate, useParams } from 'react-router';
import { Alert, Button, Card, Popconfirm, Skeleton, Space, Typography } from 'antd';
import { useOne } from '@refinedev/core';
import type { Schemas } from '../../contract';
import { PageHeader } from '../../crud/PageHeader';
import { usePageTitle } from '../../layout/usePageTitle';
import { useApiMutation } from '../../providers/calls';
import { loadFailed, serverError } from '../../providers/notices';

type User = Schemas['User'];

const TITLE = 'Restablecer segundo factor';

/**
 * /users/:id/factors (issue 38), from the Usuarios list: an administrator removes another user's
 * authenticator app, passkeys and recovery codes (a lost phone) and ends their sessions. Nobody
 * resets their own here: they remove it from 'Seguridad' with a code.
 */
export default function UserFactorsPage() {
  usePageTitle(TITLE);
  const { id } = useParams();
  const navigate = useNavigate();
  const { result: user, query } = useOne<User>({ resource: 'users', id: id ?? '', errorNotification: loadFailed });
  const { mutate, mutation } = useApiMutation();
  const name = user ? `${user.first_name} ${user.last_name}` : '';

  const reset = () =>
    mutate(
      {
        method: 'delete',
        path: '/users/{id}/factors',
        params: { id: id ?? '' },
        successNotification: (data) => ({ type: 'success', message: data?.data.message ?? 'Segundo factor restablecido' }),
        errorNotification: serverError('No fue posible restablecer el segundo factor'),
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
              Se borrarán la aplicación de autenticación, las llaves de acceso y los códigos de recuperación de <strong>{name}</strong> (
              {user.email}), y se cerrarán todas sus sesiones. Úselo cuando perdió el teléfono o la llave.
            </Typography.Paragraph>
            <Typography.Paragraph>
              Entrará de nuevo solo con su contraseña; si su institución exige segundo factor para su rol, deberá configurar uno nuevo al
              entrar.
            </Typography.Paragraph>
            <Space wrap>
              <Button onClick={() => navigate('/users')}>Volver</Button>
              <Popconfirm
                title={`¿Restablecer el segundo factor de ${name}?`}
                okText="Restablecer"
                okButtonProps={{ danger: true }}
                cancelText="Cancelar"
                onConfirm={reset}
              >
                <Button type="primary" danger loading={mutation.isPending}>
                  Restablecer segundo factor
                </Button>
              </Popconfirm>
            </Space>
          </>
        )}
      </Card>
    </PageHeader>
  );
}
