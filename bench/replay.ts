/**
 * Read scenarios whose baseline is the API's own SQL replayed on the bare driver: before measuring,
 * the harness sends each input once to an in-process copy of the app with Sequelize's logging on
 * (capture.ts `captureRaw`), keeps every statement exactly as sent (replacements inlined by
 * Sequelize, bound values apart), and the baseline runs those statements back to back on
 * `sqlite3` / `pg`: the same SQL, without HTTP, Express, passport or Sequelize. Nothing to keep in
 * step by hand when a service changes its queries (unlike queries.ts); the check still compares
 * the baseline's rows with the API's answer.
 *
 * Statements the service sends concurrently (Promise.all) run one after the other here, so on
 * PostgreSQL the baseline can be slightly slower than the service's own database time.
 */
import type { RawStatement } from './capture.js';
import type { Driver } from './driver.js';
import type { HttpRequest } from './load.js';
import type { Caller, Exec, Outcome } from './queries.js';
import type { Scenario } from './scenarios.js';
import { PATIENT_STATUS } from '@vigia/contract/rules/access';

const CONTROL = /^\s*(BEGIN|COMMIT|ROLLBACK|START TRANSACTION|SET |SAVEPOINT|RELEASE)/i;

/** Filled by run.ts (captureRaw) before the scenario is measured: request path → statements. */
type Captured = Map<string, RawStatement[]>;

export interface ReplayScenario<I> extends Scenario<I> {
  replay: Captured;
  /** The API's answer reduced to what the baseline can also answer. */
  apiOutcome?: (headers: Headers, body: unknown) => Outcome;
  /** The baseline's statements' rows reduced to the same. */
  baselineOutcome?: (results: Array<{ sql: string; rows: Array<Record<string, unknown>> }>) => Outcome;
}

const keyOf = (r: HttpRequest) => `${r.method} ${r.path}`;

