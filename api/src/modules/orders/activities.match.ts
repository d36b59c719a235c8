import { execute, select, sqlIn } from '../../db/sql.js';
import type { MeasurementHook } from '../measurements/hooks.js';
import { ACTIVITY_WINDOW_MS, ACTIVITY_STATUS, ORDER_STATUS, ORDER_TYPE } from '@vigia/contract/rules/activities';
import { elementsMatching } from './orders.rules.js';

interface Candidate {
  id: number;
  patient_id: number;
  programmed_at: Date | string;
  clinical_element: number;
}

const time = (v: Date | string) => (v instanceof Date ? v : new Date(v)).getTime();

/**
 * D11: a reading completes the patient's vital-sign activity for its element whose hour contains
 * the reading's time (Programada or En proceso). It runs inside the storing transaction, and the
 * UPDATE is conditional on the status, so a reading never completes an activity twice and two
 * readings never complete the same one. A reading also clears the order's stale-data flag.
 *
 * Set-based, for a whole ingestion group: one SELECT of the open activities of every patient in
 * the group over the readings' time span and one UPDATE of the stale flags (load, sent with the
 * INSERT), the matching in memory, and an UPDATE only for an activity really completed.
 */
export const activitiesHook: MeasurementHook<Candidate[]> = {
  load: async (ctx, planned) => {
    const patientIds = [...new Set(planned.map((m) => m.patient_id))];
    const whens = planned.map((m) => m.when.getTime());
    // (patient, element) pairs, exactly: a reading of one element never clears another's flag.
    const pairs = new Map<string, string>();
    for (const m of planned) {
      const elements = elementsMatching(m.clinical_element);
      pairs.set(
        `${m.patient_id}:${elements.join(',')}`,
        `(patient_id = ${Number(m.patient_id)} AND clinical_element IN (${elements.map(Number).join(',')}))`,
      );
    }
    const [candidates] = await Promise.all([
      select<Candidate>(
        ctx.sequelize,
        `SELECT a.id, a.patient_id, a.programmed_at, o.clinical_element FROM activities a JOIN orders o ON o.id = a.order_id
         WHERE a.patient_id IN (:patientIds) AND a.status IN ${sqlIn(ACTIVITY_STATUS.scheduled, ACTIVITY_STATUS.inProgress)} AND a.programmed_at <= :to AND a.programmed_at > :from
           AND o.order_type = ${ORDER_TYPE.measurement} AND o.status IN ${sqlIn(ORDER_STATUS.scheduled, ORDER_STATUS.running)}
         ORDER BY a.programmed_at, a.id`,
        { patientIds, to: new Date(Math.max(...whens)), from: new Date(Math.min(...whens) - ACTIVITY_WINDOW_MS) },
        ctx.transaction,
      ),
      // A reading (or a retried one, stored before) clears its order's stale-data flag: this
      // depends only on what is sent, so it goes with the INSERT too.
      execute(
        ctx.sequelize,
        `UPDATE orders SET stale_alerted_at = NULL
         WHERE patient_id IN (:patientIds) AND order_type = ${ORDER_TYPE.measurement} AND stale_alerted_at IS NOT NULL AND (${[...pairs.values()].join(' OR ')})`,
        { patientIds },
        ctx.transaction,
      ),
    ]);
    return candidates;
  },
  apply: async (ctx, stored, candidates) => {
    if (!candidates.length) return;
    const taken = new Set<number>();
    for (const m of stored) {
      const when = m.when.getTime();
      const elements = elementsMatching(m.clinical_element);
      const fits = candidates.filter(
        (c) =>
          Number(c.patient_id) === m.patient_id &&
          !taken.has(Number(c.id)) &&
          elements.includes(Number(c.clinical_element)) &&
          time(c.programmed_at) <= when &&
          time(c.programmed_at) > when - ACTIVITY_WINDOW_MS,
      );
      for (const c of fits.slice(0, 3)) {
        const done = await execute(
          ctx.sequelize,
          `UPDATE activities SET status = ${ACTIVITY_STATUS.completed}, completed_at = :when, measurement_id = :mid, updated_at = :now WHERE id = :id AND status IN ${sqlIn(ACTIVITY_STATUS.scheduled, ACTIVITY_STATUS.inProgress)}`,
          { id: c.id, when: m.when, mid: m.id, now: ctx.now },
          ctx.transaction,
        );
        taken.add(Number(c.id));
        if (done) break;
      }
    }
  },
};
