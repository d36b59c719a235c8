import type { Sequelize, Transaction } from 'sequelize';
import { execute, Positional, rowPlaceholders } from '../../db/sql.js';

/**
 * Links readings to alerts already open (D10: a reading out of range while its rule's alert is
 * open joins that alert), in one INSERT for the batch. The alerts module writes alert_measurements;
 * the alarm check gets this through the composition root (app.ts), in the storing transaction.
 */
export async function attachReadings(
  sequelize: Sequelize,
  links: Array<[alertId: number, measurementId: number]>,
  transaction?: Transaction,
): Promise<void> {
  if (!links.length) return;
  await execute(
    sequelize,
    `INSERT INTO alert_measurements (alert_id, measurement_id) VALUES ${rowPlaceholders(sequelize, links.length, 2)} ON CONFLICT DO NOTHING`,
    new Positional(links.flat()),
    transaction,
  );
}
