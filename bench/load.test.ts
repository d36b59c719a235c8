import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Worker } from 'node:worker_threads';
import { runLoad, runPaced } from './load.js';

describe('runPaced (open-loop load)', () => {
  const arrivals: number[] = [];
  let server: http.Server;
  let baseUrl: string;
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      arrivals.push(performance.now());
      req.resume();
      req.on('end', () => {
        if (req.url === '/cut') {
          // Headers and part of a body, then the connection drops.
          res.writeHead(200, { 'content-length': '100' });
          res.write('{"partial":');
          setTimeout(() => res.socket?.destroy(), 20);
          return;
        }
        res.writeHead(req.url === '/fail' ? 500 : 201).end('{}');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('spreads the requests over the period instead of sending each second in a burst', async () => {
    arrivals.length = 0;
    const result = await runPaced({
      baseUrl,
      connections: 4,
      seconds: 0.5,
      rate: 100,
      requests: [{ method: 'POST', path: '/ok', body: '{}' }],
    });
    expect(result.statusCodes).toEqual({ 201: 50 });
    expect(result.latency.count).toBe(50);
    // A burst (autocannon's overallRate) sends all 50 within a few milliseconds; paced, the last is due at 490 ms.
    expect(arrivals[arrivals.length - 1] - arrivals[0]).toBeGreaterThan(300);
  });

  it('counts answers that are not 2xx apart from the latencies', async () => {
    const result = await runPaced({
      baseUrl,
      connections: 2,
      seconds: 0.2,
      rate: 50,
      requests: [
        { method: 'GET', path: '/ok' },
        { method: 'GET', path: '/fail' },
      ],
    });
    expect(result.statusCodes).toEqual({ 201: 5, 500: 5 });
    expect(result.non2xx).toBe(5);
    expect(result.latency.count).toBe(5);
  });

  it('counts a response cut off mid-body as an error and ends (it does not wait on it forever)', async () => {
    const result = await runPaced({
      baseUrl,
      connections: 2,
      seconds: 0.2,
      rate: 20,
      requests: [
        { method: 'GET', path: '/ok' },
        { method: 'GET', path: '/cut' },
      ],
    });
    expect(result.statusCodes).toEqual({ 201: 2 });
    expect(result.errors).toBe(2);
    expect(result.latency.count).toBe(2);
  });
});

describe('runLoad at a rate: the paced load runs on a thread of its own', () => {
  // The peer on a thread of its own too, so that only the thread of the load's caller stops.
  let peer: Worker;
  let baseUrl: string;
  beforeAll(async () => {
    peer = new Worker(
      `const http = require('node:http');
       const server = http.createServer((req, res) => { req.resume(); req.on('end', () => res.writeHead(201).end('{}')); });
       server.listen(0, '127.0.0.1', () => require('node:worker_threads').parentPort.postMessage(server.address().port));`,
      { eval: true },
    );
    baseUrl = `http://127.0.0.1:${await new Promise<number>((resolve) => peer.once('message', resolve))}`;
  });
  afterAll(() => peer.terminate());

  /** Blocks this thread for `ms` from 300 ms into the load, as a collection of a large heap does. */
  const blockedMidway = async <T>(load: Promise<T>, ms: number): Promise<T> => {
    await new Promise((resolve) => setTimeout(resolve, 300));
    const until = performance.now() + ms;
    while (performance.now() < until);
    return load;
  };
  const opts = { connections: 4, seconds: 1, rate: 100, requests: [{ method: 'POST' as const, path: '/ok', body: '{}' }] };

  it.each([
    { name: 'runLoad (its own thread): the pause is not in the latencies', run: () => runLoad({ baseUrl, ...opts }), under: true },
    { name: "runPaced on the caller's thread: it is (what the thread is for)", run: () => runPaced({ baseUrl, ...opts }), under: false },
  ])('$name', async ({ run, under }) => {
    const result = await blockedMidway(run(), 400);
    expect(result.latency.count).toBe(100);
    expect(result.latency.max < 200).toBe(under);
  });
});
