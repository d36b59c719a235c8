import type { Sequelize } from 'sequelize';
import { execute, select, sqlIn } from '../../db/sql.js';
import type { JobRunner } from '../../jobs/queue.js';
import { PATIENT_STATUS } from '@vigia/contract/rules/access';
import { ACTIVITY_STATUS, ORDER_STATUS, ORDER_TYPE } from '@vigia/contract/rules/activities';
import { ADHERENCE_WINDOW_DAYS } from '@vigia/contract/rules/adherence';
import { HYPERTENSION_TAGS, triageSettingsOf, type TriageSettings } from '@vigia/contract/rules/triage';
import { CLINICAL_ELEMENT, MEASUREMENT_STATUS } from '@vigia/contract/rules/vitals';
import type { components } from '@vigia/contract/openapi';
import {
  adherenceDistribution,
  hypertensionPercent,
  INDICATOR_LOOKBACK_DAYS,
  indicatorMonths,
  share,
  type IndicatorMonth,
} from './indicators.rules.js';

/**
 * Programme indicators (issue 21): hypertension control and patients without readings
 * (HEARTS360), glucose time in range (TIDE's target, across patients) and the adherence bands,
 * per month. Counting them reads many rows, so a job does it: the current month on every run and
 * each past month once after it ends (indicator_months); GET /reports/indicators reads 12 rows.
 *
 * A month counts the client's patients active today that had joined by its end (created, or
 * with a reading, by then): the product keeps no history of a patient's status.
 */

type IndicatorsDto = components['schemas']['Indicators'];
type MonthFigures = Omit<components['schemas']['IndicatorMonth'], 'month' | 'as_of' | 'complete'>;

const DAY_MS = 86_400_000;
const n = (v: unknown) => Number(v ?? 0);

/** The patients a month counts: active today, and joined (created or measured) by `asOf`. */
const ENROLLED = `p.client_id = :c AND p.status = ${PATIENT_STATUS.active}
  AND (p.created_at <= :asOf OR EXISTS (SELECT 1 FROM measurements m0 WHERE m0.patient_id = p.id AND m0."when" <= :asOf))`;

async function hypertension(sequelize: Sequelize, params: Record<string, unknown>) {
  const [row] = await select<{ eligible: number; measured: number; controlled: number }>(
    sequelize,
    `WITH eligible AS (
       SELECT p.id FROM patients p
        WHERE ${ENROLLED}
          AND (EXISTS (SELECT 1 FROM patient_tags pt JOIN tags t ON t.id = pt.tag_id WHERE pt.patient_id = p.id AND t.name IN (:htnTags))
               OR EXISTS (SELECT 1 FROM orders o WHERE o.patient_id = p.id AND o.order_type = ${ORDER_TYPE.measurement}
                            AND o.clinical_element = ${CLINICAL_ELEMENT.systolic_bp} AND o.status <> ${ORDER_STATUS.cancelled} AND o.created_at <= :asOf))
     ), last AS (
       SELECT e.id AS patient_id,
              (SELECT m.id FROM measurements m WHERE m.patient_id = e.id AND m.clinical_element = ${CLINICAL_ELEMENT.systolic_bp} AND m.status = ${MEASUREMENT_STATUS.valid}
                  AND m."when" <= :asOf ORDER BY m."when" DESC LIMIT 1) AS mid
         FROM eligible e
     )
     SELECT COUNT(*) AS eligible,
            SUM(CASE WHEN s."when" > :lookback THEN 1 ELSE 0 END) AS measured,
            SUM(CASE WHEN s."when" > :lookback AND s.value < :systolicMax
                      AND (SELECT MAX(d.value) FROM measurements d WHERE d.patient_id = l.patient_id AND d.clinical_element = ${CLINICAL_ELEMENT.diastolic_bp}
                             AND d."when" = s."when" AND d.status = ${MEASUREMENT_STATUS.valid}) < :diastolicMax
                     THEN 1 ELSE 0 END) AS controlled
       FROM last l LEFT JOIN measurements s ON s.id = l.mid`,
    params,
  );
  const eligible = n(row?.eligible);
  const controlled = n(row?.controlled);
  const figures = { eligible, measured: n(row?.measured), controlled };
  return { ...figures, percent: hypertensionPercent(figures) };
}

