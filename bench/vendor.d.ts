/**
 * The few shapes the benchmark uses from two untyped packages. Declared here rather than adding
 * @types packages for one tool folder.
 */
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  interface AutocannonRequest {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
    setupRequest?: (request: AutocannonRequest, context: object) => AutocannonRequest;
  }
  interface AutocannonOptions {
    url: string;
    connections?: number;
    duration?: number;
    timeout?: number;
    headers?: Record<string, string>;
    requests?: AutocannonRequest[];
    overallRate?: number;
    /** Requests in all, instead of a duration. */
    amount?: number;
  }
  interface AutocannonResult {
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    '2xx': number;
    requests: { average: number; total: number };
    statusCodeStats: Record<string, { count: number }>;
  }
  /** Emits 'response' (client, statusCode, bytes, milliseconds) and resolves with the result. */
  type Instance = EventEmitter & PromiseLike<AutocannonResult>;
  function autocannon(options: AutocannonOptions): Instance;
  export default autocannon;
}

declare module 'pg' {
  interface QueryResult<T> {
    rows: T[];
    rowCount: number | null;
  }
  export class Pool {
    constructor(config: { connectionString: string; max?: number });
    query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<QueryResult<T>>;
    end(): Promise<void>;
  }
  export class Client {
    constructor(config: { connectionString: string });
    connect(): Promise<void>;
    query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<QueryResult<T>>;
    end(): Promise<void>;
  }
  const pg: { Pool: typeof Pool; Client: typeof Client };
  export default pg;
}
