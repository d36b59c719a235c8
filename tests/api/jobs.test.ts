import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJobRunner, enqueueJob, JobYielded } from '../../api/src/jobs/queue.js';
import { select } from '../../api/src/db/sql.js';
import { startTestProduct, type TestProduct } from '../support/product.js';

const T0 = new Date('2026-03-01T12:00:00Z');
const at = (ms: number) => new Date(T0.getTime() + ms);
const silent = () => {};

let t: TestProduct;
beforeAll(async () => {
  t = await startTestProduct({ now: () => T0 });
});
afterAll(async () => t?.stop());

async function jobRow(key: string) {
  const [row] = await select<{ status: string; attempts: number; last_error: string | null; run_at: string }>(
    t.sequelize,
    'SELECT status, attempts, last_error, run_at FROM jobs WHERE key = :key',
    { key },
  );
  return row;
}

describe('durable job queue', () => {
  it('runs a due job once, and not a job due later', async () => {
    const seen: unknown[] = [];
    const runner = createJobRunner({ sequelize: t.sequelize, now: () => T0, log: silent });
    runner.register('test.once', async (job) => {
      seen.push(job.payload);
    });
    await runner.enqueue({ kind: 'test.once', payload: { n: 1 }, key: 'once-1' });
    await runner.enqueue({ kind: 'test.once', payload: { n: 2 }, key: 'once-2', runAt: at(60_000) });
    expect(await runner.runDue({ now: T0, kinds: ['test.once'] })).toBe(1);
    expect(await runner.runDue({ now: T0, kinds: ['test.once'] })).toBe(0);
    expect(seen).toEqual([{ n: 1 }]);
    await runner.runDue({ now: at(60_000), kinds: ['test.once'] });
    expect(seen).toEqual([{ n: 1 }, { n: 2 }]);
    expect((await jobRow('once-1')).status).toBe('done');
  });

  it('ignores a second job with the same key', async () => {
    expect(await enqueueJob(t.sequelize, { kind: 'test.key', payload: 1, key: 'dup' }, undefined, T0)).toBe(true);
    expect(await enqueueJob(t.sequelize, { kind: 'test.key', payload: 2, key: 'dup' }, undefined, T0)).toBe(false);
    const rows = await select<{ n: number }>(t.sequelize, "SELECT COUNT(*) AS n FROM jobs WHERE key = 'dup'");
    expect(Number(rows[0].n)).toBe(1);
  });

  it('a job enqueued in a rolled-back transaction never exists', async () => {
    await t.sequelize
      .transaction(async (transaction) => {
        await enqueueJob(t.sequelize, { kind: 'test.tx', payload: null, key: 'rolled-back' }, transaction, T0);
        throw new Error('rollback');
      })
      .catch(() => {});
    expect(await jobRow('rolled-back')).toBeUndefined();
  });

  it('retries a failing job with back-off, then gives up and calls onFailed', async () => {
    let calls = 0;
    const failed: string[] = [];
    const runner = createJobRunner({ sequelize: t.sequelize, now: () => T0, log: silent });
    runner.register('test.flaky', {
      handler: async () => {
        calls++;
        throw new Error('receptor caído');
      },
      onFailed: async (_job, error) => {
        failed.push(error);
      },
    });
    await runner.enqueue({ kind: 'test.flaky', payload: null, key: 'flaky', maxAttempts: 3 });
    await runner.runDue({ now: T0, kinds: ['test.flaky'] });
    let row = await jobRow('flaky');
    expect(row).toMatchObject({ status: 'pending', last_error: 'receptor caído' });
    expect(Number(row.attempts)).toBe(1);
    // Not due again before its back-off (30 s) has passed.
    expect(await runner.runDue({ now: at(29_000), kinds: ['test.flaky'] })).toBe(0);
    expect(await runner.runDue({ now: at(30_000), kinds: ['test.flaky'] })).toBe(1);
    expect(await runner.runDue({ now: at(30_000 + 60_000), kinds: ['test.flaky'] })).toBe(1);
    row = await jobRow('flaky');
    expect(row.status).toBe('failed');
    expect(calls).toBe(3);
    expect(failed).toEqual(['receptor caído']);
  });

  it('claims again a job whose process died while running it', async () => {
    const runner = createJobRunner({ sequelize: t.sequelize, now: () => T0, log: silent });
    let runs = 0;
    runner.register('test.crash', async () => {
      runs++;
    });
    await runner.enqueue({ kind: 'test.crash', payload: null, key: 'crash' });
    // Simulate a process that claimed it and was killed: running with a lock that expires.
    await t.sequelize.query("UPDATE jobs SET status = 'running', locked_until = :lock WHERE key = 'crash'", {
      replacements: { lock: at(5 * 60_000) },
    });
    expect(await runner.runDue({ now: at(60_000), kinds: ['test.crash'] })).toBe(0);
    expect(await runner.runDue({ now: at(5 * 60_000 + 1), kinds: ['test.crash'] })).toBe(1);
    expect(runs).toBe(1);
  });

  it('two runners (two API processes) run each job and each recurring slot exactly once', async () => {
    const ran: number[] = [];
    const ticks: string[] = [];
    const make = () => {
      const r = createJobRunner({ sequelize: t.sequelize, now: () => T0, log: silent });
      r.register('test.shared', async (job) => {
        ran.push((job.payload as { n: number }).n);
      });
      r.every({ kind: 'test.tick', everyMs: 60_000, handler: async (ctx) => void ticks.push(ctx.now.toISOString()) });
      return r;
    };
    const a = make();
    const b = make();
    for (let n = 0; n < 40; n++) await a.enqueue({ kind: 'test.shared', payload: { n }, key: `shared-${n}` });
    await Promise.all([
      a.drain({ now: T0, kinds: ['test.shared', 'test.tick'] }),
      b.drain({ now: T0, kinds: ['test.shared', 'test.tick'] }),
    ]);
    expect(ran.sort((x, y) => x - y)).toEqual([...Array(40).keys()]);
    expect(ticks).toHaveLength(1);
    await Promise.all([a.runDue({ now: at(60_000), kinds: ['test.tick'] }), b.runDue({ now: at(60_000), kinds: ['test.tick'] })]);
    expect(ticks).toHaveLength(2);
  });

  it('queues a recurring slot once per process: a later poll of the same slot writes nothing, even with the row gone (issue 52)', async () => {
    const ticks: string[] = [];
    const runner = createJobRunner({ sequelize: t.sequelize, now: () => T0, log: silent });
    runner.every({ kind: 'test.slot', everyMs: 60_000, handler: async (ctx) => void ticks.push(ctx.now.toISOString()) });
    const base = 100 * 60_000;
    expect(await runner.runDue({ now: at(base), kinds: ['test.slot'] })).toBe(1);
    // Had the poll queued the slot again, the deleted row would come back and the task run twice.
    await select(t.sequelize, "DELETE FROM jobs WHERE kind = 'test.slot' RETURNING id");
    expect(await runner.runDue({ now: at(base + 30_000), kinds: ['test.slot'] })).toBe(0);
    expect(await runner.runDue({ now: at(base + 60_000), kinds: ['test.slot'] })).toBe(1);
    expect(ticks).toEqual([at(base).toISOString(), at(base + 60_000).toISOString()]);
  });

  it('counts the back-off from the failure, not from the claim (a try that waited is not retried at once)', async () => {
    let clock = T0;
    const runner = createJobRunner({ sequelize: t.sequelize, now: () => clock, log: silent });
    runner.register('test.slowfail', async () => {
      // The peer held the try for 40 s before it failed.
      clock = at(40_000);
      throw new Error('sin respuesta');
    });
    await runner.enqueue({ kind: 'test.slowfail', payload: null, key: 'slowfail', maxAttempts: 3 });
    await runner.runDue({ now: T0, kinds: ['test.slowfail'] });
    expect(new Date((await jobRow('slowfail')).run_at).toISOString()).toBe(at(40_000 + 30_000).toISOString());
    expect(await runner.runDue({ now: at(69_999), kinds: ['test.slowfail'] })).toBe(0);
  });

  it('a kind with a pool runs beside the other work, at most its concurrency at once, under its own lock', async () => {
    const now = at(3600_000);
    const runner = createJobRunner({ sequelize: t.sequelize, now: () => now, log: silent });
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let inside = 0;
    let widest = 0;
    const done: string[] = [];
    runner.register('test.send', {
      concurrency: 2,
      lockMs: 20 * 60_000,
      handler: async (job) => {
        widest = Math.max(widest, ++inside);
        await held;
        inside--;
        done.push(`send-${(job.payload as { n: number }).n}`);
      },
    });
    runner.register('test.plan', async () => void done.push('plan'));
    for (let n = 0; n < 3; n++) await runner.enqueue({ kind: 'test.send', payload: { n }, key: `pool-${n}`, runAt: now });
    await runner.enqueue({ kind: 'test.plan', payload: null, key: 'pool-plan', runAt: now });
    const stop = runner.start(20);
    const until = async (ok: () => boolean) => {
      for (let i = 0; i < 200 && !ok(); i++) await new Promise((r) => setTimeout(r, 10));
      return ok();
    };
    // Two sends hang; the plan runs anyway, and the third send waits for a free place.
    expect(await until(() => done.includes('plan') && inside === 2)).toBe(true);
    expect(widest).toBe(2);
    const [claimed] = await select<{ locked_until: string }>(t.sequelize, "SELECT locked_until FROM jobs WHERE key = 'pool-0'");
    expect(new Date(claimed.locked_until).toISOString()).toBe(new Date(now.getTime() + 20 * 60_000).toISOString());
    release();
    expect(await until(() => done.length === 4)).toBe(true);
    await stop();
    expect(widest).toBe(2);
    expect(done.sort()).toEqual(['plan', 'send-0', 'send-1', 'send-2']);
  });

  it("a pool's freed place takes the next due job at once, not at the next poll (issue 51: a backlog of sends drained at 4 a second)", async () => {
    const now = at(5400_000);
    const runner = createJobRunner({ sequelize: t.sequelize, now: () => now, log: silent });
    const ran: number[] = [];
    runner.register('test.drain', { concurrency: 1, handler: async () => void ran.push(performance.now()) });
    for (let n = 0; n < 5; n++) await runner.enqueue({ kind: 'test.drain', payload: { n }, key: `drain-${n}`, runAt: now });
    // Polls a second apart: refilled only by the poll, five jobs one at a time would take four more.
    const stop = runner.start(1000);
    for (let i = 0; i < 300 && ran.length < 5; i++) await new Promise((r) => setTimeout(r, 10));
    await stop();
    expect(ran).toHaveLength(5);
    expect(ran[4] - ran[0]).toBeLessThan(700);
  });

  it('stopping tells a running handler; a job it gives back (JobYielded) is due again at once, its attempt not counted', async () => {
    const now = at(7200_000);
    const runner = createJobRunner({ sequelize: t.sequelize, now: () => now, log: silent });
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    runner.register('test.long', {
      concurrency: 1,
      handler: async (_job, ctx) => {
        started();
        await new Promise<void>((resolve) => ctx.stopping.addEventListener('abort', () => resolve(), { once: true }));
        throw new JobYielded();
      },
    });
    await runner.enqueue({ kind: 'test.long', payload: null, key: 'long-1', runAt: now });
    const stop = runner.start(20);
    await running;
    expect((await jobRow('long-1')).attempts).toBe(1);
    await stop();
    const row = await jobRow('long-1');
    expect(row).toMatchObject({ status: 'pending', attempts: 0, last_error: null });
    const [lock] = await select<{ locked_until: unknown }>(t.sequelize, "SELECT locked_until FROM jobs WHERE key = 'long-1'");
    expect(lock.locked_until).toBeNull();
    // runDue (no process stopping) runs it to the end with a handler that does not wait.
    runner.register('test.long', async () => undefined);
    expect(await runner.runDue({ now, kinds: ['test.long'] })).toBe(1);
    expect((await jobRow('long-1')).status).toBe('done');
  });
});
