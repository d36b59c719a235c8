import { useEffect } from 'react';
import { LOGIN_PATH, PORTAL_PATH, navigate, usePathname } from './navigation';
import { readSession } from './session';
import { LoginPage } from './login/LoginPage';
import { RecordPage } from './record/RecordPage';

/** Route guard: the portal needs a stored token; anything unknown goes to the login. */
function resolveScreen(pathname: string): { screen: 'login' | 'portal'; redirect?: string } {
  const session = readSession();
  if (pathname === PORTAL_PATH) return session ? { screen: 'portal' } : { screen: 'login', redirect: LOGIN_PATH };
  if (pathname === LOGIN_PATH) return session ? { screen: 'portal', redirect: PORTAL_PATH } : { screen: 'login' };
  return session ? { screen: 'portal', redirect: PORTAL_PATH } : { screen: 'login', redirect: LOGIN_PATH };
}

export function App() {
  const pathname = usePathname();
  const { screen, redirect } = resolveScreen(pathname);

  useEffect(() => {
    if (redirect) navigate(redirect, { replace: true });
  }, [redirect]);

  useEffect(() => {
    document.title = screen === 'portal' ? 'Vigía · Portal de paciente' : 'Vigía · Ingreso de pacientes';
  }, [screen]);

  return screen === 'portal' ? <RecordPage /> : <LoginPage />;
}
