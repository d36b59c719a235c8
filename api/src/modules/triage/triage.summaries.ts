import type { Sequelize } from 'sequelize';
import { BACKGROUND, execute, insertReturning, Positional, rowPlaceholders, select, sqlIn } from '../../db/sql.js';
import { isPostgres } from '../../db/database.js';
import type { JobRunner } from '../../jobs/queue.js';
import { timeSlicer } from '../../jobs/time-slice.js';
import { PATIENT_STATUS } from '@vigia/contract/rules/access';
import { ACTIVITY_STATUS, ORDER_STATUS, ORDER_TYPE } from '@vigia/contract/rules/activities';
import { ADHERENCE_WINDOW_DAYS, adherencePercent } from '@vigia/contract/rules/adherence';
import { ALARM_STATUS, ALERT_STATUS, PRIORITY_KEYS } from '@vigia/contract/rules/alarms';
import { triageSettingsOf, type TriageSettings } from '@vigia/contract/rules/triage';
import { MEASUREMENT_STATUS } from '@vigia/contract/rules/vitals';
import { chunkByWeight, DAY_MS, scorePatient, TRIAGE_REFRESH_MS, type PatientFacts, type PatientScore } from './triage.rules.js';

/**
 * The per-patient summaries behind 'Priorización' (migration 0020). They are computed only here,
 * from the readings and the rest of the patient's record, by the same scorePatient the rebuild
 * uses: the summary job recomputes the patients marked dirty and those whose summary came due
 * (the window moved); `rebuildSummaries` recomputes every patient (npm run triage:rebuild), or
 * only compares (`--check`). Every write that feeds a score marks its patient in `triage_dirty` by
 * trigger (migrations 0020 and 0023, stored readings included).
 */

/** Patients per batch: one set-based read of each kind for all of them. */
const BATCH = 500;

const time = (v: Date | string | null) => (v == null ? null : (v instanceof Date ? v : new Date(v)).getTime());

interface Target {
  id: number;
  client_id: number;
  status: number;
}

/** Each client's settings, parsed once per run. */
async function settingsOf(sequelize: Sequelize, clientIds: number[]): Promise<Map<number, TriageSettings>> {
  const rows = clientIds.length
    ? await select<{ id: number; triage_settings: string | null }>(
        sequelize,
        'SELECT id, triage_settings FROM clients WHERE id IN (:ids)',
        { ids: clientIds },
        BACKGROUND,
      )
    : [];
  return new Map(rows.map((r) => [Number(r.id), triageSettingsOf(r.triage_settings ? JSON.parse(r.triage_settings) : null)]));
}

/** The readings scorePatient looks at: the window and the one before it (for the drop in time in range). */
const readingsFrom = (s: TriageSettings, now: Date) => new Date(now.getTime() - 2 * s.window_days * DAY_MS);
const READINGS_OF = `FROM measurements WHERE patient_id IN (:ids) AND "when" > :from AND "when" <= :now AND status = ${MEASUREMENT_STATUS.valid}`;

/**
 * At most this many readings are read at once: a batch is split to stay under it. node-sqlite3
 * turns a statement's rows into objects in one go on the main thread, so in the API (the job) a
 * read is also how long the requests that arrive meanwhile wait behind it: 1,000 rows, about 2 ms
 * of the main thread here (5,000 held it 7-9 ms, and the job ran inside the benchmark's 500/s
 * phase, whose p99 target is 25 ms). The rebuild runs in a process of its own, with nothing to
 * answer: 20,000 (about 8 MB).
 */
const JOB_READINGS_PER_READ = 1_000;
const REBUILD_READINGS_PER_READ = 20_000;
/**
 * The job's scoring gives requests a turn every this many milliseconds, and holds at most this
 * share of the time (jobs/time-slice.ts): its reads and scoring run beside the readings' requests
 * in the API's one thread, and 500 readings/s already take about three quarters of it.
 */
const JOB_SLICE_MS = 4;
const JOB_SHARE = 0.25;

