import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QueryTypes } from 'sequelize';
import { createRequire } from 'node:module';
import { seedLarge } from '../../seeds/large';
import { refreshPlannerStatistics } from '../../api/src/db/statistics';
import { ingestReadings } from '../../api/src/modules/measurements/measurements.ingest';
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
 * committed snapshot (a plan change fails here, not in a benchmark).
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

interface SqliteDriver {
  all(sql: string, params: unknown[], cb: (err: Error | null, rows: unknown[]) => void): void;
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

describe('ingestion plans', () => {
  let t: TestProduct;
  let sqlite: boolean;
  let patients: Array<{ id: number; element: number }>;
  let clientId: number;

  beforeAll(async () => {
    t = await startTestProduct({ now: () => NOW });
    sqlite = t.sequelize.getDialect() === 'sqlite';
    // PostgreSQL prices a plan by the share of a table it reads: at 1,500 patients a group of 200
    // is 7 % of the patients, and a sequential scan is its right answer; at 20,000 it is 0.5 %, as
    // at the size (0.2 %).
    const size = sqlite ? 1500 : 20_000;
    await seedLarge(
      t.sequelize,
      { patients: size, seed: 7, measurementsPerPatient: sqlite ? 10 : 2, clients: 2, now: NOW, heavyReadings: 0 },
      () => {},
    );
    await refreshPlannerStatistics(t.sequelize);
    if (!sqlite) await t.sequelize.query('ANALYZE');
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
  afterAll(() => t?.stop());

  /** Stores one reading for each of the first `n` patients in one request, and answers what the database was sent. */
  async function statementsOf(n: number, minute: number): Promise<Sent[]> {
    const sent: Sent[] = [];
    const options = (t.sequelize as unknown as { options: { logging: unknown } }).options;
    options.logging = (line: string, opts?: { bind?: unknown[] }) => {
      const text = line.replace(/^Executing \([^)]*\): /, '');
      if (/^(SELECT|INSERT|UPDATE|DELETE|WITH)\b/i.test(text)) sent.push({ text, bind: opts?.bind ?? [] });
    };
    try {
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
    } finally {
      options.logging = false;
    }
    return sent;
  }

  /** The plan of one statement as a list of steps, without the tree's ids. */
  async function planOf(s: Sent): Promise<string[]> {
    if (sqlite) {
      // The driver itself, with the statement's own positional values (Sequelize's bind wants $n).
      const manager = t.sequelize.connectionManager as unknown as { getConnection(o: object): Promise<SqliteDriver> };
      const conn = await manager.getConnection({ type: 'SELECT' });
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

  it('each statement of an ingestion group has the same plan for 1, 10 and 200 patients', async () => {
    expect(patients.length).toBe(200);
    const bySize = new Map<number, Map<string, string[]>>();
    for (const [k, n] of SIZES.entries()) {
      const plans = new Map<string, string[]>();
      for (const s of await statementsOf(n, 5 + k)) plans.set(shapeOf(s.text), await planOf(s));
      bySize.set(n, plans);
    }
    // A statement that only some groups send (an alert extended, a second client's webhooks) is
    // compared where it appears; the ones every group sends must be in all three.
    const all = new Map<string, string[]>();
    for (const n of SIZES)
      for (const [shape, plan] of bySize.get(n)!) {
        expect(plan, `${n} patients: ${shape}`).toEqual(all.get(shape) ?? plan);
        all.set(shape, plan);
      }
    const one = bySize.get(1)!;
    for (const n of SIZES) for (const shape of one.keys()) expect(bySize.get(n)!.has(shape), `${n} patients send ${shape}`).toBe(true);
    const activityMatch = [...one.entries()].find(([shape]) => shape.includes('FROM activities a'));
    expect(activityMatch, 'the activity match ran').toBeDefined();
    if (sqlite) expect(activityMatch![1].join(' | ')).toContain('activities_patient_id_programmed_at');
    // One file per database, each written by its own run (`vitest -u`), read by the other's without being touched.
    await expect(JSON.stringify(Object.fromEntries([...all.entries()].sort()), null, 2) + '\n').toMatchFileSnapshot(
      `./__snapshots__/ingest-plans.${sqlite ? 'sqlite' : 'postgres'}.json`,
    );
  }, 120_000);
});
