import type { Sequelize, Transaction } from 'sequelize';
import { execute } from '../../db/sql.js';

/**
 * A deleted alarm rule leaves its alerts: they keep the rule as it was (name and range) but no
 * longer point to it. The alarms module asks for it in its delete's transaction (composition root).
 */
export async function unlinkAlarm(sequelize: Sequelize, clientId: number, alarmId: number, transaction?: Transaction): Promise<void> {
  await execute(
    sequelize,
    'UPDATE alerts SET alarm_id = NULL WHERE alarm_id = :alarmId AND client_id = :clientId',
    { alarmId, clientId },
    transaction,
  );
}
