import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { readToken, rememberRedirect } from '../session';

/**
 * Route guard (03 §2): it tests only that a token exists. Without one, the requested full path is
 * remembered and the visitor goes to the staff login at /.
 */
export function RequireSession({ children }: { children: ReactNode }) {
  const location = useLocation();
  if (!readToken()) {
    rememberRedirect(location.pathname + location.search);
    return <Navigate to="/" replace />;
  }
  return <>{children}</>;
}
