import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QueryTypes } from 'sequelize';
import { createRequire } from 'node:module';
import { seedLarge } from '../../seeds/large';
import { seedDeps } from '../../api/src/seed-deps';
import { refreshPlannerStatistics } from '../../api/src/db/statistics';
import { ingestReadings } from '../../api/src/modules/measurements/measurements.ingest';
import { refreshSummaries } from '../../api/src/modules/triage/triage.summaries';
import { startTestProduct, type TestProduct } from '../support/product';
import { ORDER_STATUS, ORDER_TYPE } from '@vigia/contract/rules/activities';
import { PATIENT_STATUS } from '@vigia/contract/rules/access';
import { CLINICAL_ELEMENTS } from '@vigia/contract/rules/vitals';

/**
 * Issue 22: every statement a reading runs (the INSERT, the hooks' reads and writes, the alert and
 * job writes) has one query plan whatever the number of patients its ingestion group holds. At
 * the benchmark's size the activity match, given an IN list of 50 patients, switched to the
 * (status, programmed_at) index and read every due activity of the installation. Here a group of
 * 1, 10 and 200 patients is stored on a data set built by the benchmark's generator, with the
 * planner's statistics as production keeps them; each statement the group sent is explained
 * again with its own values, and the plans must agree across the three sizes and with the
 * committed snapshot (a plan change fails here, not in a benchmark). The summary job, which
 * scores the patients those readings mark, is held to the same: 1, 10 and 200 marked patients.
 */

const NOW = new Date('2026-11-21T12:00:00Z');

/** node-postgres's text form of a bound value (arrays as '{1,2}'), the one it sends. */
const { prepareValue } = createRequire(import.meta.url)('pg/lib/utils.js') as { prepareValue(v: unknown): string | null };
/** A bound value as an SQL literal in that form, for EXECUTE. */
const pgLiteral = (v: unknown) => {
  const text = prepareValue(v);
  return text == null ? 'NULL' : `'${String(text).replace(/'/g, "''")}'`;
};
const SIZES = [1, 10, 200] as const;

/**
 * SQLite: the planner's statistics (sqlite_stat1) of the benchmark's 100,000 × 2 data set, as its
 * statistics job left them (db/statistics.ts, sampled: hence the 1001s), for the tables these
 * statements read. SQLite weighs one index against another by these figures, not by the rows it
 * holds, so with them the statements here are planned as at the issue's size on a data set small
 * enough to build in a test: the summary job's missed-medication count chose (status,
 * programmed_at) for 20 patients there, and for none of the sizes here without them.
 */
const STATISTICS_AT_ISSUE_SIZE: Array<[table: string, index: string, stat: string]> = [
  ['activities', 'activities_client_programmed', '1108800 1001 501'],
  ['activities', 'activities_order_id_programmed_at', '971520 7 1'],
  ['activities', 'activities_order_slot', '971520 7 1'],
  ['activities', 'activities_patient_id_programmed_at', '971520 7 1'],
  ['activities', 'activities_status_programmed_at', '1101424 1001 1001'],
  ['alarms', 'alarms_client_id_alarm_default_new_patients', '14 7 7'],
  ['alarms', 'alarms_client_id_name', '14 7 1'],
  ['alerts', 'alerts_client_created_filters', '751032 1001 1 1 1 1 1'],
  ['alerts', 'alerts_client_element_status_created', '621984 1001 1001 1001 1'],
  ['alerts', 'alerts_client_priority_created', '585684 1001 1001 1'],
  ['alerts', 'alerts_client_status_created_filters', '786900 1001 1001 1 1 1 1'],
  ['alerts', 'alerts_one_open_per_rule', '69173 2 1'],
  ['alerts', 'alerts_patient_status_created_client', '799800 6 4 1 1'],
  ['measurements', 'measurements_client_id_when', '9797760 1001 1'],
  ['measurements', 'measurements_device_reading', '13775760 1001 1001 1001'],
  ['measurements', 'measurements_patient_id_clinical_element_when', '13591160 91 26 1'],
  ['measurements', 'measurements_patient_when', '12247200 91 2 1'],
  ['orders', 'orders_client_id_status_id', '253344 1001 1001 1'],
  ['orders', 'orders_patient_id_status_id', '242970 1 1 1'],
  ['orders', 'orders_status_id', '250656 1001 1'],
  ['patient_alarms', 'patient_alarms_alarm_id_patient_id', '1008904 1001 1'],
  ['patient_alarms', 'sqlite_autoindex_patient_alarms_1', '1057770 4 1'],
  ['patients', 'patients_card_id', '112288 1001'],
  ['patients', 'patients_client_card', '185400 1001 1001'],
  ['patients', 'patients_client_cellphone', '368676 1001 1001'],
  ['patients', 'patients_client_id', '232434 1001 1'],
  ['patients', 'patients_client_id_id_type_nid', '167676 1001 1001 1'],
  ['patients', 'patients_client_id_nid', '164175 1001 1'],
  ['patients', 'patients_client_id_search_name', '183600 1001 1'],
  ['patients', 'patients_client_id_status_id', '212553 1001 1001 1'],
  ['patients', 'patients_client_multicard', '185400 1001 1001'],
  ['patients', 'patients_nid', '148960 1'],
  ['triage_summaries', 'triage_summaries_due', '166098 251'],
  ['triage_summaries', 'triage_summaries_rank', '132600 1001 1001 1'],
];

