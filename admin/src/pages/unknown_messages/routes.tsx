import { lazy, type ReactElement } from 'react';
import { Route } from 'react-router';

const UnknownMessagesPage = lazy(() => import('./UnknownMessagesPage'));

/** 'Números desconocidos' (P91): the `unknown_messages` screen. */
export const unknownMessageRoutes: ReactElement[] = [
  <Route key="/unknown_messages" path="/unknown_messages" element={<UnknownMessagesPage />} />,
];
