import { readSession } from '../../session';
import { can, isRole, PATIENT_STATUS, type Action } from '@vigia/contract/rules/access';
import { FORBIDDEN_REASON } from '../../providers/access';
import type { Patient } from './types';

export const DECEASED_REASON = 'El paciente está registrado como fallecido; su ficha no admite cambios.';

/** Whether the signed-in user may change this part of the patient's record, and why not (same table as the API). */
export function recordWriteState(patient: Patient, action: Action): { canWrite: boolean; reason?: string } {
  if (patient.status === PATIENT_STATUS.deceased) return { canWrite: false, reason: DECEASED_REASON };
  const role = readSession()?.role_name;
  return isRole(role) && can(role, action) ? { canWrite: true } : { canWrite: false, reason: FORBIDDEN_REASON };
}
