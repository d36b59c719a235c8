import { lazy, type ReactElement } from 'react';
import { Route } from 'react-router';

const ReportsPage = lazy(() => import('./ReportsPage'));

/** Reportes (issue 5): the `reports` screen. */
export const reportRoutes: ReactElement[] = [<Route key="/reports" path="/reports" element={<ReportsPage />} />];
