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
