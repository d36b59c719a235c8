import type { Request, Response } from 'express';
import { Op, Sequelize, type OrderItem, type WhereOptions } from 'sequelize';
import { badRequest } from './errors.js';
import { PERIOD_MESSAGE, periodOf } from './list-periods.rules.js';

/**
 * The list parameters every paged list reads (D3): `@refinedev/simple-rest`'s conventions, so its
 * stock data provider works unmodified, plus `page`/`per_page` (02 §7):
 * - `_start`/`_end` (end exclusive), or `page`/`per_page` (page from 1), at most 100 rows;
 * - `_sort=a,b&_order=asc,desc`, one or more fields;
 * - `field=value` (`id=1&id=2` for getMany), `field_ne`, `field_gte`, `field_lte`, `field_like`
 *   (case-insensitive 'contains'; on a date, the period its beginning names: list-periods.rules.ts);
 * - `q`, the list's own free-text search.
 * A list names its fields in a whitelist (API field → SQL column): column names come only from it,
 * values are always bound parameters. The contract declares each parameter (openapi.yaml), so the
 * validator has already refused an undeclared one with a 400 naming it, and coerced each value.
 */

export type FieldKind = 'integer' | 'number' | 'text' | 'enum' | 'boolean' | 'date' | 'datetime';
export type FilterOperator = 'eq' | 'ne' | 'gte' | 'lte' | 'like';

/** One field a list sorts or filters by. */
export interface ListField {
  /** The SQL column (a Sequelize attribute for model lists, `alias.column` for raw SQL). */
  column: string;
  kind: FieldKind;
  /** Listed in the contract's `_sort`. */
  sort?: boolean;
  /** Operators other than the kind's (e.g. none where a handler keeps its own `field=` meaning). */
  operators?: FilterOperator[];
}

export type ListFields = Readonly<Record<string, ListField>>;

/** The operators each kind of field answers (the contract declares the same parameters). */
export const OPERATORS: Record<FieldKind, FilterOperator[]> = {
  integer: ['eq', 'ne', 'gte', 'lte'],
  number: ['eq', 'ne', 'gte', 'lte'],
  date: ['eq', 'ne', 'gte', 'lte', 'like'],
  datetime: ['gte', 'lte', 'like'],
  text: ['eq', 'ne', 'like'],
  enum: ['eq', 'ne'],
  boolean: ['eq', 'ne'],
};

/**
 * A condition on a whitelisted column; `in` is `eq` with several values, `lt` a date-only `lte` on a
 * date-time, `period` a `like` on a date ({from, to}: from included, to excluded).
 */
export interface ListFilter {
  column: string;
  op: FilterOperator | 'in' | 'lt' | 'period';
  value: unknown;
}

export interface ListSort {
  column: string;
  order: 'ASC' | 'DESC';
}

export interface ListParams {
  offset: number;
  limit: number;
  /** The first `_sort` field as sent (lists without a whitelist check it against their own set). */
  sort: string | null;
  order: 'ASC' | 'DESC';
  q: string | null;
  /** Every `_sort` field, as whitelisted columns (lists with a whitelist only). */
  sorts: ListSort[];
  filters: ListFilter[];
}

const MAX_PAGE = 100;

type Query = Record<string, unknown>;

/** A comma list sent as one value (`name,id`) or already split by the validator (`explode: false`). */
const listOf = (v: unknown): string[] =>
  v == null ? [] : (Array.isArray(v) ? v.map(String) : String(v).split(',')).map((s) => s.trim()).filter(Boolean);

const direction = (v: string | undefined): 'ASC' | 'DESC' => (String(v ?? 'asc').toUpperCase() === 'DESC' ? 'DESC' : 'ASC');