interface SqliteDriver {
  all(sql: string, params: unknown[], cb: (err: Error | null, rows: unknown[]) => void): void;
  close(cb?: (err: Error | null) => void): void;
}

interface Sent {
  text: string;
  bind: unknown[];
}

/** A plausible reading of the order's element (blood pressure as its pair), the middle of the element's range. */
function readingFor(element: number, when: string) {
  if (element === 3 || element === 4) return { clinical_element: 3, systolic: 125, diastolic: 80, when };
  const e = CLINICAL_ELEMENTS.find((c) => c.id === element)!;
  return { clinical_element: element, value: Math.round((e.min + e.max) / 2), when };
}

/** The statement's shape: IN lists and OR lists of any length read the same. */
function shapeOf(text: string): string {
  return text
    .replace(/\s+/g, ' ')
    .replace(/\$\d+/g, '?')
    .replace(
      /\(\+patient_id = \? AND \+clinical_element IN \([^)]*\)\)( OR \(\+patient_id = \? AND \+clinical_element IN \([^)]*\)\))*/g,
      '(+patient_id = ? AND +clinical_element IN (…)) OR …',
    )
    .replace(/(SELECT \?, value->>0.*? WHERE true)( UNION ALL \1)+/g, '$1 UNION ALL …')
    .replace(/\((\?, ?)*\?\)(, ?\((\?, ?)*\?\))*/g, '(…)')
    .trim();
}

