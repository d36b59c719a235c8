import type { ReactElement } from 'react';

/** Inventory, encounters and parameters (issue 5). Users are a resource. Each element is a <Route key=... path=... element=... />. */
export const administrationRoutes: ReactElement[] = [];
