import { lazy } from 'react';
import { Route, Routes } from 'react-router';
import { App as AntdApp } from 'antd';
import { Refine } from '@refinedev/core';
import { routerProvider } from './providers/router';
import MainLayout from './layout/MainLayout';
import { PLACEHOLDER_SECTIONS } from './pages/placeholder/sections';
import { accessControlProvider } from './providers/access';
import { authProvider } from './providers/auth';
import { dataProvider } from './providers/data';
import { i18nProvider } from './providers/i18n';
import { notificationProvider } from './providers/notification';
import { TOAST_TOP_PX } from './constants';
import { refineResources, registeredScreens } from './resources/registry';

const NotFoundPage = lazy(() => import('./components/NotFoundPage'));
const PlaceholderPage = lazy(() => import('./pages/placeholder/PlaceholderPage'));
const FeedbackDialog = lazy(() => import('./pages/feedbacks/FeedbackDialog'));

/** Client errors (400–499) will not change on a retry; network and server errors get one more try. */
function shouldRetry(failureCount: number, error: unknown): boolean {
  const status = (error as { statusCode?: number } | null)?.statusCode ?? 0;
  if (status >= 400 && status < 500) return false;
  return failureCount < 1;
}

/** The logged-in application: Refine with its providers, the main layout and the routed screens. */
export default function AppShell() {
  return (
    // antd's messages (App.useApp) start below the header, as the notifications do.
    <AntdApp component={false} message={{ top: TOAST_TOP_PX }} notification={{ top: TOAST_TOP_PX, placement: 'topRight' }}>
      <Refine
        routerProvider={routerProvider}
        dataProvider={dataProvider}
        authProvider={authProvider}
        accessControlProvider={accessControlProvider}
        notificationProvider={notificationProvider}
        i18nProvider={i18nProvider}
        resources={refineResources}
        options={{
          disableTelemetry: true,
          syncWithLocation: false,
          warnWhenUnsavedChanges: false,
          breadcrumb: false,
          redirect: { afterCreate: false, afterEdit: false, afterClone: false },
          title: { text: 'Vigía' },
          reactQuery: { clientConfig: { defaultOptions: { queries: { retry: shouldRetry } } } },
        }}
      >
        <Routes>
          <Route element={<MainLayout FeedbackDialog={FeedbackDialog} />}>
            {registeredScreens.map(({ path, element }) => (
              <Route key={path} path={path} element={element} />
            ))}
            {PLACEHOLDER_SECTIONS.map(({ path, title }) => (
              <Route key={path} path={path} element={<PlaceholderPage key={path} title={title} />} />
            ))}
            <Route path="/404notfound" element={<NotFoundPage />} />
            <Route path="*" element={<NotFoundPage />} />
          </Route>
        </Routes>
      </Refine>
    </AntdApp>
  );
}
