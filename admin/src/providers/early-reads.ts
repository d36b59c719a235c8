import { readToken } from '../session';
import { cleanQuery } from './query';
import { canTakeEarlyRead, earlyReadKey, type EarlyRead } from './early-reads.rules';

/**
 * Reads started with the entry (route-preload.ts), held until the client that makes the same GET
 * takes the answer (http.ts for the data provider, api.ts for the session calls). Only answers
 * 2xx are handed over: a failed or refused early read is forgotten and the client asks again, so
 * its errors, its 401 handling and its notices are those of any read.
 */
export interface EarlyAnswer {
  status: number;
  /** Header names in lower case, as fetch gives them. */
  headers: Record<string, string>;
  text: string;
}

const reads = new Map<string, EarlyRead & { answer: Promise<EarlyAnswer | null> }>();

const keyOf = (url: string) => earlyReadKey(url, window.location.href);

/** A GET's URL with its query (values as the data provider sends them: empty ones left out, cleanQuery). */
export function urlWithQuery(url: string, query: Record<string, unknown> | undefined): string {
  const entries = Object.entries(cleanQuery(query));
  return entries.length ? `${url}?${new URLSearchParams(entries.map(([k, v]) => [k, String(v)])).toString()}` : url;
}

/** Starts a GET of the signed-in session now; nothing without a session or if it is already on its way. */
export function startEarlyRead(url: string): void {
  const token = readToken();
  const key = keyOf(url);
  if (!token || !key || reads.has(key)) return;
  const answer = fetch(url, { headers: { Accept: 'application/json', Authorization: `Bearer ${token}` } })
    .then(async (response) => ({
      status: response.status,
      headers: Object.fromEntries(response.headers.entries()),
      text: await response.text(),
    }))
    .catch(() => null);
  reads.set(key, { token, startedAt: Date.now(), answer });
}

/**
 * The answer of the early read of this GET, taken once: null when there is none for this session
 * or it is stale (make the request), or a promise of the answer that resolves to null if the early
 * read failed or was refused (make the request then).
 */
export function takeEarlyRead(url: string): Promise<EarlyAnswer | null> | null {
  const key = keyOf(url);
  const read = key ? reads.get(key) : undefined;
  if (!key || !read) return null;
  reads.delete(key);
  if (!canTakeEarlyRead(read, readToken(), Date.now())) return null;
  return read.answer.then((a) => (a && a.status >= 200 && a.status < 300 ? a : null));
}
