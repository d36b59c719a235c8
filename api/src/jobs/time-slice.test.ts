import { describe, expect, it, vi } from 'vitest';
import { timeSlicer } from './time-slice.js';

describe('timeSlicer', () => {
  it.each([
    { why: 'under the slice: no turn', elapsed: [1, 3], turns: [false, false] },
    { why: 'at the slice: a turn', elapsed: [5], turns: [true] },
    { why: 'the slice counts again from the turn', elapsed: [6, 8, 12], turns: [true, false, true] },
  ])('$why', async ({ elapsed, turns }) => {
    let now = 0;
    const slicer = timeSlicer(5, { clock: () => now });
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
    const slicer = timeSlicer(5, { clock: () => now });
    const order: string[] = [];
    setImmediate(() => order.push('request'));
    now = 10;
    await slicer.pause();
    order.push('work');
    expect(order).toEqual(['request', 'work']);
  });

  it.each([
    { why: 'a quarter: three times the work goes to everything else', share: 0.25, worked: 10, rest: 30 },
    { why: 'a half: as long as the work', share: 0.5, worked: 8, rest: 8 },
  ])('with a share, the turn lasts long enough ($why)', async ({ share, worked, rest }) => {
    vi.useFakeTimers();
    try {
      let now = 0;
      const slicer = timeSlicer(4, { clock: () => now, share });
      now = worked;
      let resumed = false;
      const turn = slicer.pause()!.then(() => (resumed = true));
      await vi.advanceTimersByTimeAsync(rest - 1);
      expect(resumed).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      await turn;
      expect(resumed).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });
});
