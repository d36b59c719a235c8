import { lazy, type ReactElement } from 'react';
import { Route } from 'react-router';

const AuditPage = lazy(() => import('./AuditPage'));

/** 'Auditoría' (issue 8): the institution's audit trail, for administrators. */
export const auditRoutes: ReactElement[] = [<Route key="/audit" path="/audit" element={<AuditPage />} />];
