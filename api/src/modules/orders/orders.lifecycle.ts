import type { Sequelize } from 'sequelize';
import { BACKGROUND, Positional, execute, select, sqlIn } from '../../db/sql.js';
import { isPostgres } from '../../db/database.js';
import type { JobRunner } from '../../jobs/queue.js';
import { raiseAlert } from '../alerts/alerts.raise.js';
import { queueOutboundMessage } from '../messages/messages.outbox.js';
import {
  ACTIVITY_WINDOW_MS,
  ORDER_ELEMENT_NAMES,
  PERMANENT_HORIZON_DAYS,
  localParts,
  ACTIVITY_STATUS,
  ORDER_STATUS,
  ORDER_TYPE,
  LIVE_ORDER_STATUSES,
  PENDING_ACTIVITY_STATUSES,
} from '@vigia/contract/rules/activities';
import { normalisedOf, toDate, type OrderRow } from './orders.queries.js';
import { insertActivities, startOf, timesFor } from './orders.schedule.js';
import { elementsMatching, staleAfterMs } from './orders.rules.js';
import { PATIENT_STATUS } from '@vigia/contract/rules/access';
import { MEASUREMENT_STATUS } from '@vigia/contract/rules/vitals';

/**
 * The order and activity lifecycle (D7, D11), one sweep a minute through the durable job queue.
 * Every change is a conditional UPDATE (`WHERE status = …`) and each alert or reminder is written
 * in the same transaction as the row change that claims it, so two API processes on one
 * PostgreSQL, or a sweep that runs twice, never apply anything twice.
 *
 * The rule is the contract's activityStatusAt and orderStatusAt, written as SQL over whole tables
 * (calling them row by row would read every row): the same status sets and ACTIVITY_WINDOW_MS, and
 * tests/api/lifecycle-rule.test.ts runs this job over the pure functions' own table of cases.
 * Its reads are background reads (sql.ts, BACKGROUND): on SQLite they never queue ahead of a
 * request's.
 */
const LIFECYCLE_KIND = 'orders.lifecycle';
const LIFECYCLE_EVERY_MS = 60_000;
/** Compliance alerts (types 1 and 2) open with priority 2 (Media), P54. */
const COMPLIANCE_PRIORITY = 2;
const BATCH = 500;
/** The status sets of the pure rules (orderStatusAt, activityStatusAt) as SQL lists. */
const PENDING = sqlIn(...PENDING_ACTIVITY_STATUSES);
const LIVE_ORDER = sqlIn(...LIVE_ORDER_STATUSES);
/** Reminders and stale-data alerts go to patients under monitoring: Activo or Incompleto. */
const LIVE_PATIENT = sqlIn(PATIENT_STATUS.active, PATIENT_STATUS.incomplete);

interface Ctx {
  sequelize: Sequelize;
  now: Date;
  jobs: JobRunner;
  log: (msg: string, err?: unknown) => void;
}

/** 0 → 1 (En proceso) at its time, for its hour. */
async function startDue(ctx: Ctx) {
  const cut = new Date(ctx.now.getTime() - ACTIVITY_WINDOW_MS);
  await execute(
    ctx.sequelize,
    `UPDATE activities SET status = ${ACTIVITY_STATUS.inProgress}, updated_at = :now WHERE status = ${ACTIVITY_STATUS.scheduled} AND programmed_at <= :now AND programmed_at > :cut`,
    { now: ctx.now, cut },
  );
}

