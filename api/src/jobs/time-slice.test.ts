import { describe, expect, it } from 'vitest';
import { timeSlicer } from './time-slice.js';

describe('timeSlicer', () => {
  it.each([
    { why: 'under the slice: no turn', elapsed: [1, 3], turns: [false, false] },
    { why: 'at the slice: a turn', elapsed: [5], turns: [true] },
    { why: 'the slice counts again from the turn', elapsed: [6, 8, 12], turns: [true, false, true] },
  ])('$why', async ({ elapsed, turns }) => {
    let now = 0;
    const slicer = timeSlicer(5, () => now);
    const seen: boolean[] = [];
    for (const t of elapsed) {
      now = t;
      const p = slicer.pause();
      seen.push(p !== undefined);
      await p;
    }
    expect(seen).toEqual(turns);
  });

  it('lets a timer due meanwhile run before the work goes on', async () => {
    let now = 0;
    const slicer = timeSlicer(5, () => now);
    const order: string[] = [];
    setImmediate(() => order.push('request'));
    now = 10;
    await slicer.pause();
    order.push('work');
    expect(order).toEqual(['request', 'work']);
  });
});
