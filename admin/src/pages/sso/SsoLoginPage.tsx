import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { Alert, Button, Card, Space, Typography } from 'antd';
import { LoginOutlined } from '@ant-design/icons';
import { VigiaLogo } from '../../layout/Logo';
import { usePageTitle } from '../../layout/usePageTitle';
import { isHttpError } from '../../providers/errors';
import { SSO_FAILED_TEXT, startSso, takeSsoFailed } from './sso';

/** /login (03 §2): bare layout; starts single sign-on at the identity provider, or says why it could not. */
export default function SsoLoginPage() {
  usePageTitle('Inicio de sesión único');
  const [failed] = useState(takeSsoFailed);
  const [error, setError] = useState<string | null>(failed ? SSO_FAILED_TEXT : null);
  const [busy, setBusy] = useState(false);
  const started = useRef(false);

  async function go() {
    setBusy(true);
    setError(null);
    try {
      await startSso();
    } catch (e) {
      setError(isHttpError(e) ? e.message : SSO_FAILED_TEXT);
      setBusy(false);
    }
  }

  useEffect(() => {
    if (failed || started.current) return;
    started.current = true;
    void go();
  }, [failed]);

  return (
    <div className="vigia-boot" style={{ minHeight: '100vh', display: 'grid', placeItems: 'center', padding: 16 }}>
      <Card style={{ maxWidth: 420, width: '100%' }}>
        <Space direction="vertical" size="middle" style={{ width: '100%' }}>
          <VigiaLogo />
          <Typography.Title level={4} style={{ margin: 0 }}>
            Inicio de sesión único
          </Typography.Title>
          {error ? (
            <Alert type="error" showIcon message={error} />
          ) : (
            <Typography.Text>Le llevamos al proveedor de identidad de su institución…</Typography.Text>
          )}
          <Button type="primary" icon={<LoginOutlined />} loading={busy} onClick={go} block>
            Ingresar con el proveedor de identidad
          </Button>
          <Link to="/">Ingresar con correo y contraseña</Link>
        </Space>
      </Card>
    </div>
  );
}
