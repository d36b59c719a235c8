import { lazy, type ReactElement } from 'react';
import { Route } from 'react-router';

const OrderDetailPage = lazy(() => import('./OrderDetailPage'));
const ActivitiesPage = lazy(() => import('../activities/ActivitiesPage'));

/**
 * Order detail (02 §2.5) and the client's 'Actividades' worklist (P69). 'Gestión de órdenes'
 * (/orders, 02 §2.6) is the declarative resource `resources/orders.ts`, routed with the others.
 */
export const orderRoutes: ReactElement[] = [
  <Route key="/activities" path="/activities" element={<ActivitiesPage />} />,
  <Route key="/patients/:patient_id/orders/:order_id" path="/patients/:patient_id/orders/:order_id" element={<OrderDetailPage />} />,
];
