import type { Sequelize, Transaction } from 'sequelize';
import { execute } from '../../db/sql.js';
import { ALERT_STATUS } from '@vigia/contract/rules/alarms';

/** Author of the automatic escalation entry (as the automatic close's entries). */
const SYSTEM_AUTHOR = 'Vigía';

/**
 * Escalates a high-priority alert still open with no entry (issue 20): the 'Escalada' mark and the
 * automatic entry. The alerts module is the one writer of alerts and alert_entries (issue 40); the
 * notification job calls this and tells people. The conditional UPDATE is the one gate: an entry,
 * a close or another process that escalated first leaves it unchanged (answers false).
 */
export async function escalateAlert(
  sequelize: Sequelize,
  input: { alertId: number; entryText: string; now: Date },
  transaction: Transaction,
): Promise<boolean> {
  const changed = await execute(
    sequelize,
    `UPDATE alerts SET escalated_at = :now, updated_at = :now
     WHERE id = :alertId AND status = ${ALERT_STATUS.open} AND priority = 1 AND escalated_at IS NULL
       AND NOT EXISTS (SELECT 1 FROM alert_entries e WHERE e.alert_id = alerts.id)`,
    { alertId: input.alertId, now: input.now },
    transaction,
  );
  if (changed !== 1) return false;
  await execute(
    sequelize,
    'INSERT INTO alert_entries (alert_id, user_id, user_name, description, created_at) VALUES (:alertId, NULL, :author, :text, :now)',
    { alertId: input.alertId, author: SYSTEM_AUTHOR, text: input.entryText, now: input.now },
    transaction,
  );
  return true;
}
