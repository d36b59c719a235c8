import type { AccessControlProvider } from '@refinedev/core';
import { can, isRole, type Action } from '@vigia/contract/rules/access';
import { readSession } from '../session';

export const FORBIDDEN_REASON = 'Su rol no permite realizar esta acción.';
const WRITES = new Set(['create', 'edit', 'delete', 'clone']);

/**
 * The action each CRUD resource's writes need (its declaration's `writes`), told by the resource
 * registry as it registers them: providers sit below the resources and do not import them (issue 40).
 */
const writeActions = new Map<string, Action>();

export function registerWriteAction(resource: string, action: Action): void {
  writeActions.set(resource, action);
}

/**
 * Refine asks this before enabling a control; the answer is the API's own role table, so the
 * screen and the server never disagree about who may write.
 */
export const accessControlProvider: AccessControlProvider = {
  can: async ({ resource, action }) => {
    if (!WRITES.has(action)) return { can: true };
    const role = readSession()?.role_name;
    const writes = resource ? writeActions.get(resource) : undefined;
    const allowed = !!writes && isRole(role) && can(role, writes);
    return allowed ? { can: true } : { can: false, reason: FORBIDDEN_REASON };
  },
  options: { buttons: { enableAccessControl: true, hideIfUnauthorized: false } },
};

/** Whether the signed-in user may do `action` and, when not, the reason a disabled control shows. */
export interface WriteAccess {
  allowed: boolean;
  reason?: string;
}

/**
 * The role half of the server's check (`requireStaff(action)`, `can(role, action)`): every write
 * control of the staff app asks this (or the patient's `permissions`, which add its status), and
 * is shown disabled with `reason` as its tooltip when the answer is no (02 §2.13: 'Without a
 * permission the control is shown disabled').
 */
export function roleAccess(action: Action): WriteAccess {
  const role = readSession()?.role_name;
  return isRole(role) && can(role, action) ? { allowed: true } : { allowed: false, reason: FORBIDDEN_REASON };
}