/** `ids` in runs whose readings in the window stay under `max` (counted from the index). */
async function runsByReadings(sequelize: Sequelize, ids: number[], s: TriageSettings, now: Date, max: number): Promise<number[][]> {
  const counts = await select<{ patient_id: number; n: number }>(
    sequelize,
    `SELECT patient_id, COUNT(*) AS n ${READINGS_OF} GROUP BY patient_id`,
    { ids, from: readingsFrom(s, now), now },
    BACKGROUND,
  );
  return chunkByWeight(ids, new Map(counts.map((c) => [Number(c.patient_id), Number(c.n)])), max);
}

/** Everything scorePatient needs about `ids` (one client's patients), read set-based. */
async function loadFacts(sequelize: Sequelize, ids: number[], s: TriageSettings, now: Date): Promise<Map<number, PatientFacts>> {
  const from = readingsFrom(s, now);
  const windowStart = new Date(now.getTime() - s.window_days * DAY_MS);
  const adherenceFrom = new Date(now.getTime() - ADHERENCE_WINDOW_DAYS * DAY_MS);
  const params = { ids, from, now, windowStart, adherenceFrom };
  const [readings, lasts, ranges, alerts, orders, adherence, missed] = await Promise.all([
    select<{ patient_id: number; clinical_element: number; value: number; when: Date | string }>(
      sequelize,
      `SELECT patient_id, clinical_element, value, "when" ${READINGS_OF}`,
      params,
      BACKGROUND,
    ),
    // By (patient_id, clinical_element, when), already in the GROUP BY's order. SQLite took
    // (patient_id, when) for an IN list of a few patients and that index for many; the unary +
    // (SQLite's way of saying "not by this index"; PostgreSQL has no + for a timestamp) keeps one plan.
    select<{ patient_id: number; clinical_element: number; last: Date | string }>(
      sequelize,
      `SELECT patient_id, clinical_element, MAX("when") AS last FROM measurements
        WHERE patient_id IN (:ids) AND status = ${MEASUREMENT_STATUS.valid} AND ${isPostgres(sequelize) ? '' : '+'}"when" <= :now
        GROUP BY patient_id, clinical_element`,
      params,
      BACKGROUND,
    ),
    select<{ patient_id: number; clinical_element: number; minimum_condition: number; maximum_condition: number }>(
      sequelize,
      `SELECT pa.patient_id, a.clinical_element, a.minimum_condition, a.maximum_condition
         FROM patient_alarms pa JOIN alarms a ON a.id = pa.alarm_id
        WHERE pa.patient_id IN (:ids) AND a.status = ${ALARM_STATUS.active}`,
      params,
      BACKGROUND,
    ),
    select<{ patient_id: number; priority: number; n: number }>(
      sequelize,
      `SELECT patient_id, priority, COUNT(*) AS n FROM alerts
        WHERE patient_id IN (:ids) AND status = ${ALERT_STATUS.open} GROUP BY patient_id, priority`,
      params,
      BACKGROUND,
    ),
    select<{ patient_id: number; clinical_element: number; start_at: Date | string | null }>(
      sequelize,
      `SELECT patient_id, clinical_element, start_at FROM orders
        WHERE patient_id IN (:ids) AND order_type = ${ORDER_TYPE.measurement} AND status = ${ORDER_STATUS.running} AND clinical_element IS NOT NULL`,
      params,
      BACKGROUND,
    ),
    // Adherence as contract/rules/adherence.ts and the patient page count it: completed over due.
    select<{ patient_id: number; due: number; done: number | null }>(
      sequelize,
      `SELECT patient_id, COUNT(*) AS due, SUM(CASE WHEN status = ${ACTIVITY_STATUS.completed} THEN 1 ELSE 0 END) AS done
         FROM activities
        WHERE patient_id IN (:ids) AND programmed_at >= :adherenceFrom AND programmed_at <= :now
          AND status NOT IN ${sqlIn(ACTIVITY_STATUS.cancelled, ACTIVITY_STATUS.suspended)}
        GROUP BY patient_id`,
      params,
      BACKGROUND,
    ),
    // The patients' own activities by (patient_id, programmed_at), then their orders, as the
    // activity match reads them (activities.match.ts). Without the unary + SQLite chose the
    // (status, programmed_at) index for an IN list of 20 patients (not of 10) and read every failed
    // and unreported activity of the installation in the window: 110 ms per run of 20 patients at
    // 100,000 × 2, most of the job's minute, beside the readings it was summarising (issue 22).
    select<{ patient_id: number; n: number }>(
      sequelize,
      `SELECT a.patient_id, COUNT(*) AS n FROM activities a CROSS JOIN orders o
        WHERE o.id = a.order_id AND a.patient_id IN (:ids) AND a.programmed_at > :windowStart AND a.programmed_at <= :now
          AND +a.status IN ${sqlIn(ACTIVITY_STATUS.failed, ACTIVITY_STATUS.notReported)} AND o.order_type = ${ORDER_TYPE.medication}
        GROUP BY a.patient_id`,
      params,
      BACKGROUND,
    ),
  ]);
  const facts = new Map<number, PatientFacts>(
    ids.map((id) => [
      id,
      {
        readings: [],
        lastReadingAt: {},
        ranges: [],
        openAlerts: { high: 0, medium: 0, low: 0 },
        runningVitalOrders: [],
        adherencePercent: null,
        missedMedication: 0,
      },
    ]),
  );
  const of = (id: number | string) => facts.get(Number(id))!;
  for (const r of readings)
    of(r.patient_id).readings.push({ clinical_element: Number(r.clinical_element), value: Number(r.value), when: time(r.when)! });
  for (const r of lasts) of(r.patient_id).lastReadingAt[Number(r.clinical_element)] = time(r.last)!;
  for (const r of ranges)
    of(r.patient_id).ranges.push({
      clinical_element: Number(r.clinical_element),
      minimum: Number(r.minimum_condition),
      maximum: Number(r.maximum_condition),
    });
  for (const r of alerts) {
    const key = PRIORITY_KEYS[Number(r.priority)];
    if (key) of(r.patient_id).openAlerts[key] += Number(r.n);
  }
  for (const r of orders)
    of(r.patient_id).runningVitalOrders.push({ clinical_element: Number(r.clinical_element), start_at: time(r.start_at) });
  for (const r of adherence) of(r.patient_id).adherencePercent = adherencePercent(Number(r.done ?? 0), Number(r.due));
  for (const r of missed) of(r.patient_id).missedMedication = Number(r.n);
  return facts;
}

