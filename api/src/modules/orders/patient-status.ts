import type { Sequelize, Transaction } from 'sequelize';
import { execute, sqlIn } from '../../db/sql.js';
import { DECEASED_CLOSE_ENTRY, closeOpenAlertsOfPatient, statusChangeAuthor } from '../alerts/alerts.autoclose.js';
import { ACTIVITY_STATUS, ORDER_STATUS } from '@vigia/contract/rules/activities';
import { PATIENT_STATUS } from '@vigia/contract/rules/access';

export interface PatientStatusChange {
  patient_id: number;
  client_id: number;
  from: number;
  to: number;
}

/**
 * D9 effects of a patient's status change on its orders and activities, inside the update's
 * transaction: deceased (3) cancels its open orders and every pending activity and closes its open
 * alerts with an entry by the user who recorded the death (P68); inactive (0)
 * suspends (5) future activities (reminders stop with them); back to active (1) or incomplete (2)
 * brings back the suspended ones still in the future. Conditional UPDATEs: applying twice is harmless.
 */
export async function applyPatientStatusChange(
  ctx: { sequelize: Sequelize; transaction: Transaction; now: Date },
  change: PatientStatusChange,
): Promise<void> {
  if (change.from === change.to) return;
  const r = { patientId: change.patient_id, clientId: change.client_id, now: ctx.now };
  const run = (sql: string) => execute(ctx.sequelize, sql, r, ctx.transaction);
  if (change.to === PATIENT_STATUS.deceased) {
    await run(
      `UPDATE orders SET status = ${ORDER_STATUS.cancelled}, updated_at = :now WHERE patient_id = :patientId AND client_id = :clientId AND status IN ${sqlIn(ORDER_STATUS.unmanaged, ORDER_STATUS.scheduled, ORDER_STATUS.running)}`,
    );
    await run(
      `UPDATE activities SET status = ${ACTIVITY_STATUS.cancelled}, updated_at = :now WHERE patient_id = :patientId AND client_id = :clientId AND status IN ${sqlIn(ACTIVITY_STATUS.scheduled, ACTIVITY_STATUS.inProgress, ACTIVITY_STATUS.suspended)}`,
    );
    const author = await statusChangeAuthor(ctx.sequelize, ctx.transaction, change.patient_id, PATIENT_STATUS.deceased);
    await closeOpenAlertsOfPatient(ctx, change, author, DECEASED_CLOSE_ENTRY);
  } else if (change.to === PATIENT_STATUS.inactive) {
    await run(
      `UPDATE activities SET status = ${ACTIVITY_STATUS.suspended}, updated_at = :now WHERE patient_id = :patientId AND client_id = :clientId AND status = ${ACTIVITY_STATUS.scheduled} AND programmed_at > :now`,
    );
  } else if (change.from === PATIENT_STATUS.inactive) {
    await run(
      `UPDATE activities SET status = ${ACTIVITY_STATUS.scheduled}, updated_at = :now WHERE patient_id = :patientId AND client_id = :clientId AND status = ${ACTIVITY_STATUS.suspended} AND programmed_at > :now`,
    );
  }
}
