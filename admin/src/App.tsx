import { lazy, Suspense, useEffect } from 'react';
import { BrowserRouter, Navigate, Route, Routes, useLocation } from 'react-router';
import { App as AntdApp, ConfigProvider, Spin, type ThemeConfig } from 'antd';
import esES from 'antd/locale/es_ES';
import { Refine } from '@refinedev/core';
import routerProvider from '@refinedev/react-router';
import { PORTAL_PATHS } from './constants';
import { crudRoutes } from './crud/routes';
import { RequireSession } from './layout/RequireSession';
import LoginPage from './pages/login/LoginPage';
import { PLACEHOLDER_SECTIONS } from './pages/placeholder/sections';
import { authProvider } from './providers/auth';
import { dataProvider } from './providers/data';
import { i18nProvider } from './providers/i18n';
import { NotificationOverflow, useNotificationProvider } from './providers/notification';
import { resources, toRefineResources } from './resources';

// Everything behind the login is loaded on demand, so the login page downloads little.
const MainLayout = lazy(() => import('./layout/MainLayout'));
const DashboardPage = lazy(() => import('./pages/dashboard/DashboardPage'));
const NotFoundPage = lazy(() => import('./pages/not-found/NotFoundPage'));
const PlaceholderPage = lazy(() => import('./pages/placeholder/PlaceholderPage'));

const theme: ThemeConfig = {
  token: {
    colorPrimary: '#0e7c7b',
    colorInfo: '#0a6fa8',
    colorSuccess: '#2e7d32',
    colorError: '#c62828',
    colorLink: '#0b6e8c',
    borderRadius: 8,
    fontFamily:
      "'Inter', system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, 'Noto Sans', sans-serif",
  },
  components: {
    Layout: { siderBg: '#ffffff', headerBg: '#ffffff', bodyBg: '#f4f7f8' },
    Menu: { itemSelectedBg: '#e0f2ef', itemSelectedColor: '#0a5f5e' },
  },
};

const refineResources = toRefineResources(resources);

function Loading() {
  return (
    <div className="vigia-boot" role="status" aria-label="Cargando">
      <Spin size="large" />
    </div>
  );
}

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

function AppRoutes() {
  return (
    <Routes>
      <Route path="/" element={<LoginPage />} />
      <Route path="/login" element={<Navigate to="/" replace />} />
      {PORTAL_PATHS.map((path) => (
        <Route key={path} path={`${path}/*`} element={<PortalHandoff />} />
      ))}

      <Route
        element={
          <RequireSession>
            <Suspense fallback={<Loading />}>
              <MainLayout />
            </Suspense>
          </RequireSession>
        }
      >
        <Route path="/dashboard" element={<DashboardPage />} />
        {resources.flatMap(crudRoutes)}
        {PLACEHOLDER_SECTIONS.map(({ path, title }) => (
          <Route key={path} path={path} element={<PlaceholderPage key={path} title={title} />} />
        ))}
        <Route path="/404notfound" element={<NotFoundPage />} />
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}

export default function App() {
  return (
    <BrowserRouter>
      <ConfigProvider locale={esES} theme={theme}>
        <AntdApp>
          <Refine
            routerProvider={routerProvider}
            dataProvider={dataProvider}
            authProvider={authProvider}
            notificationProvider={useNotificationProvider}
            i18nProvider={i18nProvider}
            resources={refineResources}
            options={{
              disableTelemetry: true,
              syncWithLocation: false,
              warnWhenUnsavedChanges: false,
              breadcrumb: false,
              redirect: { afterCreate: false, afterEdit: false, afterClone: false },
              title: { text: 'Vigía' },
            }}
          >
            <AppRoutes />
            <NotificationOverflow />
          </Refine>
        </AntdApp>
      </ConfigProvider>
    </BrowserRouter>
  );
}