/** A statement that answers a total: a COUNT, or the sum of the alert counts kept by triggers (migrations 0017 and 0021). */
const COUNT_SQL = /^\s*SELECT\s+(count\(|SUM\((al\.)?n\) AS n FROM alert_(status|filter)_counts\b)/i;

function labelOf(sql: string, k: number): string {
  // A write the request makes (the FHIR API's audit rows, written in batches after the answers) is named by its table too.
  const write = /^\s*(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+[`"]?(\w+)[`"]?/i.exec(sql);
  if (write) return `${k + 1}. ${write[1]} (write)`;
  const table = /\bFROM\s+[`"]?(\w+)[`"]?/i.exec(sql)?.[1] ?? 'statement';
  if (table === 'sessions') return 'auth: session';
  if (table === 'users' && k < 3) return 'auth: user';
  const kind = COUNT_SQL.test(sql) ? 'count' : /\bGROUP BY\b/i.test(sql) ? 'group' : /\bLIMIT\b/i.test(sql) ? 'page' : 'read';
  return `${k + 1}. ${table} (${kind})`;
}

/** Default reduction: the COUNT(*) statement's value and the ids of the paged SELECT. */
function listOutcome(results: Array<{ sql: string; rows: Array<Record<string, unknown>> }>): Outcome {
  let total: number | null = null;
  let ids: number[] | null = null;
  for (const r of results) {
    if (COUNT_SQL.test(r.sql) && r.rows.length === 1) total = Number(Object.values(r.rows[0])[0]);
    else if (ids === null && /\bORDER BY\b/i.test(r.sql) && /\bLIMIT\b/i.test(r.sql) && (r.rows.length === 0 || 'id' in r.rows[0])) {
      ids = r.rows.map((row) => Number(row.id));
    }
  }
  return { total, ids: ids ?? [] };
}

/** The work of a replay scenario: the captured statements of this input, in order. */
export function replayWork<I>(s: Pick<ReplayScenario<I>, 'replay' | 'request' | 'baselineOutcome'>) {
  return async (exec: Exec, input: I): Promise<Outcome> => {
    const statements = s.replay.get(keyOf(s.request(input)));
    if (!statements) throw new Error(`Sin SQL capturado para ${keyOf(s.request(input))}`);
    const results: Array<{ sql: string; rows: Array<Record<string, unknown>> }> = [];
    for (const [k, st] of statements.entries()) {
      if (CONTROL.test(st.sql)) continue;
      const rows = await exec.query<Record<string, unknown>>(labelOf(st.sql, k), st.sql, st.bind);
      results.push({ sql: st.sql, rows });
    }
    return (s.baselineOutcome ?? listOutcome)(results);
  };
}

function isReplay(s: Scenario): s is ReplayScenario<unknown> {
  return (s as ReplayScenario<unknown>).replay instanceof Map;
}

/** Every request a replay scenario will send, to capture once. */
export function replayRequests(scenarios: Scenario[]): HttpRequest[] {
  return scenarios.filter(isReplay).flatMap((s) => s.inputs.map((i) => s.request(i)));
}

export function storeCaptured(scenarios: Scenario[], requests: HttpRequest[], captured: RawStatement[][]) {
  const byKey = new Map(requests.map((r, i) => [keyOf(r), captured[i]]));
  for (const s of scenarios.filter(isReplay)) for (const i of s.inputs) s.replay.set(keyOf(s.request(i)), byKey.get(keyOf(s.request(i)))!);
}

export interface ReadSamples {
  /** Active patients of client A that have readings, with an element each: the chart inputs. */
  charts: Array<{ patientId: number; element: number }>;
  surnamePrefixes: string[];
}

/** Chart inputs: patients spread over client A with their most measured element, plus the year-long patient. */
export async function pickChartSamples(driver: Driver, caller: Caller, heavyPatientId: number | null): Promise<ReadSamples['charts']> {
  const ids = await driver.all<{ id: number }>(
    `SELECT id FROM patients WHERE client_id = $1 AND status = ${PATIENT_STATUS.active} ORDER BY id`,
    [caller.clientId],
  );
  const picked = Array.from({ length: Math.min(30, ids.length) }, (_, k) =>
    Number(ids[Math.floor(((k + 0.5) * ids.length) / Math.min(30, ids.length))].id),
  );
  const out: ReadSamples['charts'] = [];
  for (const patientId of heavyPatientId ? [heavyPatientId, ...picked] : picked) {
    const [row] = await driver.all<{ e: number }>(
      'SELECT clinical_element AS e FROM measurements WHERE patient_id = $1 GROUP BY clinical_element ORDER BY COUNT(*) DESC LIMIT 1',
      [patientId],
    );
    if (row) out.push({ patientId, element: Number(row.e) });
  }
  return out;
}

const ALERT_FILTERS = (prefixes: string[]) => [
  'status=active',
  'status=active&priority=1',
  'status=closed&clinical_element=1',
  'priority=2',
  'status=active&alert_type=0&priority=3',
  'start_at=2026-10-22&end_at=2026-11-21',
  'status=closed&start_at=2026-11-14&end_at=2026-11-21',
  ...prefixes.slice(0, 5).map((p) => `search=${encodeURIComponent(p)}`),
];

export function buildReadScenarios(samples: ReadSamples, connections: number): Array<ReplayScenario<unknown>> {
  const chart: ReplayScenario<ReadSamples['charts'][number]> = {
    id: 'chart-series',
    label: 'Chart series for one patient and element',
    endpoint: 'GET /api/v1/patients/{id}/measurements?clinical_element=<e>&order=asc',
    inputs: samples.charts,
    request: (c) => ({ method: 'GET', path: `/api/v1/patients/${c.patientId}/measurements?clinical_element=${c.element}&order=asc` }),
    work: null as never,
    loadConnections: connections,
    p95TargetMs: 15,
    replay: new Map(),
  };
  const alertsList: ReplayScenario<string> = {
    id: 'alerts-list',
    label: 'Alerts manager list with filters',
    endpoint: 'GET /api/v1/reports/client_alerts_list?<filters>&_start=0&_end=10',
    inputs: ALERT_FILTERS(samples.surnamePrefixes),
    request: (f) => ({ method: 'GET', path: `/api/v1/reports/client_alerts_list?${f}&_start=0&_end=10` }),
    work: null as never,
    loadConnections: connections,
    p95TargetMs: 50,
    replay: new Map(),
  };
  const metrics: ReplayScenario<number> = {
    id: 'dashboard-metrics',
    label: 'Dashboard counts (alerts by priority in the period, open alerts)',
    endpoint: 'GET /api/v1/reports/client_alerts_metrics?start_at=&end_at=',
    inputs: [30, 7, 0],
    request: (days) => {
      const day = (d: number) => new Date(Date.UTC(2026, 10, 21) - d * 86_400_000).toISOString().slice(0, 10);
      return { method: 'GET', path: `/api/v1/reports/client_alerts_metrics?start_at=${day(days)}&end_at=${day(0)}` };
    },
    work: null as never,
    loadConnections: connections,
    p95TargetMs: 50,
    replay: new Map(),
    apiOutcome: (_h, body) => {
      const b = body as { by_priority: Record<string, number>; open: number };
      return { total: b.open, ids: [b.by_priority.high, b.by_priority.medium, b.by_priority.low] };
    },
    baselineOutcome: (results) => {
      // One row with a count per priority: p1 (high), p2 (medium), p3 (low).
      const perPriority = results.find((r) => /\bAS p1\b/i.test(r.sql))?.rows[0] ?? {};
      const by = (p: number) => Number((perPriority as Record<string, unknown>)[`p${p}`] ?? 0);
      const open = results.find((r) => COUNT_SQL.test(r.sql));
      return { total: open ? Number(Object.values(open.rows[0])[0]) : null, ids: [by(1), by(2), by(3)] };
    },
  };
  const openCount: ReplayScenario<string> = {
    id: 'alerts-count',
    label: 'Dashboard counts (open / closed alerts badge)',
    endpoint: 'GET /api/v1/reports/client_alerts_count?status=',
    inputs: ['active', 'closed'],
    request: (st) => ({ method: 'GET', path: `/api/v1/reports/client_alerts_count?status=${st}` }),
    work: null as never,
    loadConnections: connections,
    p95TargetMs: 50,
    replay: new Map(),
    apiOutcome: (_h, body) => ({ total: (body as { total: number }).total, ids: [] }),
    baselineOutcome: (results) => ({ total: Number(Object.values(results.find((r) => COUNT_SQL.test(r.sql))!.rows[0])[0]), ids: [] }),
  };
  // Issue 21: the first page of 'Priorización' at each page size (an index walk of the summaries), and the indicators' 12 rows.
  const triage: ReplayScenario<number> = {
    id: 'triage-first-page',
    label: 'Priorización first page (ranked by score)',
    endpoint: 'GET /api/v1/triage?_start=0&_end=<20|50|100>',
    inputs: [20, 50, 100],
    request: (size) => ({ method: 'GET', path: `/api/v1/triage?_start=0&_end=${size}` }),
    work: null as never,
    loadConnections: connections,
    p95TargetMs: 50,
    replay: new Map(),
    baselineOutcome: (results) => {
      const count = results.find((r) => COUNT_SQL.test(r.sql));
      const page = results.find((r) => /FROM\s+triage_summaries\b/i.test(r.sql) && /\bLIMIT\b/i.test(r.sql));
      return { total: count ? Number(Object.values(count.rows[0])[0]) : null, ids: (page?.rows ?? []).map((r) => Number(r.patient_id)) };
    },
  };
  const indicators: ReplayScenario<null> = {
    id: 'indicators',
    label: 'Programme indicators (12 months)',
    endpoint: 'GET /api/v1/reports/indicators',
    inputs: [null],
    request: () => ({ method: 'GET', path: '/api/v1/reports/indicators' }),
    work: null as never,
    loadConnections: connections,
    p95TargetMs: 50,
    replay: new Map(),
    apiOutcome: (_h, body) => ({ total: (body as { months: unknown[] }).months.length, ids: [] }),
    baselineOutcome: (results) => ({ total: results.find((r) => /FROM\s+indicator_months\b/i.test(r.sql))?.rows.length ?? null, ids: [] }),
  };
  const all: Array<ReplayScenario<unknown>> = [chart, alertsList, metrics, openCount, triage, indicators];
  for (const s of all) s.work = replayWork(s);
  return all;
}
