import type { Sequelize } from 'sequelize';
import { select } from '../../db/sql.js';
import { ADHERENCE_WINDOW_DAYS, adherencePercent } from '@vigia/contract/rules/adherence';

/** Activity statuses (01 §4) that count as due and as done for adherence. */
const COMPLETED = 2;
const NOT_DUE = [3, 5]; // cancelled, suspended: the patient was not asked to do them

/**
 * measurements_adherence (03 §2 'Tu cumplimiento'): completed over due activities of the last
 * 30 days up to `now`, as a whole percentage; null when nothing was due.
 */
export async function patientAdherence(sequelize: Sequelize, patientId: number, now: Date): Promise<number | null> {
  const since = new Date(now.getTime() - ADHERENCE_WINDOW_DAYS * 86_400_000);
  const [row] = await select<{ due: number | string; done: number | string | null }>(
    sequelize,
    `SELECT COUNT(*) AS due, SUM(CASE WHEN status = :completed THEN 1 ELSE 0 END) AS done
       FROM activities
      WHERE patient_id = :patientId AND programmed_at >= :since AND programmed_at <= :now AND status NOT IN (:notDue)`,
    { patientId, since, now, completed: COMPLETED, notDue: NOT_DUE },
  );
  return adherencePercent(Number(row?.done ?? 0), Number(row?.due ?? 0));
}
