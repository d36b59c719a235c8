import type { ReactElement } from 'react';

/** Alert handling: /alerts_management, alert detail (issue 4). Alarm rules are a resource. Each element is a <Route key=... path=... element=... />. */
export const alertRoutes: ReactElement[] = [];
