import type { ReactElement } from 'react';

/** AI instructions of the client and of a tag (issues 3 and 6). Each element is a <Route key=... path=... element=... />. */
export const promptRoutes: ReactElement[] = [];
