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
  /** Requests per second over all connections (open-ish loop); unset: as fast as answers come. */
  rate?: number;
}): Promise<LoadResult> {
  let next = 0;
  const headers: Record<string, string> = { accept: 'application/json', 'content-type': 'application/json' };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
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
