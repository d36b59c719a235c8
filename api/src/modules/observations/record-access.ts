import type { StaffPrincipal } from '../../http/auth.js';
import { forbidden } from '../../http/errors.js';
import { can, PATIENT_STATUS, type Action } from '@vigia/contract/rules/access';
import { findPatient } from '../patients/patients.service.js';
import type { Patient } from '../../db/models/patients.model.js';

/** Shared by the patient-record tabs (notes, conditions, variables, AI instructions, caregivers). */
const DECEASED_MESSAGE = 'El paciente está registrado como fallecido; su ficha no admite cambios.';

/** A patient of the principal's client (else 404, D14) that this role may change (else 403). */
export async function patientForWrite(principal: StaffPrincipal, patientId: number, action: Action): Promise<Patient> {
  const p = await findPatient(principal.clientId, patientId);
  if (!can(principal.role, action)) throw forbidden();
  if (p.status === PATIENT_STATUS.deceased) throw forbidden(DECEASED_MESSAGE);
  return p;
}

/** Any staff of the patient's client may read its record. */
export function patientForRead(principal: StaffPrincipal, patientId: number): Promise<Patient> {
  return findPatient(principal.clientId, patientId);
}
