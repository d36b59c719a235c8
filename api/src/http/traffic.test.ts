import { describe, expect, it } from 'vitest';
import { recentRequests } from './traffic';

describe('recentRequests: requests over about the last window', () => {
  it.each([
    {
      why: 'the first call has nothing to count against',
      calls: [[0, 10]],
      last: { requests: 0, overMs: 0 },
    },
    {
      why: '200 a second, sampled every 5 ms: counted over the last second once a second has passed',
      calls: Array.from({ length: 401 }, (_, k) => [k * 5, k]),
      last: { requests: 200, overMs: 1000 },
    },
    {
      why: 'before a second has passed: since the first sample',
      calls: [
        [0, 0],
        [300, 60],
        [600, 120],
      ],
      last: { requests: 120, overMs: 600 },
    },
    {
      why: 'samples far apart: since the newest one at least a second old',
      calls: [
        [0, 0],
        [900, 3],
        [1800, 4],
        [2300, 104],
      ],
      last: { requests: 101, overMs: 1400 },
    },
    {
      why: 'after a second or more without a sample (the work idle): it starts again',
      calls: [
        [0, 0],
        [500, 3],
        [4000, 400],
      ],
      last: { requests: 0, overMs: 0 },
    },
    {
      why: 'and counts from there',
      calls: [
        [0, 0],
        [4000, 400],
        [4600, 460],
      ],
      last: { requests: 60, overMs: 600 },
    },
    {
      why: 'the counter wrapped at 2^32',
      calls: [
        [0, 2 ** 32 - 5],
        [900, 5],
      ],
      last: { requests: 10, overMs: 900 },
    },
  ])('$why', ({ calls, last }) => {
    let count = 0;
    const recent = recentRequests(() => count, 1000);
    let answer = { requests: -1, overMs: -1 };
    for (const [at, c] of calls) {
      count = c;
      answer = recent(at);
    }
    expect(answer).toEqual(last);
  });
});
