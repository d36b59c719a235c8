import { lazy, type ReactElement } from 'react';
import { Route } from 'react-router';

const AlertsManagerPage = lazy(() => import('./AlertsManagerPage'));
const AlertDetailPage = lazy(() => import('./AlertDetailPage'));

/** Alert handling (02 §2.8, §2.9). The alarm rules screen (/alerts) is the `alarms` resource. */
export const alertRoutes: ReactElement[] = [
  <Route key="/alerts_management" path="/alerts_management" element={<AlertsManagerPage />} />,
  <Route key="/patients/:patient_id/alerts/:alert_id" path="/patients/:patient_id/alerts/:alert_id" element={<AlertDetailPage />} />,
];