function window(query: Query, defaultLimit: number): { offset: number; limit: number } {
  if (query.page != null || query.per_page != null) {
    const perPage = Math.min(MAX_PAGE, Math.max(1, Number(query.per_page ?? defaultLimit) || defaultLimit));
    const page = Math.max(1, Number(query.page ?? 1) || 1);
    return { offset: (page - 1) * perPage, limit: perPage };
  }
  const offset = Math.max(0, Number(query._start ?? 0) || 0);
  const end = query._end != null ? Number(query._end) : offset + defaultLimit;
  return { offset, limit: Math.max(0, Math.min(MAX_PAGE, end - offset)) };
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

function filterOf(field: ListField, name: string, op: FilterOperator, raw: unknown): ListFilter {
  const values = Array.isArray(raw) ? raw : [raw];
  if (op === 'like' && (field.kind === 'date' || field.kind === 'datetime')) {
    const period = periodOf(String(values[0]), field.kind);
    if (!period) throw badRequest(name, PERIOD_MESSAGE);
    const at = (v: string) => (field.kind === 'datetime' ? new Date(v) : v);
    return { column: field.column, op: 'period', value: { from: at(period.from), to: at(period.to) } };
  }
  if (op === 'eq' && values.length > 1) return { column: field.column, op: 'in', value: values.map((v) => valueOf(field, name, v)) };
  const value = valueOf(field, name, values[0]);
  // A day for a date-time column: from its first instant (gte) up to the next day (lte), UTC.
  if (field.kind === 'datetime' && typeof raw === 'string' && DATE_ONLY.test(raw) && op === 'lte')
    return { column: field.column, op: 'lt', value: new Date((value as Date).getTime() + 86_400_000) };
  return { column: field.column, op, value };
}

function valueOf(field: ListField, name: string, v: unknown): unknown {
  if (field.kind !== 'datetime') return v;
  const at = new Date(DATE_ONLY.test(String(v)) ? `${String(v)}T00:00:00Z` : String(v));
  if (Number.isNaN(at.getTime())) throw badRequest(name, 'La fecha y hora no es válida.');
  return at;
}

/** Reads a list's query; with `fields`, also its `_sort` columns and field filters (see above). */
export function readListParams(req: Pick<Request, 'query'> | { query: object }, defaultLimit = 20, fields?: ListFields): ListParams {
  const query = req.query as Query;
  const { offset, limit } = window(query, defaultLimit);
  const q = typeof query.q === 'string' && query.q.trim() ? query.q.trim() : null;
  const names = listOf(query._sort);
  const orders = listOf(query._order);
  const p: ListParams = {
    offset,
    limit,
    sort: names[0] ?? null,
    order: direction(orders[0]),
    q,
    sorts: [],
    filters: [],
  };
  if (!fields) return p;
  p.sorts = names.map((name, i) => {
    const field = Object.hasOwn(fields, name) ? fields[name] : undefined;
    if (!field?.sort) throw badRequest('_sort', `No se puede ordenar por '${name}'.`);
    return { column: field.column, order: direction(orders[i] ?? orders[0]) };
  });
  for (const [key, raw] of Object.entries(query)) {
    if (raw === undefined) continue;
    const m = /^(.+)_(ne|gte|lte|like)$/.exec(key);
    const [name, op] = m && Object.hasOwn(fields, m[1]) ? [m[1], m[2] as FilterOperator] : [key, 'eq' as const];
    const field = Object.hasOwn(fields, name) ? fields[name] : undefined;
    if (!field || !(field.operators ?? OPERATORS[field.kind]).includes(op)) continue;
    p.filters.push(filterOf(field, key, op, raw));
  }
  // getMany (`id=1&id=2...`) answers every id asked for when no page was asked for.
  const ids = p.filters.find((f) => f.op === 'in' && f.column === fields.id?.column);
  if (ids && query._end == null && query.per_page == null) p.limit = Math.min(MAX_PAGE, Math.max(p.limit, (ids.value as unknown[]).length));
  return p;
}

/** Text without LIKE's wildcards, so a typed `%` or `_` is no pattern. */
export const likeSafe = (v: unknown) => String(v).replace(/[%_\\]/g, '');

/** `%text%` for a case-insensitive LIKE: lower case, without the LIKE wildcards (as `q`). */
const containsPattern = (v: unknown) => `%${likeSafe(String(v).toLowerCase())}%`;

/**
 * The filters as SQL conditions for a raw query: the columns are the whitelist's, each value a
 * named parameter (`:lf0`...) added to `params`.
 */
export function filterSql(filters: ListFilter[], params: Record<string, unknown>): string[] {
  return filters.map((f, i) => {
    const name = `lf${i}`;
    params[name] = f.op === 'like' ? containsPattern(f.value) : f.value;
    switch (f.op) {
      case 'period':
        params[name] = (f.value as { from: unknown }).from;
        params[`${name}to`] = (f.value as { to: unknown }).to;
        return `${f.column} >= :${name} AND ${f.column} < :${name}to`;
      case 'in':
        return `${f.column} IN (:${name})`;
      case 'ne':
        return `(${f.column} IS NULL OR ${f.column} <> :${name})`;
      case 'gte':
        return `${f.column} >= :${name}`;
      case 'lte':
        return `${f.column} <= :${name}`;
      case 'lt':
        return `${f.column} < :${name}`;
      case 'like':
        return `LOWER(${f.column}) LIKE :${name}`;
      default:
        return `${f.column} = :${name}`;
    }
  });
}

/** The filters as Sequelize conditions on a model's attributes, for `[Op.and]`. */
export function filterWhere(filters: ListFilter[]): WhereOptions[] {
  return filters.map((f): WhereOptions => {
    switch (f.op) {
      case 'period': {
        const { from, to } = f.value as { from: unknown; to: unknown };
        return { [f.column]: { [Op.gte]: from, [Op.lt]: to } };
      }
      case 'in':
        return { [f.column]: { [Op.in]: f.value } };
      case 'ne':
        return { [Op.or]: [{ [f.column]: null }, { [f.column]: { [Op.ne]: f.value } }] };
      case 'gte':
        return { [f.column]: { [Op.gte]: f.value } };
      case 'lte':
        return { [f.column]: { [Op.lte]: f.value } };
      case 'lt':
        return { [f.column]: { [Op.lt]: f.value } };
      case 'like':
        return Sequelize.where(Sequelize.fn('LOWER', Sequelize.col(f.column)), { [Op.like]: containsPattern(f.value) });
      default:
        return { [f.column]: f.value };
    }
  });
}

/** ORDER BY for a raw query: the `_sort` columns, else `fallback`, then the tie-breaker. */
export function sortSql(p: ListParams, fallback: string, tieBreaker: string): string {
  const sorts = p.sorts.map((s) => `${s.column} ${s.order}`);
  return [...(sorts.length ? sorts : [fallback]), tieBreaker].join(', ');
}

/** Sequelize `order`: the `_sort` columns, else `fallback`, then the tie-breaker. */
export function sortOrder(p: ListParams, fallback: OrderItem[], tieBreaker: OrderItem): OrderItem[] {
  return [...(p.sorts.length ? p.sorts.map((s): OrderItem => [s.column, s.order]) : fallback), tieBreaker];
}

export function sendList<T>(res: Response, rows: T[], total: number): void {
  res.setHeader('X-Total-Count', String(total));
  res.json(rows);
}
