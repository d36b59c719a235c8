import { lazy, type ReactElement } from 'react';
import { Route } from 'react-router';

const WebhooksPage = lazy(() => import('./WebhooksPage'));

/** Webhooks HL7 FHIR (issue 5): the `webhooks` screen. */
export const webhookRoutes: ReactElement[] = [<Route key="/webhooks" path="/webhooks" element={<WebhooksPage />} />];
