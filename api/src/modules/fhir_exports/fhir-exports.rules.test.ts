import { describe, expect, it } from 'vitest';
import { EXPORT_MAX_PAUSE_MS, pauseAfterPage } from './fhir-exports.rules';

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
