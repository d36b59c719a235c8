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

/** Clinical elements are numbered below this: a (patient, element) pair as one number. */
const PAIR_KEY = 1000;

const time = (v: Date | string) => (v instanceof Date ? v : new Date(v)).getTime();

/**
 * D11: a reading completes the patient's vital-sign activity for its element whose hour contains
 * the reading's time (Programada or En proceso). It runs inside the storing transaction, and the
 * UPDATE is conditional on the status, so a reading never completes an activity twice and two
 * readings never complete the same one. A reading also clears the order's stale-data flag.
 *
 * Set-based, for a whole ingestion group: one SELECT of the open activities of every patient in
 * the group over the readings' time span and the clearing of the stale flags (load, sent with the
 * INSERT; on SQLite the flagged orders are read with the activities and updated only if there are
 * any), the matching in memory, and an UPDATE only for an activity really completed.
 */
export const activitiesHook: MeasurementHook<Candidate[]> = {
  load: async (ctx, planned) => {
    const patientIds = [...new Set(planned.map((m) => m.patient_id))];
    const whens = planned.map((m) => m.when.getTime());
    // (patient, element) pairs, exactly: a reading of one element never clears another's flag. Each
    // pair as one number (patient × PAIR_KEY + element) in one list: the statement's text is the
    // same for any group, prepared once on PostgreSQL (db/sql.ts, genericPlans).
    const pairKeys = [...new Set(planned.flatMap((m) => elementsMatching(m.clinical_element).map((e) => m.patient_id * PAIR_KEY + e)))];
    const span = { to: new Date(Math.max(...whens)), from: new Date(Math.min(...whens) - ACTIVITY_WINDOW_MS) };
    // One plan whatever the group holds (issue 22): the patients' own activities by
    // (patient_id, programmed_at), then their orders. The unary + keeps SQLite off the
    // (status, programmed_at) index, which it chose for an IN list of many patients and which
    // reads every due activity of the installation; CROSS JOIN keeps it from starting at orders.
    const open = `SELECT a.id, a.patient_id, a.programmed_at, o.clinical_element FROM activities a CROSS JOIN orders o
         WHERE o.id = a.order_id AND a.patient_id IN (:patientIds) AND +a.status IN ${sqlIn(ACTIVITY_STATUS.scheduled, ACTIVITY_STATUS.inProgress)} AND a.programmed_at <= :to AND a.programmed_at > :from
           AND o.order_type = ${ORDER_TYPE.measurement} AND o.status IN ${sqlIn(ORDER_STATUS.scheduled, ORDER_STATUS.running)}`;
    // The orders of these (patient, element) pairs with a stale-data flag: a reading (or a retried
    // one, stored before) clears it.
    const flagged = `WHERE patient_id IN (:patientIds) AND order_type = ${ORDER_TYPE.measurement} AND stale_alerted_at IS NOT NULL
           AND patient_id * CAST(${PAIR_KEY} AS BIGINT) + clinical_element IN (:pairKeys)`;
    let candidates: Candidate[];
    if (ctx.sequelize.getDialect() === 'sqlite') {
      // SQLite: the flagged orders come with the activities (rows without programmed_at), and the
      // flags are cleared only when there are any: one statement a group instead of two, each a trip
      // through the event loop while the single writer is held (issue 52). The writer's lock rules
      // out a flag set between the read and the UPDATE.
      const rows = await select<Omit<Candidate, 'programmed_at'> & { programmed_at: Date | string | null }>(
        ctx.sequelize,
        `${open} UNION ALL SELECT id, patient_id, NULL, clinical_element FROM orders ${flagged}`,
        { patientIds, pairKeys, ...span },
        ctx.transaction,
      );
      candidates = rows.filter((r): r is Candidate => r.programmed_at != null);
      const stale = rows.filter((r) => r.programmed_at == null).map((r) => r.id);
      if (stale.length)
        await execute(ctx.sequelize, 'UPDATE orders SET stale_alerted_at = NULL WHERE id IN (:stale)', { stale }, ctx.transaction);
    } else {
      // PostgreSQL: writers run side by side, so the flags are cleared by an UPDATE sent with the
      // read, which waits for a flag being set meanwhile and clears it after.
      [candidates] = await Promise.all([
        select<Candidate>(ctx.sequelize, open, { patientIds, ...span }, ctx.transaction),
        execute(ctx.sequelize, `UPDATE orders SET stale_alerted_at = NULL ${flagged}`, { patientIds, pairKeys }, ctx.transaction),
      ]);
    }
    // Sorted here, not by an ORDER BY: for an IN list of several patients SQLite adds a sort step
    // to the plan, which would then differ with the group's size.
    return candidates.sort((x, y) => time(x.programmed_at) - time(y.programmed_at) || Number(x.id) - Number(y.id));
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
