import { lazy, type ReactElement } from 'react';
import { Route } from 'react-router';

const IntegrationsPage = lazy(() => import('./IntegrationsPage'));

/** Integraciones (issue 5): the `integrations` screen. */
export const integrationRoutes: ReactElement[] = [<Route key="/integrations" path="/integrations" element={<IntegrationsPage />} />];
