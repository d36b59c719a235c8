import { readSession } from '../session';
import { can, isRole, PATIENT_STATUS, type Action } from '@vigia/contract/rules/access';
import { FORBIDDEN_REASON, type WriteAccess } from '../providers/access';
import type { Schemas } from '../contract';

type Patient = Schemas['Patient'];

export const DECEASED_REASON = 'El paciente está registrado como fallecido; su ficha no admite cambios.';

/** Whether the signed-in user may change this part of the patient's record, and why not (same table as the API). */
export function recordWriteState(patient: Patient, action: Action): { canWrite: boolean; reason?: string } {
  if (patient.status === PATIENT_STATUS.deceased) return { canWrite: false, reason: DECEASED_REASON };
  const role = readSession()?.role_name;
  return isRole(role) && can(role, action) ? { canWrite: true } : { canWrite: false, reason: FORBIDDEN_REASON };
}

export const INACTIVE_REASON = 'El paciente está inactivo; actívelo para programar órdenes y actividades.';

/**
 * One of the patient's `permissions` (computed by the server from the role and the status, 01 §6)
 * as a control's state: allowed, or the reason its tooltip gives.
 */
export function permissionState(patient: Patient, key: keyof Patient['permissions']): WriteAccess {
  if (patient.permissions?.[key]) return { allowed: true };
  if (patient.status === PATIENT_STATUS.deceased) return { allowed: false, reason: DECEASED_REASON };
  const role = readSession()?.role_name;
  const roleAllows = isRole(role) && can(role, PERMISSION_ACTIONS[key]);
  return { allowed: false, reason: roleAllows && patient.status === PATIENT_STATUS.inactive ? INACTIVE_REASON : FORBIDDEN_REASON };
}

const PERMISSION_ACTIONS: Record<keyof Patient['permissions'], Action> = {
  edit: 'patients.edit',
  add_tags: 'patients.add_tags',
  add_tag: 'patients.add_tags',
  change_status: 'patients.change_status',
  set_deceased: 'patients.set_deceased',
  manage_activities: 'activities.manage',
  get_reports: 'reports.get',
  config_alerts: 'alerts.config',
  create_order: 'orders.create',
};
