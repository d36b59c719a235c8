import { useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { Alert, Button, Form, Input } from 'antd';
import { LockOutlined } from '@ant-design/icons';
import { validatePassword, validatePasswordConfirmation } from '@vigia/contract/rules/validation';
import { VigiaLogo } from '../../layout/Logo';
import { apiRequest } from '../../providers/api';
import { fieldErrors, isHttpError } from '../../providers/errors';
import { fromValidator } from './login-rules';
import './login.css';

type Values = { password: string; password_confirmation: string };

/**
 * The link's token comes after '#', so it reaches neither the server's logs nor a Referer. Read
 * here without side effects (a render may run again); the page takes it out of the address bar
 * once shown, so it does not stay in the browser's history either.
 */
function readLinkToken(): string | null {
  const token = window.location.hash.replace(/^#/, '');
  return /^[A-Za-z0-9_-]{43}$/.test(token) ? token : null;
}

const INVALID_LINK = 'El enlace para restablecer la contraseña no es válido. Solicite uno nuevo.';

/** /password_resets#<token>: the new password, from the link of the recovery e-mail (issue 38). */
export default function PasswordResetPage() {
  const [token] = useState(readLinkToken);
  useEffect(() => {
    if (window.location.hash) window.history.replaceState(null, '', window.location.pathname);
  }, []);
  const [form] = Form.useForm<Values>();
  const [pending, setPending] = useState(false);
  const [linkError, setLinkError] = useState<string | null>(token ? null : INVALID_LINK);
  const [done, setDone] = useState<string | null>(null);
  const navigate = useNavigate();

  const save = async (values: Values) => {
    if (!token) return;
    setPending(true);
    try {
      const res = await apiRequest('put', '/password_resets/{token}', { params: { token }, values, token: null });
      setDone(res.message);
    } catch (error) {
      const fields = fieldErrors<Values>(error, ['password', 'password_confirmation']);
      if (fields.length) form.setFields(fields);
      else setLinkError(isHttpError(error) ? error.message : INVALID_LINK);
    } finally {
      setPending(false);
    }
  };

  return (
    <div className="login-page login-page-single">
      <main className="login-main">
        <div className="login-card">
          <VigiaLogo size={36} />
          <h1 className="login-title">Nueva contraseña</h1>
          {done ? (
            <>
              <Alert type="success" showIcon role="status" message={done} className="login-error" />
              <Button type="primary" size="large" block onClick={() => navigate('/', { replace: true })}>
                Iniciar sesión
              </Button>
            </>
          ) : linkError ? (
            <>
              <Alert type="error" showIcon role="alert" message={linkError} className="login-error" />
              <p>
                Puede pedir un enlace nuevo con <strong>¿Olvidó su contraseña?</strong> en la página de inicio de sesión.
              </p>
              <Link to="/">Volver al inicio de sesión</Link>
            </>
          ) : (
            <>
              <p className="login-subtitle">
                Elija la contraseña nueva de su cuenta. Al guardarla se cerrarán todas sus sesiones abiertas.
              </p>
              <Form<Values> form={form} layout="vertical" requiredMark={false} onFinish={save} disabled={pending} size="large">
                <Form.Item
                  name="password"
                  label="Contraseña nueva"
                  extra="Mínimo 8 caracteres, con mayúscula, minúscula, número y uno de @$!%*?&."
                  validateTrigger="onBlur"
                  rules={[fromValidator(validatePassword)]}
                >
                  <Input.Password prefix={<LockOutlined />} autoComplete="new-password" />
                </Form.Item>
                <Form.Item
                  name="password_confirmation"
                  label="Confirmar contraseña"
                  dependencies={['password']}
                  validateTrigger="onBlur"
                  rules={[({ getFieldValue }) => fromValidator((v) => validatePasswordConfirmation(getFieldValue('password'), v))]}
                >
                  <Input.Password prefix={<LockOutlined />} autoComplete="new-password" />
                </Form.Item>
                <Button type="primary" htmlType="submit" block loading={pending}>
                  Guardar contraseña
                </Button>
              </Form>
            </>
          )}
        </div>
      </main>
    </div>
  );
}