interface ComputedSummary extends PatientScore {
  patient_id: number;
  client_id: number;
}

/** The summaries of `targets` at `now`; patients that are not active get none. */
async function computeSummaries(
  sequelize: Sequelize,
  targets: Target[],
  now: Date,
  opts: { maxReadings: number; slicer?: { pause(): Promise<void> | undefined } },
): Promise<ComputedSummary[]> {
  const active = targets.filter((t) => Number(t.status) === PATIENT_STATUS.active);
  const byClient = new Map<number, number[]>();
  for (const t of active) byClient.set(Number(t.client_id), [...(byClient.get(Number(t.client_id)) ?? []), Number(t.id)]);
  const settings = await settingsOf(sequelize, [...byClient.keys()]);
  const out: ComputedSummary[] = [];
  for (const [clientId, ids] of byClient) {
    const s = settings.get(clientId) ?? triageSettingsOf(null);
    for (const run of await runsByReadings(sequelize, ids, s, now, opts.maxReadings)) {
      const facts = await loadFacts(sequelize, run, s, now);
      for (const id of run) {
        await opts.slicer?.pause();
        const score = scorePatient(facts.get(id)!, s, now.getTime());
        // Spread by patient over the refresh period, so summaries built together (a rebuild) do not all come due at once.
        score.validUntil = Math.min(score.validUntil, now.getTime() + TRIAGE_REFRESH_MS - (id % 360) * 60_000);
        out.push({ patient_id: id, client_id: clientId, ...score });
      }
    }
  }
  return out;
}

const UPSERT_WIDTH = 8;

