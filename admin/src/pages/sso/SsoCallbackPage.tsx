import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import { Spin, Typography } from 'antd';
import { saveSession } from '../../session';
import { SSO_FAILED_TEXT, SSO_FINALIZING_TEXT, finishSso, markSsoFailed } from './sso';

/** The identity provider's callback route (03 §2): finishes the sign-on, then the dashboard; on failure the alert and /login (03 §8). */
export default function SsoCallbackPage() {
  const navigate = useNavigate();
  const ran = useRef(false);
  useEffect(() => {
    if (ran.current) return;
    ran.current = true;
    finishSso(new URLSearchParams(window.location.search)).then(
      (session) => {
        saveSession(session);
        // The main layout loads with a fresh page (03 §2 'sets the main layout and reloads').
        window.location.assign('/dashboard');
      },
      () => {
        markSsoFailed();
        window.alert(SSO_FAILED_TEXT);
        navigate('/login', { replace: true });
      },
    );
  }, [navigate]);
  return (
    <div style={{ minHeight: '100vh', display: 'grid', placeItems: 'center' }}>
      <div style={{ textAlign: 'center' }}>
        <Spin size="large" />
        <Typography.Paragraph style={{ marginTop: 16 }}>{SSO_FINALIZING_TEXT}</Typography.Paragraph>
      </div>
    </div>
  );
}
