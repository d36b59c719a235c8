import type { ReactElement } from 'react';

/** Pacientes: list and patient page (issue 3). Each element is a <Route key=... path=... element=... />. */
export const patientRoutes: ReactElement[] = [];
