/**
 * What the benchmark loads: each scenario names an endpoint, the requests sent to it (cycling
 * through inputs drawn from the data set), its baseline (the API's own SQL replayed, replay.ts, or a
 * mirror written by hand, queries.ts) and the target where one applies.
 */
import { toSearchKey } from '@vigia/contract/rules/names';
import type { Driver } from './driver.js';
import type { HttpRequest } from './load.js';
import * as queries from './queries.js';
import { replayWork, type ReplayScenario } from './replay.js';

/** Scenarios of different inputs share a list as `Scenario` (the methods below are bivariant in I). */
export interface Scenario<I = unknown> {
  id: string;
  label: string;
  endpoint: string;
  /** The values the requests cycle through, shown in the report. */
  inputs: I[];
  request(input: I): HttpRequest;
  work(exec: queries.Exec, input: I): Promise<queries.Outcome>;
  /** Connections for the throughput phase; null for work that is CPU-bound by design. */
  loadConnections: number | null;
  /** The target for p95 at one connection, when it has one. */
  p95TargetMs: number | null;
  /** The target for answers per second at `loadConnections`, when it has one. */
  rpsTarget?: number;
}

export interface Samples {
  patientIds: number[];
  surnamePrefixes: string[];
  fullNames: string[];
  documentPrefixes: string[];
}

export const BENCH_PASSWORD = 'Vigia@2026';
export const benchEmail = (letter: string) => `bench-${letter}@vigia.test`;

/** Evenly spread over the client's patients, so the same data set always gives the same inputs. */
export async function pickSamples(driver: Driver, clientId: number): Promise<Samples> {
  const rows = await driver.all<{ id: number; nid: string; first_name: string; last_name: string }>(
    'SELECT id, nid, first_name, last_name FROM patients WHERE client_id = $1 ORDER BY id',
    [clientId],
  );
  const spread = (n: number) =>
    Array.from({ length: Math.min(n, rows.length) }, (_, k) => rows[Math.floor(((k + 0.5) * rows.length) / Math.min(n, rows.length))]);
  const distinct = (values: string[], n: number) => [...new Set(values)].slice(0, n);
  return {
    patientIds: spread(50).map((r) => Number(r.id)),
    // What staff type: the start of the first surname, in lower case, without accents; a first
    // name and a surname; the start of a document number, short (many matches) or longer (few).
    surnamePrefixes: distinct(
      spread(500).map((r) => toSearchKey(r.last_name).split(' ')[0].slice(0, 4)),
      20,
    ),
    fullNames: distinct(
      spread(500).map((r) => `${toSearchKey(r.first_name).split(' ')[0]} ${toSearchKey(r.last_name).split(' ')[0]}`),
      20,
    ),
    documentPrefixes: distinct(
      spread(500).map((r, i) => r.nid.slice(0, i % 2 ? 7 : 4)),
      20,
    ),
  };
}