/** 0/1 → 6 (No reportada) once the hour has passed, with a compliance alert (type 1 vital sign, 2 medication). */
async function markNotReported(ctx: Ctx, errors: unknown[]) {
  const cut = new Date(ctx.now.getTime() - ACTIVITY_WINDOW_MS);
  const rows = await select<{
    id: number;
    client_id: number;
    patient_id: number;
    order_type: number;
    clinical_element: number | null;
    to_human: string | null;
    programmed_at: string | Date;
    time_zone: string;
  }>(
    ctx.sequelize,
    `SELECT a.id, a.client_id, a.patient_id, o.order_type, o.clinical_element, o.to_human, a.programmed_at, p.time_zone
     FROM activities a JOIN orders o ON o.id = a.order_id JOIN patients p ON p.id = a.patient_id
     WHERE a.status IN ${PENDING} AND a.programmed_at <= :cut ORDER BY a.programmed_at LIMIT ${BATCH}`,
    { cut },
    BACKGROUND,
  );
  for (const a of rows) {
    try {
      await ctx.sequelize.transaction(async (transaction) => {
        const claimed = await execute(
          ctx.sequelize,
          `UPDATE activities SET status = ${ACTIVITY_STATUS.notReported}, updated_at = :now WHERE id = :id AND status IN ${PENDING}`,
          { id: a.id, now: ctx.now },
          transaction,
        );
        if (!claimed) return;
        const medication = Number(a.order_type) === 1;
        const at = localParts(toDate(a.programmed_at), a.time_zone);
        const description = medication
          ? `No se confirmó la toma programada para el ${at.date} a las ${at.time}: ${a.to_human ?? 'medicamento'}.`
          : `No se recibió la medición de ${ORDER_ELEMENT_NAMES[a.clinical_element ?? 0] ?? 'signos vitales'} programada para el ${at.date} a las ${at.time}.`;
        const alertId = await raiseAlert(
          { sequelize: ctx.sequelize, transaction, now: ctx.now, jobs: ctx.jobs },
          {
            client_id: a.client_id,
            patient_id: a.patient_id,
            alert_type: medication ? 2 : 1,
            priority: COMPLIANCE_PRIORITY,
            clinical_element: medication ? null : a.clinical_element,
            description,
            activity_id: Number(a.id),
          },
        );
        await execute(ctx.sequelize, 'UPDATE activities SET alert_id = :alertId WHERE id = :id', { id: a.id, alertId }, transaction);
      });
    } catch (err) {
      errors.push(err);
    }
  }
}

/**
 * `UPDATE orders SET … WHERE …` for a condition that scans every live order, held short: the scan
 * runs as a background read, then the UPDATE by id checks the same condition again (an order
 * changed meanwhile is left as it is, for the next sweep). As one statement it held SQLite's writer
 * 46-54 ms a minute at 20,000 patients, and every stored reading of that moment waited (issue 22).
 */
async function updateOrdersWhere(ctx: Ctx, set: string, where: string, params: Record<string, unknown>): Promise<void> {
  const found = await select<{ id: number }>(ctx.sequelize, `SELECT id FROM orders WHERE ${where}`, params, BACKGROUND);
  for (let i = 0; i < found.length; i += BATCH) {
    const ids = found.slice(i, i + BATCH).map((r) => Number(r.id));
    await execute(ctx.sequelize, `UPDATE orders SET ${set} WHERE id IN (:ids) AND ${where}`, { ...params, ids });
  }
}

/** D7: Programada → En ejecución at the first activity; → Completada when the last one is past (not permanent orders). */
async function advanceOrders(ctx: Ctx) {
  const cut = new Date(ctx.now.getTime() - ACTIVITY_WINDOW_MS);
  await updateOrdersWhere(
    ctx,
    `status = ${ORDER_STATUS.running}, updated_at = :now`,
    `status = ${ORDER_STATUS.scheduled}
       AND EXISTS (SELECT 1 FROM activities a WHERE a.order_id = orders.id AND a.programmed_at <= :now AND a.status <> ${ACTIVITY_STATUS.cancelled})`,
    { now: ctx.now },
  );
  await updateOrdersWhere(
    ctx,
    `status = ${ORDER_STATUS.completed}, updated_at = :now`,
    `status IN ${LIVE_ORDER} AND permanent = :no
       AND EXISTS (SELECT 1 FROM activities a WHERE a.order_id = orders.id)
       AND NOT EXISTS (SELECT 1 FROM activities a WHERE a.order_id = orders.id AND (a.status IN ${PENDING} OR (a.status = ${ACTIVITY_STATUS.suspended} AND a.programmed_at > :cut)))`,
    { now: ctx.now, cut, no: false },
  );
}

