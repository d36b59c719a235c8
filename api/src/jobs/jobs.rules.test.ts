import { describe, expect, it } from 'vitest';
import { retryDelayMs } from './jobs.rules.js';

describe('retryDelayMs', () => {
  it.each([
    [1, 30_000],
    [2, 60_000],
    [3, 120_000],
    [6, 960_000],
    [20, 6 * 3600_000],
  ])('after %i attempt(s) waits %i ms', (attempts, ms) => {
    expect(retryDelayMs(attempts)).toBe(ms);
  });
});
