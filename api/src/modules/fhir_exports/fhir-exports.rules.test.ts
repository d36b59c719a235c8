import { describe, expect, it } from 'vitest';
import { dateParts, EXPORT_BUSY_PAGE, EXPORT_MAX_PAUSE_MS, EXPORT_PAGE, nextPageSize, pauseAfterPage } from './fhir-exports.rules';

describe('pauseAfterPage: an export gives way to requests', () => {
  it.each([
    // page ms, requests meanwhile, pause ms
    [50, 0, 0],
    // a client polling its exports' status is not traffic to give way to
    [50, 1, 0],
    [50, 2, 0],
    [50, 3, 450],
    [50, 40, 450],
    [10.4, 30, 94],
    [400, 40, EXPORT_MAX_PAUSE_MS],
    // a client polling every 50 ms during slow pages (20 a second) is not either
    [100, 3, 0],
    [400, 20, 0],
    [0, 5, 0],
    [Number.NaN, 5, 0],
    [-3, 5, 0],
  ])('a page of %s ms with %s requests meanwhile pauses %s ms', (pageMs, requests, pause) => {
    expect(pauseAfterPage(pageMs, requests)).toBe(pause);
  });
});

describe("nextPageSize: a part in the API's thread reads small pages while requests come in", () => {
  it.each([
    // paused after the last page, the part's busy page, rows of the next page
    [false, EXPORT_BUSY_PAGE, EXPORT_PAGE],
    [true, EXPORT_BUSY_PAGE, EXPORT_BUSY_PAGE],
    // a part in the worker thread has no busy page: whole pages, busy or not
    [true, undefined, EXPORT_PAGE],
    [false, undefined, EXPORT_PAGE],
  ])('paused %s, busy page %s: %s rows', (paused, busyPage, rows) => {
    expect(nextPageSize(paused, busyPage)).toBe(rows);
  });
  it('the busy page is a tenth of the whole', () => expect(EXPORT_BUSY_PAGE * 10).toBe(EXPORT_PAGE));
});

describe('dateParts: a large type is written in two halves of its time span', () => {
  const at = (iso: string) => new Date(iso);
  it.each([
    // first, last, rows (counted up to splitAt), splitAt, parts
    [
      '2026-01-01T00:00:00.000Z',
      '2026-01-03T00:00:00.000Z',
      50_000,
      50_000,
      [['lt2026-01-02T00:00:00.000Z'], ['ge2026-01-02T00:00:00.000Z']],
    ],
    ['2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.003Z', 10, 1, [['lt2026-01-01T00:00:00.001Z'], ['ge2026-01-01T00:00:00.001Z']]],
    // fewer rows than splitAt: one part
    ['2026-01-01T00:00:00.000Z', '2026-01-03T00:00:00.000Z', 49_999, 50_000, [[]]],
    // every reading at one instant: halves would leave one empty
    ['2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z', 80_000, 50_000, [[]]],
    [null, null, 0, 1, [[]]],
  ])('%s to %s, %s rows, split at %s: %j', (first, last, rows, splitAt, parts) => {
    expect(dateParts(first ? at(first) : null, last ? at(last) : null, rows, splitAt)).toEqual(parts);
  });
});
