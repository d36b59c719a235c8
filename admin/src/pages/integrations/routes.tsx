import { lazy, type ReactElement } from 'react';
import { Route } from 'react-router';

const WebhooksPage = lazy(() => import('./WebhooksPage'));
const IntegrationsPage = lazy(() => import('./IntegrationsPage'));
const ReportsPage = lazy(() => import('./ReportsPage'));

/** Webhooks HL7 FHIR, integrations and the reports page (issue 5). */
export const integrationRoutes: ReactElement[] = [
  <Route key="/webhooks" path="/webhooks" element={<WebhooksPage />} />,
  <Route key="/integrations" path="/integrations" element={<IntegrationsPage />} />,
  <Route key="/reports" path="/reports" element={<ReportsPage />} />,
];
