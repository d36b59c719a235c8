import { execute, select } from '../../db/sql.js';
import type { MeasurementHook } from '../measurements/hooks.js';
import { ACTIVITY_WINDOW_MS } from '../../../../contract/rules/activities.js';
import { elementsMatching } from './orders.rules.js';

/**
 * D11: a reading completes the patient's vital-sign activity for its element whose hour contains
 * the reading's time (Programada or En proceso). It runs inside the storing transaction, and the
 * UPDATE is conditional on the status, so a reading never completes an activity twice and two
 * readings never complete the same one. A reading also clears the order's stale-data flag.
 */
export const completeActivities: MeasurementHook = async (ctx, stored) => {
  for (const m of stored) {
    const when = m.when;
    const from = new Date(when.getTime() - ACTIVITY_WINDOW_MS);
    const elements = elementsMatching(m.clinical_element);
    const candidates = await select<{ id: number }>(
      ctx.sequelize,
      `SELECT a.id FROM activities a JOIN orders o ON o.id = a.order_id
       WHERE a.patient_id = :patientId AND a.status IN (0, 1) AND a.programmed_at <= :when AND a.programmed_at > :from
         AND o.order_type = 0 AND o.clinical_element IN (:elements) AND o.status IN (1, 2)
       ORDER BY a.programmed_at LIMIT 3`,
      { patientId: m.patient_id, when, from, elements },
      ctx.transaction,
    );
    for (const c of candidates) {
      const done = await execute(
        ctx.sequelize,
        'UPDATE activities SET status = 2, completed_at = :when, measurement_id = :mid, updated_at = :now WHERE id = :id AND status IN (0, 1)',
        { id: c.id, when, mid: m.id, now: ctx.now },
        ctx.transaction,
      );
      if (done) break;
    }
    await execute(
      ctx.sequelize,
      'UPDATE orders SET stale_alerted_at = NULL WHERE patient_id = :patientId AND order_type = 0 AND clinical_element IN (:elements) AND stale_alerted_at IS NOT NULL',
      { patientId: m.patient_id, elements },
      ctx.transaction,
    );
  }
};
