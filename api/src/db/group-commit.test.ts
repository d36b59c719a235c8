import { describe, expect, it } from 'vitest';
import { GroupCommit } from './group-commit.js';

/** A flush that records its groups and fails for any group holding a 'bad' item. */
function recorder() {
  const groups: string[][] = [];
  let release: (() => void) | null = null;
  const gate = () => new Promise<void>((r) => (release = r));
  let gated = false;
  const flush = async (items: string[]) => {
    groups.push(items);
    if (gated) await gate();
    if (items.includes('bad')) throw new Error(`fallo ${items.join(',')}`);
    return items.map((i) => i.toUpperCase());
  };
  return {
    groups,
    flush,
    hold: () => (gated = true),
    open: () => {
      gated = false;
      release?.();
    },
  };
}

describe('GroupCommit', () => {
  it.each([
    { name: 'one item alone is flushed at once', items: ['a'], maxSize: 10, groups: [['a']] },
    {
      name: 'items that arrive during a flush go together into the next',
      items: ['a', 'b', 'c', 'd'],
      maxSize: 10,
      groups: [['a'], ['b', 'c', 'd']],
    },
    { name: 'a group stops at maxSize', items: ['a', 'b', 'c', 'd', 'e'], maxSize: 2, groups: [['a'], ['b', 'c'], ['d', 'e']] },
  ])('$name', async ({ items, maxSize, groups: expected }) => {
    const r = recorder();
    const gc = new GroupCommit(r.flush, { maxSize });
    r.hold();
    const first = gc.submit(items[0]);
    const rest = items.slice(1).map((i) => gc.submit(i));
    expect(gc.waiting).toBe(items.length - 1);
    r.open();
    expect(await Promise.all([first, ...rest])).toEqual(items.map((i) => i.toUpperCase()));
    expect(r.groups).toEqual(expected);
  });

  it('a failing group is retried item by item: only the bad item fails', async () => {
    const r = recorder();
    const gc = new GroupCommit(r.flush);
    r.hold();
    const first = gc.submit('a');
    const others = ['b', 'bad', 'c'].map((i) =>
      gc.submit(i).then(
        (v) => ({ ok: v }),
        (e: Error) => ({ error: e.message }),
      ),
    );
    r.open();
    await first;
    expect(await Promise.all(others)).toEqual([{ ok: 'B' }, { error: 'fallo bad' }, { ok: 'C' }]);
    expect(r.groups).toEqual([['a'], ['b', 'bad', 'c'], ['b'], ['bad'], ['c']]);
  });

  it('starts the next group before answering the finished one', async () => {
    const events: string[] = [];
    let release: (() => void) | null = null;
    const gc = new GroupCommit(async (items: string[]) => {
      // A real flush first waits its turn in the writer queue: one hop later.
      await null;
      events.push(`flush ${items.join(',')}`);
      if (items[0] === 'a') await new Promise<void>((r) => (release = r));
      return items;
    });
    const first = gc.submit('a').then(() => events.push('answered a'));
    const rest = [gc.submit('b'), gc.submit('c')];
    await new Promise((r) => setImmediate(r));
    release!();
    await Promise.all([first, ...rest]);
    expect(events).toEqual(['flush a', 'flush b,c', 'answered a']);
  });

  it('an item larger than maxSize still goes, alone', async () => {
    const r = recorder();
    const gc = new GroupCommit(r.flush, { maxSize: 3, sizeOf: (s: string) => s.length });
    r.hold();
    const p = [gc.submit('a'), gc.submit('bbbbb'), gc.submit('c')];
    r.open();
    await Promise.all(p);
    expect(r.groups).toEqual([['a'], ['bbbbb'], ['c']]);
  });

  it('with a spacing, items that keep arriving wait for the next slot and go together', async () => {
    const starts: Array<{ at: number; items: string[] }> = [];
    const gc = new GroupCommit(
      async (items: string[]) => {
        starts.push({ at: Date.now(), items });
        return items;
      },
      { spacingMs: 40 },
    );
    const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
    const first = gc.submit('a');
    await sleep(5);
    const b = gc.submit('b');
    await sleep(10);
    const c = gc.submit('c');
    expect(await Promise.all([first, b, c])).toEqual(['a', 'b', 'c']);
    expect(starts.map((s) => s.items)).toEqual([['a'], ['b', 'c']]);
    // A timer may fire a millisecond early by Date.now()'s rounding.
    expect(starts[1].at - starts[0].at).toBeGreaterThanOrEqual(39);
    // Quiet again: the next item goes at once.
    await sleep(60);
    const before = Date.now();
    await gc.submit('d');
    expect(starts[2]).toEqual({ at: expect.any(Number), items: ['d'] });
    expect(starts[2].at - before).toBeLessThan(20);
  });

  it('flushPending writes what waits for its slot at once, and resolves when nothing is left', async () => {
    const starts: string[][] = [];
    const gc = new GroupCommit(
      async (items: string[]) => {
        starts.push(items);
        return items;
      },
      { spacingMs: 60_000 },
    );
    const first = gc.submit('a');
    await first;
    const rest = [gc.submit('b'), gc.submit('c')];
    await new Promise((r) => setImmediate(r));
    expect(starts).toEqual([['a']]);
    await gc.flushPending();
    expect(starts).toEqual([['a'], ['b', 'c']]);
    expect(await Promise.all(rest)).toEqual(['b', 'c']);
    await gc.flushPending();
  });

  describe('with keys, several groups in flight', () => {
    /** Items 'k:name:size': key k, size; every flush waits until released, so what starts together shows. */
    function keyed(opts: { concurrency: number; minSizeBeside?: number; maxSize?: number }) {
      const started: string[][] = [];
      const releases: Array<() => void> = [];
      const gc = new GroupCommit(
        async (items: string[]) => {
          started.push(items);
          await new Promise<void>((r) => releases.push(r));
          return items;
        },
        {
          ...opts,
          keysOf: (i: string) => i.split(':')[0].split('+'),
          sizeOf: (i: string) => Number(i.split(':')[2] ?? 1),
        },
      );
      return { gc, started, releaseFirst: () => releases.shift()?.() };
    }
    const tick = () => new Promise((r) => setImmediate(r));

    it.each([
      {
        name: 'items of other keys start beside the group in flight',
        concurrency: 3,
        items: ['1:a', '2:b', '3:c'],
        startedAtOnce: [['1:a'], ['2:b'], ['3:c']],
      },
      {
        name: 'an item of a key in flight waits, and so do later items of that key',
        concurrency: 3,
        items: ['1:a', '1:b', '2:c', '1:d'],
        startedAtOnce: [['1:a'], ['2:c']],
      },
      {
        name: 'an item that waits holds every key it writes for',
        concurrency: 3,
        items: ['1:a', '1+2:b', '2:c', '3:d'],
        startedAtOnce: [['1:a'], ['3:d']],
      },
      {
        name: 'no more groups than the concurrency',
        concurrency: 2,
        items: ['1:a', '2:b', '3:c', '4:d'],
        startedAtOnce: [['1:a'], ['2:b']],
      },
      {
        name: 'beside a group in flight only a group of minSizeBeside',
        concurrency: 3,
        minSizeBeside: 100,
        items: ['1:a:1', '2:b:1', '3:c:1', '4:d:100'],
        startedAtOnce: [['1:a:1'], ['2:b:1', '3:c:1', '4:d:100']],
      },
      {
        name: 'small items wait for the group in flight and go together',
        concurrency: 3,
        minSizeBeside: 100,
        items: ['1:a:1', '2:b:1', '3:c:1'],
        startedAtOnce: [['1:a:1']],
      },
    ])('$name', async ({ items, startedAtOnce, ...opts }) => {
      const k = keyed(opts);
      const answers = items.map((i) => k.gc.submit(i));
      await tick();
      expect(k.started).toEqual(startedAtOnce);
      // Released one group at a time, every item goes through once, in its key's order.
      let settled = false;
      const all = Promise.all(answers).then(() => (settled = true));
      while (!settled) {
        k.releaseFirst();
        await tick();
      }
      await all;
      expect(await Promise.all(answers)).toEqual(items);
      const order = k.started.flat();
      expect([...order].sort()).toEqual([...items].sort());
      for (const key of new Set(items.map((i) => i.split(':')[0]))) {
        const ofKey = (list: string[]) =>
          list.filter((i) =>
            i
              .split(':')[0]
              .split('+')
              .some((x) => key.split('+').includes(x)),
          );
        expect(ofKey(order)).toEqual(ofKey(items));
      }
    });
  });
});
