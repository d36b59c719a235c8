import { describeAccess, type Driver } from './driver.js';
import type { Exec, Outcome } from './queries.js';
import { summarize, type Latency } from './stats.js';

/** One endpoint's database work, as queries.ts mirrors it. */
export type Work<I> = (exec: Exec, input: I) => Promise<Outcome>;

interface StatementTiming {
  label: string;
  sql: string | null;
  latency: Latency;
}
export interface BaselineResult {
  /** Sequential: one request's statements back to back, no HTTP; comparable with the API at one connection. */
  latency: Latency;
  statements: StatementTiming[];
  /** The same work from `concurrency` loops sharing the driver, for the throughput rows. */
  throughput: { concurrency: number; seconds: number; rps: number } | null;
}
export interface PlanEntry {
  label: string;
  sql: string;
  params: unknown[];
  plan: string[];
  access: string[];
}

function plainExec(driver: Driver): Exec {
  return { query: (_label, sql, params) => driver.all(sql, params), step: (_label, work) => work() };
}

function runOnce<I>(driver: Driver, work: Work<I>, input: I): Promise<Outcome> {
  return work(plainExec(driver), input);
}

/** Runs the work once, answering what it returned and the SQL it sent. */
export async function runRecorded<I>(driver: Driver, work: Work<I>, input: I): Promise<{ outcome: Outcome; statements: string[] }> {
  const statements: string[] = [];
  const outcome = await work(
    {
      query: (_label, sql, params) => {
        statements.push(sql);
        return driver.all(sql, params);
      },
      step: (_label, w) => w(),
    },
    input,
  );
  return { outcome, statements };
}

/** Runs the work once for `input`, explaining every SELECT before running it. */
export async function explainWork<I>(driver: Driver, work: Work<I>, input: I): Promise<PlanEntry[]> {
  const plans: PlanEntry[] = [];
  await work(
    {
      async query(label, sql, params = []) {
        if (/^\s*SELECT/i.test(sql)) {
          const plan = await driver.explain(sql, params);
          plans.push({ label, sql, params, plan, access: describeAccess(driver.dialect, plan) });
        }
        return driver.all(sql, params);
      },
      step: (_label, w) => w(),
    },
    input,
  );
  return plans;
}

export async function measureBaseline<I>(
  driver: Driver,
  work: Work<I>,
  inputs: I[],
  opts: { seconds: number; maxIterations: number; concurrency: number | null },
): Promise<BaselineResult> {
  for (let i = 0; i < Math.min(20, opts.maxIterations); i++) await runOnce(driver, work, inputs[i % inputs.length]);

  const perLabel = new Map<string, { sql: string | null; samples: number[] }>();
  const record = (label: string, sql: string | null, ms: number) => {
    const entry = perLabel.get(label) ?? { sql, samples: [] };
    entry.samples.push(ms);
    perLabel.set(label, entry);
  };
  const timed: Exec = {
    async query(label, sql, params) {
      const t = performance.now();
      const rows = await driver.all(sql, params);
      record(label, sql, performance.now() - t);
      return rows as never;
    },
    async step(label, w) {
      const t = performance.now();
      const out = await w();
      record(label, null, performance.now() - t);
      return out;
    },
  };
  const totals: number[] = [];
  const deadline = performance.now() + opts.seconds * 1000;
  for (let i = 0; i < opts.maxIterations && performance.now() < deadline; i++) {
    const t = performance.now();
    await work(timed, inputs[i % inputs.length]);
    totals.push(performance.now() - t);
  }

  let throughput: BaselineResult['throughput'] = null;
  if (opts.concurrency) {
    let done = 0;
    let next = 0;
    const started = performance.now();
    const end = started + opts.seconds * 1000;
    const loop = async () => {
      while (performance.now() < end) {
        await runOnce(driver, work, inputs[next++ % inputs.length]);
        done++;
      }
    };
    await Promise.all(Array.from({ length: opts.concurrency }, loop));
    const seconds = (performance.now() - started) / 1000;
    throughput = { concurrency: opts.concurrency, seconds, rps: done / seconds };
  }

  return {
    latency: summarize(totals),
    statements: [...perLabel].map(([label, e]) => ({ label, sql: e.sql, latency: summarize(e.samples) })),
    throughput,
  };
}
