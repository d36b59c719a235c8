import { Typography } from 'antd';
import { UserActionPage } from '../../components/UserActionPage';

/**
 * /users/:id/sessions (issue 38), from the Usuarios list: an administrator ends every session of a
 * user of the institution (a lost phone, a person who left). Their next request is refused.
 */
export default function UserSessionsPage() {
  return (
    <UserActionPage
      title="Cerrar todas las sesiones"
      path="/users/{id}/sessions"
      explain={(user, name) => (
        <Typography.Paragraph>
          Se cerrarán todas las sesiones abiertas de <strong>{name}</strong> ({user.email}), en cualquier navegador o dispositivo. Su
          siguiente acción lo llevará al inicio de sesión con un aviso de que un administrador cerró su sesión.
        </Typography.Paragraph>
      )}
      confirm={(name) => `¿Cerrar todas las sesiones de ${name}?`}
      okText="Cerrar todas"
      done="Sesiones cerradas"
      failed="No fue posible cerrar las sesiones"
    />
  );
}
