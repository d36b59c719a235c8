import http from 'node:http';
import { typeScriptWorker } from '@vigia/contract/node/ts-worker';
import autocannon from 'autocannon';
import { summarize, type Latency } from './stats.js';

/** A body given as a function is built when the request is sent (readings stamped with the time of sending). */
export interface HttpRequest {
  method: 'GET' | 'POST';
  path: string;
  body?: string | (() => string);
}

/** The body to send now. */
export const bodyOf = (r: HttpRequest): string | undefined => (typeof r.body === 'function' ? r.body() : r.body);

/**
 * fetch with one retry on a network error: the API closes idle keep-alive sockets after 5 s, and a
 * request sent on one just as it closes fails without reaching the server.
 */
export async function fetchRetrying(url: string, init?: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (err) {
    if (!(err instanceof TypeError)) throw err;
    return fetch(url, init);
  }
}

/** What every load request sends: JSON both ways, and the staff token when there is one. */
function headersFor(token?: string): Record<string, string> {
  const headers: Record<string, string> = { accept: 'application/json', 'content-type': 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  return headers;
}

export interface LoadResult {
  connections: number;
  seconds: number;
  /** 2xx answers per second. */
  rps: number;
  /** Over 2xx answers only; errors and other statuses are counted apart. */
  latency: Latency;
  errors: number;
  timeouts: number;
  non2xx: number;
  statusCodes: Record<string, number>;
  /** Each 2xx answer's latency, when the caller asked for them (keepSamples): to pool several windows. */
  samples?: number[];
}

/**
 * Closed-loop load from this process over loopback: `connections` keep-alive connections, each
 * sending its next request as soon as the previous answer arrives, cycling through `requests`.
 * Latencies come from autocannon's per-response timings, so p95 is exact (its own summary has
 * p97.5 but no p95).
 */
export async function runLoad(opts: {
  baseUrl: string;
  token?: string;
  connections: number;
  seconds: number;
  requests: HttpRequest[];
  /** Requests per second, evenly spaced, on at most `connections` at once (runPaced); unset: closed loop. */
  rate?: number;
  /** Return every 2xx latency too (paced loads only). */
  keepSamples?: boolean;
}): Promise<LoadResult> {
  if (opts.rate) return runPacedApart({ ...opts, rate: opts.rate });
  let next = 0;
  const headers = headersFor(opts.token);
  const instance = autocannon({
    url: opts.baseUrl,
    connections: opts.connections,
    duration: opts.seconds,
    timeout: 30,
    headers,
    ...(opts.rate ? { overallRate: opts.rate } : {}),
    requests: [
      {
        setupRequest: (request) => {
          const r = opts.requests[next++ % opts.requests.length];
          return { ...request, method: r.method, path: r.path, body: bodyOf(r), headers };
        },
      },
    ],
  });
  const samples: number[] = [];
  instance.on('response', (_client: unknown, status: number, _bytes: number, ms: number) => {
    if (status >= 200 && status < 300) samples.push(ms);
  });
  const result = await instance;
  const statusCodes = Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, s]) => [code, s.count]));
  return {
    connections: opts.connections,
    seconds: result.duration,
    rps: result['2xx'] / result.duration,
    latency: summarize(samples),
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    statusCodes,
  };
}

/**
 * Open-loop load: request k is due at start + k / rate, whatever the answers before it did, and
 * its latency runs from that instant, so time spent waiting for a free connection counts (no
 * coordinated omission). At most `connections` requests are in flight; a due request waits for
 * one to free. autocannon's own rate (overallRate) is not this: each connection sends its share
 * of a second back to back as soon as the second starts and then idles, so "500/s" was a closed
 * loop on 20 connections for part of each second, and its p99 that of the burst (bench/README).
 */
export async function runPaced(opts: {
  baseUrl: string;
  token?: string;
  connections: number;
  seconds: number;
  requests: HttpRequest[];
  rate: number;
  keepSamples?: boolean;
}): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: opts.connections });
  const headers = headersFor(opts.token);
  const url = new URL(opts.baseUrl);
  const total = Math.round(opts.rate * opts.seconds);
  const samples: number[] = [];
  const statusCodes: Record<string, number> = {};
  let errors = 0;
  let non2xx = 0;
  const started = performance.now();
  const send = (k: number) =>
    new Promise<void>((resolve) => {
      const due = started + (k * 1000) / opts.rate;
      const r = opts.requests[k % opts.requests.length];
      const body = bodyOf(r);
      const req = http.request(
        {
          host: url.hostname,
          port: url.port,
          method: r.method,
          path: r.path,
          agent,
          headers: body === undefined ? headers : { ...headers, 'content-length': Buffer.byteLength(body) },
        },
        (res) => {
          res.resume();
          res.on('end', () => {
            const status = res.statusCode ?? 0;
            statusCodes[status] = (statusCodes[status] ?? 0) + 1;
            if (status >= 200 && status < 300) samples.push(performance.now() - due);
            else non2xx++;
            resolve();
          });
          // A response cut off mid-body never ends, and its request emits no 'error': an error, not a
          // promise left pending (with nothing else to wait on, Node would exit 0 mid-run).
          res.on('close', () => {
            if (res.complete) return;
            errors++;
            resolve();
          });
        },
      );
      req.setTimeout(30_000, () => req.destroy(new Error('timeout')));
      req.on('error', () => {
        errors++;
        resolve();
      });
      req.end(body);
    });
  const inFlight: Array<Promise<void>> = [];
  let k = 0;
  await new Promise<void>((done) => {
    const tick = () => {
      const dueNow = Math.min(total, Math.floor(((performance.now() - started) * opts.rate) / 1000) + 1);
      while (k < dueNow) inFlight.push(send(k++));
      if (k >= total) return done();
      setTimeout(tick, Math.max(0, started + (k * 1000) / opts.rate - performance.now()));
    };
    tick();
  });
  await Promise.all(inFlight);
  agent.destroy();
  const seconds = Math.max(opts.seconds, (performance.now() - started) / 1000);
  return {
    connections: opts.connections,
    seconds,
    rps: samples.length / seconds,
    latency: summarize(samples),
    errors,
    timeouts: 0,
    non2xx,
    statusCodes,
    ...(opts.keepSamples ? { samples } : {}),
  };
}

/**
 * runPaced on a thread of its own (paced-thread.ts), whose heap holds nothing but the load. An
 * open-loop load counts from each request's due instant, so a pause of the thread that sends and
 * times them counts as the API's latency: on the bench's main thread, whose heap had reached 565 MB
 * by the RDA phase of a full run (the earlier phases' data, the loopback platform parsing each
 * document), the 200/s windows alone and beside the drain got p99s of 15-70 and 32-119 ms where
 * the same phase run by itself gave 9-25 (issue 51). Bodies built at sending time (functions) do
 * not cross to a thread: such a load runs here.
 */
export function runPacedApart(opts: Parameters<typeof runPaced>[0]): Promise<LoadResult> {
  if (opts.requests.some((r) => typeof r.body === 'function')) return runPaced(opts);
  const thread = new URL('./paced-thread.ts', import.meta.url).href;
  return new Promise((resolve, reject) => {
    const worker = typeScriptWorker(thread, { workerData: opts });
    let result: LoadResult | null = null;
    worker.once('message', (r: LoadResult) => (result = r));
    worker.once('error', reject);
    worker.once('exit', (code) =>
      result ? resolve(result) : reject(new Error(`the paced load's thread ended (${code}) without its result`)),
    );
  });
}
