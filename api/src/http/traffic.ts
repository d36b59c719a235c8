import type { RequestHandler } from 'express';

/**
 * How many requests this process has received, for background work that gives way to them (issue
 * 37: a Bulk export pauses between its pages while readings and screens are being served). One
 * counter per process, in shared memory so that an export's worker thread reads it too; the work
 * compares two readings of it (requestsBetween: the count wraps at 2^32).
 */
const counter = new Uint32Array(new SharedArrayBuffer(4));

export const countRequests: RequestHandler = (_req, _res, next) => {
  Atomics.add(counter, 0, 1);
  next();
};

/** The count now, read from `shared` (a worker's copy of requestCounter()) or this thread's. */
export const requestsReceived = (shared: Uint32Array = counter): number => Atomics.load(shared, 0);

/** The shared counter itself, handed to a worker thread in its workerData. */
export const requestCounter = (): Uint32Array => counter;

/** Requests received between two readings of the counter, across its wrap. */
export const requestsBetween = (before: number, after: number): number => (after - before) >>> 0;

/**
 * Requests received over about the last `windowMs`, for work whose steps are too short to see any
 * request arrive during one of them (a send of a few milliseconds between readings 5 ms apart).
 * Each call takes a sample of the counter at `nowMs` and answers the requests since the newest
 * sample at least `windowMs` old (or the oldest one it has), and over how long. Samples are taken
 * only while the work runs: after a gap of `windowMs` or more it starts again, so what the process
 * served while the work was idle is not counted as traffic beside it.
 */
export function recentRequests(read: () => number, windowMs: number): (nowMs: number) => { requests: number; overMs: number } {
  const samples: Array<{ at: number; count: number }> = [];
  return (nowMs) => {
    const count = read();
    if (samples.length && nowMs - samples[samples.length - 1].at >= windowMs) samples.length = 0;
    samples.push({ at: nowMs, count });
    while (samples.length > 2 && nowMs - samples[1].at >= windowMs) samples.shift();
    const base = samples[0];
    return { requests: requestsBetween(base.count, count), overMs: nowMs - base.at };
  };
}
