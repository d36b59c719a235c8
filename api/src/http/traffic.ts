import type { RequestHandler } from 'express';

/**
 * How many requests this process has received, for background work that gives way to them (issue
 * 37: a Bulk export pauses between its pages while readings and screens are being served). One
 * counter per process; the work compares two readings of it.
 */
let received = 0;

export const countRequests: RequestHandler = (_req, _res, next) => {
  received += 1;
  next();
};

export const requestsReceived = (): number => received;
