import { lazy, Suspense, useEffect } from 'react';
import { BrowserRouter, Route, Routes, useLocation } from 'react-router';
import { ConfigProvider } from 'antd';
// The ES module: the CommonJS entry 'antd/locale/es_ES' reached the built app as `{ default }`, so
// antd fell back to English ('Next Page') and left the table's expand buttons unnamed (issue 19).
import esES from 'antd/es/locale/es_ES';
import { PORTAL_PATHS } from './constants';
import { Loading } from './layout/Loading';
import { RequireSession } from './layout/RequireSession';
import LoginPage from './pages/login/LoginPage';
import { NotificationHost } from './providers/notification';
import { themeFor } from './theme';
import { VALIDATE_MESSAGES } from './providers/validate-messages';
import { useReducedMotion } from './hooks/useReducedMotion';
import { APP_SHELL } from './route-modules';
import { lazyLoaded } from './ui/loaded-lazy';

/**
 * Refine, the layout and every screen behind the login load on demand: the login page (the first
 * thing most visitors see) downloads only React, the router and a few antd components.
 */
const AppShell = lazyLoaded(APP_SHELL);
/** Single sign-on: /login starts it, /sso/callback (the provider's redirect URI) finishes it. */
const SsoLoginPage = lazy(() => import('./pages/sso/SsoLoginPage'));
const SsoCallbackPage = lazy(() => import('./pages/sso/SsoCallbackPage'));
/** The link of a password recovery e-mail (issue 38): no session needed. */
const PasswordResetPage = lazy(() => import('./pages/login/PasswordResetPage'));

/**
 * /login_patient and /portal_patient belong to the patient portal, a separate app served by the
 * API. A link that reaches them inside this app is handed over with a full page load; if this app
 * was itself served there (development server), it says where the portal lives instead of looping.
 */
const bootPath = window.location.pathname;
function PortalHandoff() {
  const { pathname, search } = useLocation();
  const servedHere = pathname === bootPath;
  useEffect(() => {
    if (!servedHere) window.location.assign(pathname + search);
  }, [servedHere, pathname, search]);
  return servedHere ? (
    <div className="vigia-boot">El portal del paciente es una aplicación aparte, publicada por el servidor de Vigía.</div>
  ) : (
    <Loading />
  );
}

export default function App() {
  const reducedMotion = useReducedMotion();
  return (
    <BrowserRouter>
      <ConfigProvider locale={esES} theme={themeFor(reducedMotion)} form={{ validateMessages: VALIDATE_MESSAGES }}>
        <NotificationHost />
        <Routes>
          <Route path="/" element={<LoginPage />} />
          <Route
            path="/login"
            element={
              <Suspense fallback={<Loading />}>
                <SsoLoginPage />
              </Suspense>
            }
          />
          <Route
            path="/sso/callback"
            element={
              <Suspense fallback={<Loading />}>
                <SsoCallbackPage />
              </Suspense>
            }
          />
          <Route
            path="/password_resets"
            element={
              <Suspense fallback={<Loading />}>
                <PasswordResetPage />
              </Suspense>
            }
          />
          {PORTAL_PATHS.map((path) => (
            <Route key={path} path={`${path}/*`} element={<PortalHandoff />} />
          ))}
          <Route
            path="*"
            element={
              <RequireSession>
                <Suspense fallback={<Loading />}>
                  <AppShell />
                </Suspense>
              </RequireSession>
            }
          />
        </Routes>
      </ConfigProvider>
    </BrowserRouter>
  );
}