export function buildScenarios(samples: Samples, connections: number): Scenario[] {
  // The patient list and searches send different SQL on each database (P193): their baselines
  // replay the API's own statements (replay.ts), one after another.
  const list: ReplayScenario<number> = {
    id: 'patients-list',
    label: 'Patient list page (status=1, first 20)',
    endpoint: 'GET /api/v1/patients?_start=0&_end=20&status=1',
    inputs: [1],
    request: (status) => ({ method: 'GET', path: `/api/v1/patients?_start=0&_end=20&status=${status}` }),
    work: null as never,
    loadConnections: connections,
    p95TargetMs: 30,
    replay: new Map(),
  };
  list.work = replayWork(list);
  const byName: ReplayScenario<string> = {
    id: 'patients-search-name',
    label: 'Search by name (surname prefix)',
    endpoint: 'GET /api/v1/patients?q=<surname prefix>&_start=0&_end=20',
    inputs: samples.surnamePrefixes,
    request: (q) => ({ method: 'GET', path: `/api/v1/patients?q=${encodeURIComponent(q)}&_start=0&_end=20` }),
    work: null as never,
    loadConnections: connections,
    p95TargetMs: 30,
    replay: new Map(),
  };
  const byFullName: ReplayScenario<string> = {
    id: 'patients-search-full-name',
    label: 'Search by name (first name and surname)',
    endpoint: 'GET /api/v1/patients?q=<first name> <surname>&_start=0&_end=20',
    inputs: samples.fullNames,
    request: (q) => ({ method: 'GET', path: `/api/v1/patients?q=${encodeURIComponent(q)}&_start=0&_end=20` }),
    work: null as never,
    loadConnections: connections,
    p95TargetMs: 30,
    replay: new Map(),
  };
  const byDocument: ReplayScenario<string> = {
    id: 'patients-search-document',
    label: 'Search by document (number prefix, 4 or 7 digits)',
    endpoint: 'GET /api/v1/patients?q=<document prefix>',
    inputs: samples.documentPrefixes,
    request: (q) => ({ method: 'GET', path: `/api/v1/patients?q=${encodeURIComponent(q)}` }),
    work: null as never,
    loadConnections: connections,
    p95TargetMs: 30,
    replay: new Map(),
  };
  for (const search of [byName, byFullName, byDocument]) search.work = replayWork(search);
  // The patient page header and the tags list now send more than their queries.ts mirrors did
  // (orders and adherence, open alerts; prompts): their baselines replay the API's own SQL (replay.ts).
  const patientPage: ReplayScenario<number> = {
    id: 'patient-header',
    label: 'Patient page header',
    endpoint: 'GET /api/v1/patients/{id}',
    inputs: samples.patientIds,
    request: (id) => ({ method: 'GET', path: `/api/v1/patients/${id}` }),
    work: null as never,
    loadConnections: connections,
    p95TargetMs: null,
    replay: new Map(),
    baselineOutcome: (results) => {
      const row = results.find((r) => /FROM\s+[`"]?patients[`"]?/i.test(r.sql) && r.rows.length === 1 && 'id' in r.rows[0]);
      return { total: null, ids: row ? [Number(row.rows[0].id)] : [] };
    },
  };
  patientPage.work = replayWork(patientPage);
  // Issue 40, 'catalogue lists no slower': lists the resource engine serves (tags; users with a filter
  // and a two-field sort; the organisation's orders on a tab), each beside its statements replayed on the driver.
  const catalogue = (id: string, label: string, path: string, table: string, p95TargetMs: number | null = null): ReplayScenario<null> => {
    const scenario: ReplayScenario<null> = {
      id,
      label,
      endpoint: `GET ${path.split('?')[0]}`,
      inputs: [null],
      request: () => ({ method: 'GET', path }),
      work: null as never,
      loadConnections: connections,
      p95TargetMs,
      replay: new Map(),
      baselineOutcome: (results) => {
        const count = results.find((r) => /^\s*SELECT\s+count\(/i.test(r.sql));
        const page = results.find((r) => new RegExp(`FROM\\s+[\`"]?${table}[\`"]?`, 'i').test(r.sql) && /\bLIMIT\b/i.test(r.sql));
        return { total: count ? Number(Object.values(count.rows[0])[0]) : null, ids: (page?.rows ?? []).map((r) => Number(r.id)) };
      },
    };
    scenario.work = replayWork(scenario);
    return scenario;
  };
  const tags = catalogue('tags-list', 'Tags list (with patients per tag)', '/api/v1/tags', 'tags');
  const users = catalogue(
    'users-list',
    'Users list on the resource engine (status filter, _sort=last_name,id, page 1)',
    '/api/v1/users?status=0&_sort=last_name,id&_order=asc,desc&_start=0&_end=10',
    'users',
  );
  const orders = catalogue(
    'orders-list',
    "Orders list on the resource engine ('Programadas' tab, _sort=created_at, page 1)",
    '/api/v1/orders?filter=1&_sort=created_at&_order=desc&_start=0&_end=10',
    'orders',
    // Issue 52: the tab's page walks orders (client_id, created_at, id, status), migration 0033.
    15,
  );
  const login = { email: benchEmail('a'), password: BENCH_PASSWORD };
  const signIn: Scenario<typeof login> = {
    id: 'sign-in',
    label: 'Staff sign-in (bcrypt, cost 10)',
    endpoint: 'POST /api/v1/sessions',
    inputs: [login],
    request: (l) => ({ method: 'POST', path: '/api/v1/sessions', body: JSON.stringify(l) }),
    work: (exec, l) => queries.signIn(exec, l),
    loadConnections: null,
    p95TargetMs: null,
  };
  return [list, byName, byFullName, byDocument, patientPage, tags, users, orders, signIn];
}

/** The API's answer reduced to what the baseline also answers: the total and the ids. */
export function readOutcome(headers: Headers, body: unknown): queries.Outcome {
  const total = headers.get('x-total-count');
  const idOf = (o: unknown) => {
    const row = (o ?? {}) as { id?: unknown; user_id?: unknown };
    return Number(row.id ?? row.user_id);
  };
  return {
    total: total == null ? null : Number(total),
    ids: Array.isArray(body) ? body.map(idOf) : [idOf(body)],
  };
}
