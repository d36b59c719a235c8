import { lazy, type ReactElement } from 'react';
import { Route } from 'react-router';

const StockPage = lazy(() => import('./StockPage'));
const EncounterPage = lazy(() => import('./EncounterPage'));
const UnknownMessagesPage = lazy(() => import('./UnknownMessagesPage'));

/** Inventory, encounters and parameters (issue 5). Users, /inventory, /supplies and /moves are resources. */
export const administrationRoutes: ReactElement[] = [
  <Route key="/stocks/:id" path="/stocks/:id" element={<StockPage />} />,
  <Route key="/encounters/:id" path="/encounters/:id" element={<EncounterPage />} />,
  <Route key="/unknown_messages" path="/unknown_messages" element={<UnknownMessagesPage />} />,
];