/** Permanent orders keep 30 days of activities ahead (D11): extended daily, idempotent by (order_id, slot_at). */
async function extendPermanent(ctx: Ctx, errors: unknown[]) {
  const limit = new Date(ctx.now.getTime() + (PERMANENT_HORIZON_DAYS - 1) * 86_400_000);
  const rows = await select<OrderRow & { patient_status: number }>(
    ctx.sequelize,
    `SELECT o.*, p.time_zone, p.first_name, p.last_name, p.status AS patient_status FROM orders o JOIN patients p ON p.id = o.patient_id
     WHERE o.status IN ${LIVE_ORDER} AND o.permanent = :yes AND o.start_at IS NOT NULL AND (o.generated_until IS NULL OR o.generated_until < :limit) LIMIT ${BATCH}`,
    { yes: true, limit },
    BACKGROUND,
  );
  for (const o of rows) {
    try {
      const from = o.generated_until ? new Date(toDate(o.generated_until).getTime() + 1) : undefined;
      const times = timesFor(normalisedOf(o), startOf(o), o.time_zone, ctx.now, from);
      await ctx.sequelize.transaction(async (t) => {
        const status = Number(o.patient_status) === 0 ? 5 : 0;
        if (times.length) await insertActivities(ctx.sequelize, o, times, status, ctx.now, t);
        const until = times.at(-1) ?? new Date(ctx.now.getTime() + PERMANENT_HORIZON_DAYS * 86_400_000);
        await execute(
          ctx.sequelize,
          'UPDATE orders SET generated_until = :until, updated_at = :now WHERE id = :id',
          { id: o.id, until, now: ctx.now },
          t,
        );
      });
    } catch (err) {
      errors.push(err);
    }
  }
}

/**
 * Stale data: an active vital-sign order whose element has had no reading for longer than its
 * interval gets one type-1 alert. Only the orders due are read (`stale_check_at`, migration 0042),
 * oldest first: an order found not stale is put off until the earliest moment it could be (its first
 * activity, or its last reading, plus the interval), so every order is looked at when it matters
 * however many there are. Before, the same first 500 candidates were read every minute and an order
 * past them was never looked at.
 *
 * What decides it is read for the whole batch in two statements (staleFacts), and the orders put off
 * are written a hundred to a statement (putOff) (issue 52): with two reads an order and one UPDATE an
 * order in one transaction, a batch of 439 held the writer for 129 ms, and the single readings
 * that arrived meanwhile (500/s at 100,000 patients) waited behind it, the slowest 178 ms.
 */
async function flagStale(ctx: Ctx, errors: unknown[]) {
  const rows = await select<OrderRow>(ctx.sequelize, STALE_DUE_SQL, { now: ctx.now }, BACKGROUND);
  if (!rows.length) return;
  const windows = rows.map((o) => staleAfterMs(normalisedOf(o)));
  const facts = await staleFacts(ctx, rows, Math.max(...windows));
  const later: Array<{ id: number; at: Date }> = [];
  for (const [k, o] of rows.entries()) {
    try {
      const windowMs = windows[k];
      const since = ctx.now.getTime() - windowMs;
      const first = facts.firstActivity.get(Number(o.id));
      if (first == null || first > since) {
        // Not stale before its first activity's interval has passed (nothing programmed: an interval from now).
        later.push({ id: o.id, at: new Date((first ?? ctx.now.getTime()) + windowMs) });
        continue;
      }
      const last = Math.max(
        ...elementsMatching(o.clinical_element ?? 0).map((e) => facts.lastReading.get(`${o.patient_id}:${e}`) ?? -Infinity),
      );
      if (last > since) {
        later.push({ id: o.id, at: new Date(last + windowMs) });
        continue;
      }
      await ctx.sequelize.transaction(async (transaction) => {
        const claimed = await execute(
          ctx.sequelize,
          'UPDATE orders SET stale_alerted_at = :now WHERE id = :id AND stale_alerted_at IS NULL',
          { id: o.id, now: ctx.now },
          transaction,
        );
        if (!claimed) return;
        const hours = Math.round(windowMs / 3600_000);
        await raiseAlert(
          { sequelize: ctx.sequelize, transaction, now: ctx.now, jobs: ctx.jobs },
          {
            client_id: o.client_id,
            patient_id: o.patient_id,
            alert_type: 1,
            priority: COMPLIANCE_PRIORITY,
            clinical_element: o.clinical_element,
            description: `Sin datos de ${ORDER_ELEMENT_NAMES[o.clinical_element ?? 0] ?? 'signos vitales'} en las últimas ${hours} horas.`,
          },
        );
      });
    } catch (err) {
      errors.push(err);
    }
  }
  await putOff(ctx.sequelize, later);
}

