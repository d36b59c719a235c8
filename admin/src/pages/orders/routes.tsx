import type { ReactElement } from 'react';

/** Orders and activities: /orders, order detail, /activities (issue 4). Each element is a <Route key=... path=... element=... />. */
export const orderRoutes: ReactElement[] = [];
