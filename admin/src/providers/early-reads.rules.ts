/**
 * Issue 52: the reads a page opened directly (a bookmark, a notification's link, a reload) will make
 * first leave with the entry, beside the loading of its files, instead of after the shell and the
 * page have rendered (a trace of the patient page: `GET /me` left at 1.6 s, the patient's reads at
 * 1.8 s). The client that later makes the same GET takes the answer already on its way. These are
 * the rules of that hand-over; early-reads.ts keeps the reads.
 */

/** An early read's answer is taken within this long of its start, or read again (a page left open). */
export const EARLY_READ_FRESH_MS = 15_000;

/**
 * The key of a GET: the URL with its query parameters sorted, so the entry's own URL and the one
 * axios builds from `params` (in the screen's order) meet. A URL that cannot be parsed has no key.
 */
export function earlyReadKey(url: string, base = 'http://localhost'): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url, base);
  } catch {
    return null;
  }
  const query = [...parsed.searchParams.entries()].sort(([a, x], [b, y]) => (a === b ? (x < y ? -1 : x > y ? 1 : 0) : a < b ? -1 : 1));
  return `${parsed.origin}${parsed.pathname}${query.length ? `?${new URLSearchParams(query).toString()}` : ''}`;
}

/** What an early read held when a client asks for the same GET. */
export interface EarlyRead {
  /** The session token it was made with. */
  token: string;
  startedAt: number;
}

/**
 * Whether a client's GET can take the early read: made with the same session (a sign-out and a
 * sign-in in between change it) and still fresh. Each early read is taken once at most; the
 * store forgets it when taken.
 */
export function canTakeEarlyRead(read: EarlyRead | undefined, token: string | null, now: number): boolean {
  return !!read && !!token && read.token === token && now - read.startedAt >= 0 && now - read.startedAt <= EARLY_READ_FRESH_MS;
}