/**
 * For a batch of due orders: each order's first activity not cancelled, and each patient's last
 * valid reading of each element the orders watch since the longest of their intervals (a reading
 * older than an order's own interval does not count for it; flagStale compares). The readings' read
 * seeks the (patient_id, clinical_element, when) index once per patient and element.
 */
async function staleFacts(ctx: Ctx, rows: OrderRow[], longestWindowMs: number) {
  const firsts = await select<{ order_id: number; at: string | Date | null }>(
    ctx.sequelize,
    `SELECT order_id, MIN(programmed_at) AS at FROM activities
      WHERE order_id IN (:ids) AND status <> ${ACTIVITY_STATUS.cancelled} GROUP BY order_id`,
    { ids: rows.map((o) => o.id) },
    BACKGROUND,
  );
  const lasts = await select<{ patient_id: number; clinical_element: number; last: string | Date }>(
    ctx.sequelize,
    `SELECT patient_id, clinical_element, MAX("when") AS last FROM measurements
      WHERE patient_id IN (:patients) AND clinical_element IN (:elements) AND status = ${MEASUREMENT_STATUS.valid} AND "when" > :since
      GROUP BY patient_id, clinical_element`,
    {
      patients: [...new Set(rows.map((o) => o.patient_id))],
      elements: [...new Set(rows.flatMap((o) => elementsMatching(o.clinical_element ?? 0)))],
      since: new Date(ctx.now.getTime() - longestWindowMs),
    },
    BACKGROUND,
  );
  return {
    firstActivity: new Map(firsts.filter((f) => f.at != null).map((f) => [Number(f.order_id), toDate(f.at!).getTime()])),
    lastReading: new Map(lasts.map((l) => [`${l.patient_id}:${l.clinical_element}`, toDate(l.last).getTime()])),
  };
}

/** Rows per put-off statement on SQLite: 200 bound values, a fraction of a millisecond of writer. */
const PUT_OFF_ROWS = 100;

/**
 * The orders looked at and not stale, each put off to its own time. PostgreSQL: one statement over
 * two arrays. SQLite: a statement per PUT_OFF_ROWS, each a write of its own in the writer's queue, so
 * readings that arrive meanwhile go between them (nothing needs the put-offs together: an order not
 * yet put off is only looked at again).
 */
async function putOff(sequelize: Sequelize, later: Array<{ id: number; at: Date }>) {
  if (!later.length) return;
  if (isPostgres(sequelize)) {
    await execute(
      sequelize,
      'UPDATE orders o SET stale_check_at = l.at FROM unnest($1::int[], $2::timestamptz[]) AS l (id, at) WHERE o.id = l.id',
      new Positional([later.map((l) => l.id), later.map((l) => l.at)]),
    );
    return;
  }
  for (let i = 0; i < later.length; i += PUT_OFF_ROWS) {
    const chunk = later.slice(i, i + PUT_OFF_ROWS);
    const values: Record<string, unknown> = {};
    const cases = chunk.map(({ id, at }, j) => {
      values[`i${j}`] = id;
      values[`a${j}`] = at;
      return `WHEN :i${j} THEN :a${j}`;
    });
    await execute(
      sequelize,
      `UPDATE orders SET stale_check_at = CASE id ${cases.join(' ')} END WHERE id IN (${chunk.map((_, j) => `:i${j}`).join(', ')})`,
      values,
    );
  }
}

/**
 * The running vital-sign orders whose stale check is due, of patients who report (active or
 * incomplete), oldest due first; an order already alerted waits for its next reading
 * (activities.match clears stale_alerted_at).
 */
