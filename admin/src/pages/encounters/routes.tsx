import { lazy, type ReactElement } from 'react';
import { Route } from 'react-router';

const EncounterPage = lazy(() => import('./EncounterPage'));

/** An encounter's screen (issue 5): the `encounters` resource's record. */
export const encounterRoutes: ReactElement[] = [<Route key="/encounters/:id" path="/encounters/:id" element={<EncounterPage />} />];
