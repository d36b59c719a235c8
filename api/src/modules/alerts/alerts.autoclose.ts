import type { Sequelize, Transaction } from 'sequelize';
import { execute, select } from '../../db/sql.js';
import { ALERT_STATUS } from '@vigia/contract/rules/alarms';

export const DECEASED_CLOSE_ENTRY = 'Alerta cerrada automáticamente: el paciente fue registrado como fallecido.';

/** Author of automatic entries when no user is known (a change made by the system itself). */
const SYSTEM_AUTHOR = 'Vigía';

/**
 * Closes every open alert of a patient inside the caller's transaction (P68): each gets the entry
 * `text` by `author` and status 2 with no classification (`close_type` null: nobody judged it true
 * or false). Conditional on status 1, so running it twice, or after a user closed one, is harmless.
 * Answers how many alerts it closed.
 */
export async function closeOpenAlertsOfPatient(
  ctx: { sequelize: Sequelize; transaction: Transaction; now: Date },
  target: { patient_id: number; client_id: number },
  author: { user_id: number | null; user_name: string | null },
  text: string,
): Promise<number> {
  const r = {
    patientId: target.patient_id,
    clientId: target.client_id,
    now: ctx.now,
    text,
    userId: author.user_id,
    userName: author.user_name?.trim() || SYSTEM_AUTHOR,
  };
  await execute(
    ctx.sequelize,
    `INSERT INTO alert_entries (alert_id, user_id, user_name, description, created_at)
     SELECT id, :userId, :userName, :text, :now FROM alerts WHERE patient_id = :patientId AND client_id = :clientId AND status = ${ALERT_STATUS.open}`,
    r,
    ctx.transaction,
  );
  return execute(
    ctx.sequelize,
    `UPDATE alerts SET status = ${ALERT_STATUS.closed}, close_type = NULL, closed_by = :userId, closed_at = :now, updated_at = :now
     WHERE patient_id = :patientId AND client_id = :clientId AND status = ${ALERT_STATUS.open}`,
    r,
    ctx.transaction,
  );
}

/** Who recorded the patient's latest change to `toStatus` (the status-changes log, written first in the same transaction). */
export async function statusChangeAuthor(sequelize: Sequelize, transaction: Transaction, patientId: number, toStatus: number) {
  const [row] = await select<{ user_id: number | null; first_name: string | null; last_name: string | null }>(
    sequelize,
    `SELECT c.user_id, u.first_name, u.last_name FROM patient_status_changes c LEFT JOIN users u ON u.id = c.user_id
     WHERE c.patient_id = :patientId AND c.to_status = :toStatus ORDER BY c.id DESC LIMIT 1`,
    { patientId, toStatus },
    transaction,
  );
  if (!row) return { user_id: null, user_name: null };
  return {
    user_id: row.user_id == null ? null : Number(row.user_id),
    user_name: row.first_name ? `${row.first_name} ${row.last_name ?? ''}` : null,
  };
}