const STALE_DUE_SQL = `SELECT o.*, p.time_zone, p.first_name, p.last_name FROM orders o JOIN patients p ON p.id = o.patient_id
     WHERE o.order_type = ${ORDER_TYPE.measurement} AND o.status = ${ORDER_STATUS.running} AND o.stale_check_at <= :now
       AND o.stale_alerted_at IS NULL AND p.status IN ${LIVE_PATIENT}
     ORDER BY o.stale_check_at LIMIT ${BATCH}`;

/** Reminders (P55): a notify order's activity gets one message at its time, while the patient is active. */
async function sendReminders(ctx: Ctx, errors: unknown[]) {
  const cut = new Date(ctx.now.getTime() - ACTIVITY_WINDOW_MS);
  const rows = await select<{
    id: number;
    client_id: number;
    patient_id: number;
    order_type: number;
    to_human: string | null;
    programmed_at: string | Date;
    time_zone: string;
  }>(
    ctx.sequelize,
    `SELECT a.id, a.client_id, a.patient_id, o.order_type, o.to_human, a.programmed_at, p.time_zone
     FROM activities a JOIN orders o ON o.id = a.order_id JOIN patients p ON p.id = a.patient_id
     WHERE a.status IN ${PENDING} AND a.reminded_at IS NULL AND a.programmed_at <= :now AND a.programmed_at > :cut
       AND o.notify = :yes AND o.status IN ${LIVE_ORDER} AND p.status IN ${LIVE_PATIENT} ORDER BY a.programmed_at LIMIT ${BATCH}`,
    { now: ctx.now, cut, yes: true },
    BACKGROUND,
  );
  for (const a of rows) {
    try {
      await ctx.sequelize.transaction(async (transaction) => {
        const claimed = await execute(
          ctx.sequelize,
          'UPDATE activities SET reminded_at = :now WHERE id = :id AND reminded_at IS NULL',
          { id: a.id, now: ctx.now },
          transaction,
        );
        if (!claimed) return;
        const at = localParts(toDate(a.programmed_at), a.time_zone).time;
        const body =
          Number(a.order_type) === 1
            ? `Recordatorio Vigía: es hora de su medicamento (${at}). ${a.to_human ?? ''}. Confirme la toma cuando la haya hecho.`
            : `Recordatorio Vigía: es hora de tomar su medición (${at}). ${a.to_human ?? ''}.`;
        await queueOutboundMessage(
          { sequelize: ctx.sequelize, transaction, now: ctx.now, jobs: ctx.jobs },
          {
            client_id: a.client_id,
            patient_id: a.patient_id,
            kind: 'text',
            body: body.replace(/\s+\./g, '.').replace(/\.\./g, '.'),
            reason: 'reminder',
            activity_id: Number(a.id),
          },
        );
      });
    } catch (err) {
      errors.push(err);
    }
  }
}

/** One sweep; a step that fails for one row does not stop the others. Answers the errors met. */
export async function runLifecycle(ctx: Ctx): Promise<unknown[]> {
  const errors: unknown[] = [];
  await extendPermanent(ctx, errors);
  await sendReminders(ctx, errors);
  await startDue(ctx);
  await markNotReported(ctx, errors);
  await advanceOrders(ctx);
  await flagStale(ctx, errors);
  return errors;
}

export function registerOrderJobs(deps: { sequelize: Sequelize; jobs: JobRunner; log: (msg: string, err?: unknown) => void }): void {
  deps.jobs.every({
    kind: LIFECYCLE_KIND,
    everyMs: LIFECYCLE_EVERY_MS,
    handler: async ({ now, sequelize }) => {
      const errors = await runLifecycle({ sequelize, now, jobs: deps.jobs, log: deps.log });
      if (errors.length) {
        const first = errors[0] instanceof Error ? (errors[0] as Error).message : String(errors[0]);
        deps.log(`órdenes: ${errors.length} error(es) en el ciclo de actividades`, errors[0]);
        throw new Error(`órdenes: ${errors.length} error(es); primero: ${first}`);
      }
    },
  });
}
