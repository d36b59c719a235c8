import type { Sequelize } from 'sequelize';
import { BACKGROUND, select } from '../../db/sql.js';
import { dateConditions, decodeCursor, encodeCursor, parseDateParam, parseReference, rowIdsOf } from './fhir.search.rules.js';

/**
 * The SQL pieces every FHIR search shares (issue 37): a WHERE built of conditions whose values are
 * always bound parameters (the SQL text never holds a value), always within the token's
 * organisation (`:clientId`), and the keyset page by row key. fhir.search.ts and its per-area
 * files (fhir.search.care.ts, fhir.search.orders.ts) build on these.
 */

export type Json = Record<string, unknown>;

export interface SearchDeps {
  sequelize: Sequelize;
  /** A Bulk export's reads: background work, which on SQLite never queues ahead of a request's reads. */
  background?: boolean;
}

/** Every read of a search goes through here, so an export's run on the background connection. */
export function readRows<T extends object>(deps: SearchDeps, sql: string, values: Record<string, unknown>): Promise<T[]> {
  return select<T>(deps.sequelize, sql, values, deps.background ? BACKGROUND : undefined);
}

/** One page of a search: the resources in order, the cursor of the next page (null: last page), the total when known. */
export interface Page {
  resources: Json[];
  next: string | null;
  total: number | null;
}

export interface SearchInput {
  params: Map<string, string[]>;
  count: number;
  /** `_summary=count`: the total only. */
  summaryCount: boolean;
  /** `_total=accurate`, or `_summary=count`: count even when it costs a second query. */
  wantTotal: boolean;
  /**
   * A Bulk export of one Group (a tag): the types of the Patient compartment keep only the rows of
   * the tag's patients, Patient only those patients, Group only that group.
   */
  groupId?: number | null;
  /**
   * A Patient- or Group-level Bulk export: the patients' compartment only, so a type that may stand
   * apart from any patient (a gateway not yet assigned, a multipatient one) keeps only the rows of one.
   */
  compartment?: boolean;
}

export interface Where {
  sql: string[];
  values: Record<string, unknown>;
  n: number;
}
export const where = (clientId: number): Where => ({ sql: [], values: { clientId }, n: 0 });

/** A fresh replacement name for a value: the SQL text never holds a value. */
export function bind(w: Where, value: unknown): string {
  const name = `v${w.n++}`;
  w.values[name] = value;
  return `:${name}`;
}

export const likeEscape = (s: string) => s.replace(/[\\%_]/g, '\\$&');

/** A DATEONLY as 'YYYY-MM-DD' on both dialects (node-postgres may hand a local-midnight Date). */
export function dayOf(v: unknown): string {
  if (v instanceof Date) return `${v.getFullYear()}-${String(v.getMonth() + 1).padStart(2, '0')}-${String(v.getDate()).padStart(2, '0')}`;
  return String(v).slice(0, 10);
}

export async function countOf(deps: SearchDeps, from: string, w: Where): Promise<number> {
  const [row] = await readRows<{ n: number | string }>(deps, `SELECT COUNT(*) AS n ${from} WHERE ${w.sql.join(' AND ')}`, w.values);
  return Number(row.n);
}

/** `patient` / `subject` (comma lists, repeated: all must hold) as a condition on a patient_id column. */
export function patientConditions(w: Where, column: string, params: Map<string, string[]>, names: string[]): void {
  for (const name of names)
    for (const raw of params.get(name) ?? []) {
      const ids = raw.split(',').map((v) => parseReference(name, v));
      w.sql.push(`${column} IN (${ids.map((id) => bind(w, id)).join(', ')})`);
    }
}

/** `_id` (comma lists of `<letter><number>`, repeated: all must hold) on the row id column. */
export function idConditions(w: Where, column: string, letter: string, params: Map<string, string[]>): void {
  for (const raw of params.get('_id') ?? []) {
    const ids = rowIdsOf(letter, raw);
    w.sql.push(ids.length ? `${column} IN (${ids.map((id) => bind(w, id)).join(', ')})` : '1 = 0');
  }
}

/** A date parameter (`_lastUpdated`, `identified`…; repeated for a range) on a timestamp column or expression. */
export function dateParamConditions(w: Where, column: string, name: string, params: Map<string, string[]>): void {
  for (const raw of params.get(name) ?? [])
    for (const c of dateConditions(parseDateParam(name, raw))) w.sql.push(`${column} ${c.op} ${bind(w, c.at)}`);
}

/** The group restriction: only rows of patients tagged with the group's tag, a tag of this organisation. */
export function groupCondition(w: Where, patientColumn: string, groupId: number | null | undefined): void {
  if (groupId == null) return;
  w.sql.push(
    `${patientColumn} IN (SELECT gpt.patient_id FROM patient_tags gpt JOIN tags gt ON gt.id = gpt.tag_id
      WHERE gpt.tag_id = ${bind(w, groupId)} AND gt.client_id = :clientId)`,
  );
}

/**
 * A search whose keyset is the row key alone, one column (the id) or several (RelatedPerson's
 * patient and caregiver): the indexes that start with client_id or patient_id find the rows, the
 * key orders them, and the cursor carries the last row's key, so any page costs what the first does.
 */
export async function searchById<R extends object>(
  deps: SearchDeps,
  input: SearchInput,
  q: {
    cursorName: string;
    select: string;
    from: string;
    idColumn: string | readonly string[];
    /** The row's key in idColumn's order; the default is `Number(row.id)`. */
    keyOf?: (row: R) => number[];
    where: Where;
    map: (rows: R[]) => Promise<Json[]>;
  },
): Promise<Page> {
  const w = q.where;
  const columns = typeof q.idColumn === 'string' ? [q.idColumn] : q.idColumn;
  const keyOf = q.keyOf ?? ((r: R) => [Number((r as { id: unknown }).id)]);
  const total = input.wantTotal ? await countOf(deps, q.from, w) : null;
  if (input.summaryCount || input.count === 0) return { resources: [], next: null, total };
  const cursor = input.params.get('_cursor')?.at(-1);
  if (cursor !== undefined) {
    const key = decodeCursor(
      cursor,
      q.cursorName,
      columns.map(() => 'number' as const),
    );
    const after = key.map((k) => bind(w, k));
    w.sql.push(columns.length === 1 ? `${columns[0]} > ${after[0]}` : `(${columns.join(', ')}) > (${after.join(', ')})`);
  }
  const rows = await readRows<R>(
    deps,
    `${q.select} ${q.from} WHERE ${w.sql.join(' AND ')} ORDER BY ${columns.join(', ')} LIMIT ${bind(w, input.count + 1)}`,
    w.values,
  );
  const more = rows.length > input.count;
  const page = rows.slice(0, input.count);
  return {
    resources: await q.map(page),
    next: more ? encodeCursor(q.cursorName, keyOf(page.at(-1)!)) : null,
    total: total ?? (cursor === undefined && !more ? page.length : null),
  };
}
