import { lazy, type ReactElement } from 'react';
import { Route } from 'react-router';

const OrdersManagementPage = lazy(() => import('./OrdersManagementPage'));
const OrderDetailPage = lazy(() => import('./OrderDetailPage'));

/** Orders and activities: /orders, order detail (02 §2.5, §2.6). /activities stays a placeholder: its contents are not shown (02 §2.13). */
export const orderRoutes: ReactElement[] = [
  <Route key="/orders" path="/orders" element={<OrdersManagementPage />} />,
  <Route key="/patients/:patient_id/orders/:order_id" path="/patients/:patient_id/orders/:order_id" element={<OrderDetailPage />} />,
];
