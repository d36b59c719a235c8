import { Tag } from 'antd';
import { DECEASED_REASON } from '../../../../components/record-access';
import { FORBIDDEN_REASON } from '../../../../providers/access';
import type { Patient } from '../../types';

export const INCOMPLETE = <Tag color="red">Dato Incompleto</Tag>;

/** Whether this patient's profile may change (01 §6 `edit`), and why not. */
export function editState(patient: Patient) {
  if (patient.status === 3) return { canEdit: false, reason: DECEASED_REASON };
  return patient.permissions.edit ? { canEdit: true, reason: undefined } : { canEdit: false, reason: FORBIDDEN_REASON };
}
