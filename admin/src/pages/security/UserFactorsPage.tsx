import { Typography } from 'antd';
import { UserActionPage } from '../../components/UserActionPage';

/**
 * /users/:id/factors (issue 38), from the Usuarios list: an administrator removes another user's
 * authenticator app, passkeys and recovery codes (a lost phone) and ends their sessions. Nobody
 * resets their own here: they remove it from 'Seguridad' with a code.
 */
export default function UserFactorsPage() {
  return (
    <UserActionPage
      title="Restablecer segundo factor"
      path="/users/{id}/factors"
      explain={(user, name) => (
        <>
          <Typography.Paragraph>
            Se borrarán la aplicación de autenticación, las llaves de acceso y los códigos de recuperación de <strong>{name}</strong> (
            {user.email}), y se cerrarán todas sus sesiones. Úselo cuando perdió el teléfono o la llave.
          </Typography.Paragraph>
          <Typography.Paragraph>
            Entrará de nuevo solo con su contraseña; si su institución exige segundo factor para su rol, deberá configurar uno nuevo al
            entrar.
          </Typography.Paragraph>
        </>
      )}
      confirm={(name) => `¿Restablecer el segundo factor de ${name}?`}
      okText="Restablecer"
      done="Segundo factor restablecido"
      failed="No fue posible restablecer el segundo factor"
    />
  );
}
