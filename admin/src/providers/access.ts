import type { AccessControlProvider } from '@refinedev/core';
import { can, isRole } from '@vigia/contract/rules/access';
import { readSession } from '../session';
import { crudResources } from '../resources/registry';

export const FORBIDDEN_REASON = 'Su rol no permite realizar esta acción.';
const WRITES = new Set(['create', 'edit', 'delete', 'clone']);

/**
 * Refine asks this before enabling a control; the answer is the API's own role table, so the
 * screen and the server never disagree about who may write.
 */
export const accessControlProvider: AccessControlProvider = {
  can: async ({ resource, action }) => {
    if (!WRITES.has(action)) return { can: true };
    const role = readSession()?.role_name;
    const declaration = crudResources.find((r) => r.name === resource);
    const allowed = !!declaration && isRole(role) && can(role, declaration.writes);
    return allowed ? { can: true } : { can: false, reason: FORBIDDEN_REASON };
  },
  options: { buttons: { enableAccessControl: true, hideIfUnauthorized: false } },
};