async function withoutReadings(sequelize: Sequelize, params: Record<string, unknown>) {
  const [row] = await select<{ active: number; without: number }>(
    sequelize,
    `SELECT COUNT(*) AS active,
            SUM(CASE WHEN NOT EXISTS (SELECT 1 FROM measurements m WHERE m.patient_id = p.id AND m."when" > :lookback AND m."when" <= :asOf
                                        AND m.status = ${MEASUREMENT_STATUS.valid}) THEN 1 ELSE 0 END) AS without
       FROM patients p WHERE ${ENROLLED}`,
    params,
  );
  const active = n(row?.active);
  return { active, count: n(row?.without), percent: share(n(row?.without), active) };
}

async function glucose(sequelize: Sequelize, params: Record<string, unknown>) {
  const [row] = await select<{ readings: number; in_range: number; patients: number }>(
    sequelize,
    `SELECT COUNT(*) AS readings, SUM(CASE WHEN value >= :glucoseLow AND value <= :glucoseHigh THEN 1 ELSE 0 END) AS in_range,
            COUNT(DISTINCT patient_id) AS patients
       FROM measurements
      WHERE client_id = :c AND "when" >= :start AND "when" <= :asOf AND clinical_element = ${CLINICAL_ELEMENT.blood_glucose} AND status = ${MEASUREMENT_STATUS.valid}`,
    params,
  );
  const readings = n(row?.readings);
  return { patients: n(row?.patients), readings, in_range: n(row?.in_range), percent: share(n(row?.in_range), readings) };
}

async function adherence(sequelize: Sequelize, params: Record<string, unknown>, active: number) {
  // One row per (due, done) pair with its number of patients: a few hundred rows, not one per patient.
  const rows = await select<{ due: number; done: number; patients: number }>(
    sequelize,
    `SELECT due, done, COUNT(*) AS patients FROM (
       SELECT COUNT(*) AS due, SUM(CASE WHEN a.status = ${ACTIVITY_STATUS.completed} THEN 1 ELSE 0 END) AS done
         FROM activities a JOIN patients p ON p.id = a.patient_id
        WHERE a.client_id = :c AND a.programmed_at >= :adherenceFrom AND a.programmed_at <= :asOf
          AND a.status NOT IN ${sqlIn(ACTIVITY_STATUS.cancelled, ACTIVITY_STATUS.suspended)} AND ${ENROLLED}
        GROUP BY a.patient_id) per_patient
      GROUP BY due, done`,
    params,
  );
  return adherenceDistribution(
    active,
    rows.map((r) => ({ due: n(r.due), done: n(r.done), patients: n(r.patients) })),
  );
}

/** One month's figures as of `asOf` (its end, or now for the current month). */
async function computeMonth(sequelize: Sequelize, clientId: number, month: IndicatorMonth, asOf: Date, s: TriageSettings) {
  const params = {
    c: clientId,
    asOf,
    start: month.start,
    lookback: new Date(asOf.getTime() - INDICATOR_LOOKBACK_DAYS * DAY_MS),
    adherenceFrom: new Date(asOf.getTime() - ADHERENCE_WINDOW_DAYS * DAY_MS),
    htnTags: [...HYPERTENSION_TAGS],
    systolicMax: s.systolic_max,
    diastolicMax: s.diastolic_max,
    glucoseLow: s.glucose_low,
    glucoseHigh: s.glucose_high,
  };
  const [htn, silent, gluc] = await Promise.all([
    hypertension(sequelize, params),
    withoutReadings(sequelize, params),
    glucose(sequelize, params),
  ]);
  const figures: MonthFigures = {
    hypertension_control: htn,
    without_readings: silent,
    glucose_in_range: gluc,
    adherence: await adherence(sequelize, params, silent.active),
  };
  return figures;
}

/** Hourly: the current month's figures are at most an hour old (P187). */
export const INDICATORS_JOB_EVERY_MS = 3600_000;

/** The start of the job's slot that holds `now` (the queue runs one job per slot of `everyMs`). */
export const indicatorSlotStart = (now: Date) => new Date(Math.floor(now.getTime() / INDICATORS_JOB_EVERY_MS) * INDICATORS_JOB_EVERY_MS);

