import { describe, expect, it } from 'vitest';
import { earlyReadKey } from '../providers/early-reads.rules';
import { urlWithQuery } from '../providers/early-reads';
import { API_URL } from '../constants';
import { signsReads } from './measurement-reads';
import { signsReadPaths } from './signs-reads';

describe("signsReadPaths: the Signos tab's reads as the page's early start makes them", () => {
  it.each([1, 42, 100_000])('are the reads its cards make, one for one (patient %i)', (id) => {
    const early = signsReadPaths(id).map((r) => earlyReadKey(urlWithQuery(`${API_URL}${r.path}`, r.query)));
    const cards = signsReads(id).map((r) => earlyReadKey(urlWithQuery(r.url, r.query as Record<string, unknown>)));
    expect(early).toEqual(cards);
    expect(new Set(early).size).toBe(early.length);
    expect(early.length).toBeGreaterThanOrEqual(14);
  });
});