describe('ingestion and summary job plans', () => {
  let t: TestProduct;
  let sqlite: boolean;
  let patients: Array<{ id: number; element: number }>;
  let clientId: number;
  /** SQLite: the connection the plans are explained on, opened after the statistics were set. */
  let explainer: SqliteDriver | null = null;

  beforeAll(async () => {
    t = await startTestProduct({ now: () => NOW });
    sqlite = t.sequelize.getDialect() === 'sqlite';
    // PostgreSQL prices a plan by the share of a table it reads: at 1,500 patients a group of 200
    // is 7 % of the patients, and a sequential scan is its right answer; at 20,000 it is 0.5 %, as
    // at the issue's size (0.2 %).
    const size = sqlite ? 1500 : 20_000;
    await seedLarge(
      seedDeps,
      t.sequelize,
      { patients: size, seed: 7, measurementsPerPatient: sqlite ? 10 : 2, clients: 2, now: NOW, heavyReadings: 0 },
      () => {},
    );
    await refreshPlannerStatistics(t.sequelize);
    if (!sqlite) await t.sequelize.query('ANALYZE');
    else {
      await t.sequelize.query('DELETE FROM sqlite_stat1 WHERE tbl IN (:tables)', {
        replacements: { tables: [...new Set(STATISTICS_AT_ISSUE_SIZE.map(([tbl]) => tbl))] },
      });
      for (const [tbl, idx, stat] of STATISTICS_AT_ISSUE_SIZE)
        await t.sequelize.query('INSERT INTO sqlite_stat1 (tbl, idx, stat) VALUES (?, ?, ?)', { replacements: [tbl, idx, stat] });
      // A connection reads them when it opens: the plans are explained on one opened now.
      const manager = t.sequelize.connectionManager as unknown as {
        lib: { Database: new (file: string, mode: number, cb: (err: Error | null) => void) => SqliteDriver; OPEN_READONLY: number };
      };
      const storage = (t.sequelize as unknown as { options: { storage: string } }).options.storage;
      explainer = await new Promise<SqliteDriver>((resolve, reject) => {
        const conn = new manager.lib.Database(storage, manager.lib.OPEN_READONLY, (err) => (err ? reject(err) : resolve(conn)));
      });
      // As the API's connections (db/database.ts): the foreign keys' checks are steps of a plan.
      await new Promise((resolve, reject) => explainer!.all('PRAGMA foreign_keys = ON', [], (err) => (err ? reject(err) : resolve(null))));
    }
    const [client] = await t.sequelize.query<{ id: number }>(`SELECT id FROM clients WHERE name = 'Benchmark A'`, {
      type: QueryTypes.SELECT,
    });
    clientId = client.id;
    patients = await t.sequelize.query<{ id: number; element: number }>(
      `SELECT p.id, MIN(o.clinical_element) AS element FROM patients p JOIN orders o ON o.patient_id = p.id
       WHERE p.client_id = :clientId AND p.status = :active AND o.order_type = :measurement AND o.status IN (:running)
       GROUP BY p.id ORDER BY p.id LIMIT 200`,
      {
        type: QueryTypes.SELECT,
        replacements: {
          clientId,
          active: PATIENT_STATUS.active,
          measurement: ORDER_TYPE.measurement,
          running: [ORDER_STATUS.scheduled, ORDER_STATUS.running],
        },
      },
    );
  }, 180_000);
  afterAll(async () => {
    await new Promise((resolve) => (explainer ? explainer.close(resolve) : resolve(null)));
    await t?.stop();
  });

  /** What the database was sent while `work` ran, each statement with its bound values. */
  async function sentDuring(work: () => Promise<void>): Promise<Sent[]> {
    const sent: Sent[] = [];
    const options = (t.sequelize as unknown as { options: { logging: unknown } }).options;
    options.logging = (line: string, opts?: { bind?: unknown[] }) => {
      const text = line.replace(/^Executing \([^)]*\): /, '');
      if (/^(SELECT|INSERT|UPDATE|DELETE|WITH)\b/i.test(text)) sent.push({ text, bind: opts?.bind ?? [] });
    };
    try {
      await work();
    } finally {
      options.logging = false;
    }
    return sent;
  }

  /** Stores one reading for each of the first `n` patients in one request. */
  const readingsOf = (n: number, minute: number) =>
    sentDuring(async () => {
      const when = new Date(NOW.getTime() - minute * 60_000).toISOString();
      const result = await ingestReadings(
        { sequelize: t.sequelize, jobs: t.jobs, now: () => NOW },
        {
          clientId,
          source: 'device',
          items: patients.slice(0, n).map((p) => ({
            patient: { id: p.id, status: PATIENT_STATUS.active },
            input: readingFor(p.element, when),
          })),
        },
      );
      expect(result.stored.length).toBeGreaterThanOrEqual(n);
    });

  /** One pass of the summary job over the first `n` patients, marked as a reading marks them. */
  async function summaryJobOf(n: number): Promise<Sent[]> {
    await t.sequelize.query('DELETE FROM triage_dirty');
    await t.sequelize.query('INSERT INTO triage_dirty (patient_id) SELECT id FROM patients WHERE id IN (:ids)', {
      replacements: { ids: patients.slice(0, n).map((p) => p.id) },
    });
    return sentDuring(async () => {
      expect(await refreshSummaries(t.sequelize, NOW, { maxPatients: n })).toBe(n);
    });
  }

  /** The plan of one statement as a list of steps, without the tree's ids. */
  async function planOf(s: Sent): Promise<string[]> {
    if (sqlite) {
      // The driver itself, with the statement's own positional values (Sequelize's bind wants $n).
      const conn = explainer!;
      const rows = await new Promise<Array<{ detail: string }>>((resolve, reject) =>
        conn.all(`EXPLAIN QUERY PLAN ${s.text}`, s.bind, (err, r) => (err ? reject(err) : resolve(r as Array<{ detail: string }>))),
      );
      // A Bloom filter is a run-time shortcut SQLite adds on the same access path for larger inputs,
      // and a VALUES list of several rows is read as constant rows (one row is no step at all):
      // neither reaches a table.
      return rows.map((r) => r.detail).filter((d) => !d.startsWith('BLOOM FILTER') && !/^SCAN (\d+ )?CONSTANT ROWS?$/.test(d));
    }
    // The group runs its statements prepared with generic plans (db/sql.ts, genericPlans): the plan
    // explained is that one, made without the values, then executed with them.
    const rows = await t.sequelize.transaction(async (transaction) => {
      const run = (sql: string) => t.sequelize.query(sql, { type: QueryTypes.SELECT, transaction, bound: true } as never);
      await run('SET LOCAL plan_cache_mode = force_generic_plan');
      await run(`PREPARE vigia_plan AS ${s.text}`);
      const explained = await run(`EXPLAIN (COSTS OFF) EXECUTE vigia_plan(${s.bind.map(pgLiteral).join(', ')})`);
      await run('DEALLOCATE vigia_plan');
      return explained as unknown as Array<{ 'QUERY PLAN': string }>;
    });
    // PostgreSQL moves between an index scan, an index-only scan and a bitmap scan of the same
    // index, and between join methods, with the number of keys: that is its cost model at work,
    // not a change of what is read. What must not change is how each table is reached.
    const lines = rows.map((r) => r['QUERY PLAN']);
    const access = new Set<string>();
    lines.forEach((line, i) => {
      const scan = /(?<!Bitmap )(Seq Scan|Index Only Scan|Index Scan) (?:using (\S+) )?on (\S+)/.exec(line);
      if (scan) access.add(`${scan[3]}: ${scan[2] ?? 'seq scan'}`);
      const bitmap = /Bitmap Heap Scan on (\S+)/.exec(line);
      if (!bitmap) return;
      const index = lines
        .slice(i + 1)
        .map((l) => /Bitmap Index Scan on (\S+)/.exec(l))
        .find(Boolean);
      access.add(`${bitmap[1]}: ${index ? index[1] : 'bitmap'}`);
    });
    return [...access].sort();
  }

  /**
   * The plans of what `statementsOf(n)` sends for 1, 10 and 200 patients, by statement shape: each
   * must be the same at every size. A statement sent only at some sizes (an alert extended, a
   * second client's webhooks) is compared where it appears; those sent for one patient must be
   * sent at every size.
   */
  async function plansAcrossSizes(statementsOf: (n: number, k: number) => Promise<Sent[]>): Promise<Map<string, string[]>> {
    // Every statement sent is explained: a job sends the same shape once per run of patients.
    const all = new Map<string, string[]>();
    const sentAt = new Map<number, Set<string>>();
    for (const [k, n] of SIZES.entries()) {
      const shapes = new Set<string>();
      for (const s of await statementsOf(n, k)) {
        const shape = shapeOf(s.text);
        const plan = await planOf(s);
        expect(plan, `${n} patients: ${shape}`).toEqual(all.get(shape) ?? plan);
        all.set(shape, plan);
        shapes.add(shape);
      }
      sentAt.set(n, shapes);
    }
    for (const n of SIZES) for (const shape of sentAt.get(1)!) expect(sentAt.get(n)!.has(shape), `${n} patients send ${shape}`).toBe(true);
    return all;
  }

  /** The plans as a committed file, one per database, each written by its own run (`vitest -u`), read by the other's without being touched. */
  const snapshot = (all: Map<string, string[]>, name: string) =>
    expect(JSON.stringify(Object.fromEntries([...all.entries()].sort()), null, 2) + '\n').toMatchFileSnapshot(
      `./__snapshots__/${name}.${sqlite ? 'sqlite' : 'postgres'}.json`,
    );

  it('each statement of an ingestion group has the same plan for 1, 10 and 200 patients', async () => {
    expect(patients.length).toBe(200);
    const all = await plansAcrossSizes((n, k) => readingsOf(n, 5 + k));
    const activityMatch = [...all.entries()].find(([shape]) => shape.includes('FROM activities a'));
    expect(activityMatch, 'the activity match ran').toBeDefined();
    if (sqlite) expect(activityMatch![1].join(' | ')).toContain('activities_patient_id_programmed_at');
    await snapshot(all, 'ingest-plans');
  }, 120_000);

  // The summary job scores the patients the readings marked, every minute, beside the readings: at
  // 100,000 × 2 its missed-medication count, planned on (status, programmed_at) for 20 patients,
  // took most of its minute (issue 22).
  it('each statement of the summary job has the same plan for 1, 10 and 200 marked patients', async () => {
    const all = await plansAcrossSizes((n) => summaryJobOf(n));
    const missed = [...all.entries()].find(([shape]) => shape.includes('FROM activities a'));
    expect(missed, 'the missed-medication count ran').toBeDefined();
    if (sqlite) expect(missed![1].join(' | ')).toContain('activities_patient_id_programmed_at');
    await snapshot(all, 'summary-job-plans');
  }, 120_000);
});