/**
 * The job's pass for one client: the current month, and every month of the trend not yet stored
 * complete (computed after its end). Answers the months written.
 */
export async function refreshClientIndicators(sequelize: Sequelize, clientId: number, now: Date): Promise<number> {
  const [client] = await select<{ time_zone: string; triage_settings: string | null }>(
    sequelize,
    'SELECT time_zone, triage_settings FROM clients WHERE id = :id',
    { id: clientId },
  );
  if (!client) return 0;
  const settings = triageSettingsOf(client.triage_settings ? JSON.parse(client.triage_settings) : null);
  const months = indicatorMonths(now, client.time_zone);
  // Closed months are computed once; the current one once per hourly slot (a second run in the same
  // slot, a restart, does not recount it). Fresh by the slot, not by half an hour before now: a
  // server started at :40 counted then, and at the next hour's run that count was 20 minutes old,
  // 'fresh', so that run skipped it and the month stayed up to 90 minutes behind.
  const stored = await select<{ month: string }>(
    sequelize,
    'SELECT month FROM indicator_months WHERE client_id = :c AND (complete = :yes OR computed_at >= :slotStart)',
    { c: clientId, yes: true, slotStart: indicatorSlotStart(now) },
  );
  const done = new Set(stored.map((r) => r.month.trim()));
  let written = 0;
  for (const m of months) {
    if (done.has(m.month)) continue;
    const complete = m.next.getTime() <= now.getTime();
    const asOf = complete ? new Date(m.next.getTime() - 1) : now;
    const figures = await computeMonth(sequelize, clientId, m, asOf, settings);
    await execute(
      sequelize,
      `INSERT INTO indicator_months (client_id, month, figures, as_of, complete, computed_at) VALUES (:c, :month, :figures, :asOf, :complete, :now)
       ON CONFLICT (client_id, month) DO UPDATE SET figures = excluded.figures, as_of = excluded.as_of, complete = excluded.complete, computed_at = excluded.computed_at`,
      { c: clientId, month: m.month, figures: JSON.stringify(figures), asOf, complete, now },
    );
    written++;
  }
  return written;
}

export function registerIndicatorJobs(deps: { sequelize: Sequelize; jobs: JobRunner }): void {
  deps.jobs.every({
    kind: 'indicators.refresh',
    everyMs: INDICATORS_JOB_EVERY_MS,
    handler: async (ctx) => {
      const clients = await select<{ id: number }>(deps.sequelize, 'SELECT id FROM clients ORDER BY id');
      for (const c of clients) await refreshClientIndicators(deps.sequelize, Number(c.id), ctx.now);
    },
  });
}

export interface IndicatorReadDeps {
  sequelize: Sequelize;
  /** The organisation's zone, which the months are read in (the clients module's reader). */
  clientTimeZone: (clientId: number) => Promise<string>;
}

/** GET /reports/indicators: the stored months of the trend, oldest first. */
export async function readIndicators(deps: IndicatorReadDeps, clientId: number, now: Date): Promise<IndicatorsDto> {
  const { sequelize } = deps;
  const wanted = indicatorMonths(now, await deps.clientTimeZone(clientId)).map((m) => m.month);
  const rows = await select<{
    month: string;
    figures: string;
    as_of: Date | string;
    complete: boolean | number;
    computed_at: Date | string;
  }>(
    sequelize,
    'SELECT month, figures, as_of, complete, computed_at FROM indicator_months WHERE client_id = :c AND month IN (:wanted) ORDER BY month',
    { c: clientId, wanted },
  );
  const iso = (v: Date | string) => (v instanceof Date ? v : new Date(v)).toISOString();
  return {
    months: rows.map((r) => {
      const figures = JSON.parse(r.figures) as MonthFigures;
      // Closed months are never recounted: one stored before 'sin datos' kept 0 % for a month nobody was measured.
      const htn = { ...figures.hypertension_control, percent: hypertensionPercent(figures.hypertension_control) };
      return { month: r.month.trim(), as_of: iso(r.as_of), complete: Boolean(r.complete), ...figures, hypertension_control: htn };
    }),
    computed_at: rows.length
      ? iso(
          rows
            .map((r) => iso(r.computed_at))
            .sort()
            .at(-1)!,
        )
      : null,
  };
}
