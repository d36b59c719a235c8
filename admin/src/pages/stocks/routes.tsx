import { lazy, type ReactElement } from 'react';
import { Route } from 'react-router';

const StockPage = lazy(() => import('./StockPage'));

/** 'Ver Lote' (issue 5): one record of the `stocks` resource, whose list is /inventory. */
export const stockRoutes: ReactElement[] = [<Route key="/stocks/:id" path="/stocks/:id" element={<StockPage />} />];
