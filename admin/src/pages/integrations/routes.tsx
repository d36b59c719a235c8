import type { ReactElement } from 'react';

/** Webhooks HL7 FHIR, integrations and the reports page (issue 5). Each element is a <Route key=... path=... element=... />. */
export const integrationRoutes: ReactElement[] = [];
