import type { Request, Response } from 'express';

export interface ListParams {
  offset: number;
  limit: number;
  sort: string | null;
  order: 'ASC' | 'DESC';
  q: string | null;
}

const MAX_PAGE = 100;

/** simple-rest conventions (D3): `_start`/`_end` (end exclusive), `_sort`, `_order`, `q`. */
export function readListParams(req: Pick<Request, 'query'> | { query: object }, defaultLimit = 20): ListParams {
  const query = req.query as Record<string, unknown>;
  const offset = Number(query._start ?? 0) || 0;
  const end = query._end != null ? Number(query._end) : offset + defaultLimit;
  const limit = Math.max(0, Math.min(MAX_PAGE, end - offset));
  const order = String(query._order ?? 'asc').toUpperCase() === 'DESC' ? 'DESC' : 'ASC';
  const q = typeof query.q === 'string' && query.q.trim() ? query.q.trim() : null;
  return { offset, limit, sort: typeof query._sort === 'string' ? query._sort : null, order, q };
}

export function sendList<T>(res: Response, rows: T[], total: number): void {
  res.setHeader('X-Total-Count', String(total));
  res.json(rows);
}