/** Writes the summaries of `targets` (one statement) and drops those of patients no longer active. */
async function storeSummaries(sequelize: Sequelize, targets: Target[], summaries: ComputedSummary[], now: Date): Promise<void> {
  if (summaries.length) {
    const values = summaries.flatMap((x) => [
      x.patient_id,
      x.client_id,
      x.score,
      x.mask,
      JSON.stringify(x.flags),
      x.lastReadingAt == null ? null : new Date(x.lastReadingAt),
      now,
      new Date(x.validUntil),
    ]);
    await execute(
      sequelize,
      `INSERT INTO triage_summaries (patient_id, client_id, score, flag_mask, flags, last_reading_at, computed_at, valid_until)
       VALUES ${rowPlaceholders(sequelize, summaries.length, UPSERT_WIDTH)}
       ON CONFLICT (patient_id) DO UPDATE SET client_id = excluded.client_id, score = excluded.score, flag_mask = excluded.flag_mask,
         flags = excluded.flags, last_reading_at = excluded.last_reading_at, computed_at = excluded.computed_at, valid_until = excluded.valid_until`,
      new Positional(values),
    );
  }
  const kept = new Set(summaries.map((x) => x.patient_id));
  const gone = targets.map((t) => Number(t.id)).filter((id) => !kept.has(id));
  if (gone.length) await execute(sequelize, 'DELETE FROM triage_summaries WHERE patient_id IN (:gone)', { gone });
}

async function targetsOf(sequelize: Sequelize, ids: number[]): Promise<Target[]> {
  if (!ids.length) return [];
  const found = await select<Target>(sequelize, 'SELECT id, client_id, status FROM patients WHERE id IN (:ids)', { ids }, BACKGROUND);
  const known = new Set(found.map((t) => Number(t.id)));
  // A patient deleted since it was marked: its summary goes (status -1 is never active).
  return [...found, ...ids.filter((id) => !known.has(id)).map((id) => ({ id, client_id: 0, status: -1 }))];
}

async function refresh(sequelize: Sequelize, ids: number[], now: Date): Promise<number> {
  const targets = await targetsOf(sequelize, ids);
  const summaries = await computeSummaries(sequelize, targets, now, {
    maxReadings: JOB_READINGS_PER_READ,
    slicer: timeSlicer(JOB_SLICE_MS, { share: JOB_SHARE }),
  });
  await storeSummaries(sequelize, targets, summaries, now);
  return ids.length;
}

/**
 * One pass of the summary job: the dirty patients (claimed by deleting their marks first, so a
 * reading stored while they are computed marks them again), then the summaries that came due.
 * Each marked patient once per pass, in patient order: one marked again during the pass waits for
 * the next (a minute later). Claimed until none was left, a steady stream of readings kept the job
 * recomputing the same patients until its cap, the whole time the readings arrived: 5,000 scorings
 * a minute for the benchmark's 200 patients, beside the requests on the API's two cores (issue 22).
 * Answers how many patients were recomputed.
 */
export async function refreshSummaries(sequelize: Sequelize, now: Date, opts: { maxPatients?: number } = {}): Promise<number> {
  // A run stays short (other jobs wait behind it); marked patients go first, due ones catch up over later runs.
  const max = opts.maxPatients ?? 5_000;
  const postgres = isPostgres(sequelize);
  let done = 0;
  let after = 0;
  while (done < max) {
    const claimed = await insertReturning<{ patient_id: number }>(
      sequelize,
      `DELETE FROM triage_dirty WHERE patient_id IN (SELECT patient_id FROM triage_dirty WHERE patient_id > :after ORDER BY patient_id LIMIT ${BATCH}${postgres ? ' FOR UPDATE SKIP LOCKED' : ''})
       RETURNING patient_id`,
      { after },
    );
    if (!claimed.length) break;
    const ids = claimed.map((r) => Number(r.patient_id));
    after = Math.max(...ids);
    done += await refresh(sequelize, ids, now);
  }
  while (done < max) {
    const due = await select<{ patient_id: number }>(
      sequelize,
      `SELECT patient_id FROM triage_summaries WHERE valid_until <= :now ORDER BY valid_until LIMIT ${BATCH}`,
      { now },
      BACKGROUND,
    );
    if (!due.length) break;
    done += await refresh(
      sequelize,
      due.map((r) => Number(r.patient_id)),
      now,
    );
  }
  return done;
}

