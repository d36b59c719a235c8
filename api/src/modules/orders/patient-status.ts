import type { Sequelize, Transaction } from 'sequelize';

export interface PatientStatusChange {
  patient_id: number;
  client_id: number;
  from: number;
  to: number;
}

/**
 * D9 effects of a patient's status change on its orders and activities, inside the update's
 * transaction: deceased (3) cancels orders and future activities; inactive (0) suspends (5) future
 * activities; back to active brings back the suspended ones still in the future.
 * Owner: orders work; this placeholder is replaced there.
 */
export async function applyPatientStatusChange(_ctx: { sequelize: Sequelize; transaction: Transaction; now: Date }, _change: PatientStatusChange): Promise<void> {}