/** Every minute: the readings of the last minute reach the list within about a minute (P181). */
export const TRIAGE_JOB_EVERY_MS = 60_000;

export function registerTriageJobs(deps: { sequelize: Sequelize; jobs: JobRunner }): void {
  deps.jobs.every({
    kind: 'triage.refresh',
    everyMs: TRIAGE_JOB_EVERY_MS,
    handler: async (ctx) => {
      await refreshSummaries(deps.sequelize, ctx.now);
    },
  });
}

interface StoredSummary {
  patient_id: number;
  client_id: number;
  score: number;
  flag_mask: number;
  flags: string;
  last_reading_at: Date | string | null;
}

export interface RebuildResult {
  patients: number;
  /** Patients whose stored summary differs from the one rebuilt (with `check`, nothing is written). */
  differences: Array<{ patient_id: number; stored: unknown; rebuilt: unknown }>;
}

const comparable = (x: { score: number; mask: number; flags: unknown; lastReadingAt: number | null } | null) =>
  x && { score: x.score, mask: x.mask, flags: x.flags, last_reading_at: x.lastReadingAt };

/**
 * Every active patient's summary from the readings at `now`, in batches by patient id: written
 * (the rebuild), or with `check` only compared with what is stored. Optionally one client.
 */
export async function rebuildSummaries(
  sequelize: Sequelize,
  now: Date,
  /** `maxReadingsPerRead`: tests split batches finer than the job does, to check a split changes nothing. */
  opts: { clientId?: number; check?: boolean; onBatch?: (done: number) => void; maxReadingsPerRead?: number } = {},
): Promise<RebuildResult> {
  const result: RebuildResult = { patients: 0, differences: [] };
  const client = opts.clientId ? 'AND client_id = :clientId' : '';
  let after = 0;
  for (;;) {
    const targets = await select<Target>(
      sequelize,
      `SELECT id, client_id, status FROM patients WHERE id > :after ${client} ORDER BY id LIMIT ${BATCH}`,
      { after, clientId: opts.clientId },
    );
    if (!targets.length) break;
    after = Number(targets[targets.length - 1].id);
    const summaries = await computeSummaries(sequelize, targets, now, {
      maxReadings: opts.maxReadingsPerRead ?? REBUILD_READINGS_PER_READ,
    });
    result.patients += summaries.length;
    if (opts.check) {
      const stored = await select<StoredSummary>(
        sequelize,
        'SELECT patient_id, client_id, score, flag_mask, flags, last_reading_at FROM triage_summaries WHERE patient_id IN (:ids)',
        { ids: targets.map((t) => Number(t.id)) },
      );
      const byId = new Map(stored.map((x) => [Number(x.patient_id), x]));
      const rebuilt = new Map(summaries.map((x) => [x.patient_id, x]));
      for (const t of targets) {
        const id = Number(t.id);
        const x = byId.get(id);
        const kept = x
          ? comparable({
              score: Number(x.score),
              mask: Number(x.flag_mask),
              flags: JSON.parse(x.flags),
              lastReadingAt: time(x.last_reading_at),
            })
          : null;
        const fresh = rebuilt.get(id);
        const expected = comparable(fresh ? { ...fresh, flags: JSON.parse(JSON.stringify(fresh.flags)) } : null);
        if (JSON.stringify(kept) !== JSON.stringify(expected)) result.differences.push({ patient_id: id, stored: kept, rebuilt: expected });
      }
    } else {
      await storeSummaries(sequelize, targets, summaries, now);
    }
    opts.onBatch?.(result.patients);
  }
  // Marks stay: a reading stored while this ran is recomputed by the next job run, never lost.
  // Every row was just rewritten: the planner's statistics follow (PostgreSQL; SQLite's come from the statistics job).
  if (!opts.check && sequelize.getDialect() === 'postgres') await sequelize.query('ANALYZE triage_summaries');
  return result;
}
