import path from 'node:path';
import net from 'node:net';
import crypto from 'node:crypto';
import { spawn, type ChildProcess } from 'node:child_process';
import request from 'supertest';
import { bootstrap } from '../../api/src/bootstrap.js';
import type { Config } from '../../api/src/config.js';
import type { Logger } from '../../api/src/observability/logger.js';
import type { TestProduct } from '../support/product.js';
import { SERVER_ENV, SERVER_NODE_ARGS } from '../../api/build.js';
import { testBundle } from '../support/bundle.js';
import { newTestDatabase } from '../support/database-template.js';

/**
 * Fault tests need what tests/support/product.ts hides: the database address (to boot a second
 * app instance or a child process on the same data) and a close that keeps the data.
 */

const REPO_ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
export const onPostgres = Boolean(process.env.DATABASE_URL);

export interface FaultDatabase {
  dataDir: string;
  databaseUrl: string | null;
  jwtSecret: string;
  drop(): Promise<void>;
}

/**
 * A temporary SQLite directory, or a new PostgreSQL database when DATABASE_URL is set: a copy of the
 * migrated template with the catalogues (database-template.ts), or with `empty` a database with
 * nothing in it, for the tests of a first start.
 */
export async function freshDatabase(opts: { empty?: boolean } = {}): Promise<FaultDatabase> {
  return { ...(await newTestDatabase('vigia-faults-', 'vigia_f', opts)), jwtSecret: crypto.randomBytes(32).toString('hex') };
}

/**
 * One app instance on the database; stop() closes it and keeps the data (drop it with db.drop()).
 * `allowHttpServices`: WEBHOOKS_ALLOW_HTTP=1, for an http:// loopback webhook receiver; `logger`:
 * the test's own, to read the lines the app writes.
 */
export async function bootOn(
  db: FaultDatabase,
  opts: { now?: () => Date; allowHttpServices?: boolean; logger?: Logger } = {},
): Promise<TestProduct> {
  const config: Config = {
    port: 0,
    env: 'test',
    dataDir: db.dataDir,
    databaseUrl: db.databaseUrl,
    jwtSecret: db.jwtSecret,
    tokenTtlSeconds: 3600,
    smsUrl: null,
    smsToken: null,
    publicUrl: null,
    allowHttpServices: opts.allowHttpServices ?? false,
  };
  const product = await bootstrap(config, { now: opts.now, serveFrontEnds: false, logger: opts.logger });
  return { ...product, dataDir: db.dataDir, http: request(product.app), stop: () => product.close() };
}

/** Why a request a test sent got no answer (fetch's error and its cause: a reset, a refusal, a timeout). */
export function whyNoAnswer(error: unknown): string {
  const e = error as Error & { cause?: { code?: string; message?: string } };
  return `${e.name}: ${e.message}${e.cause ? ` (${e.cause.code ?? e.cause.message})` : ''}`;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface ChildApi {
  baseUrl: string;
  output(): string;
  /** Signals the whole process group and waits for the exit. */
  kill(signal: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /**
   * A request to this API. A connection it had kept open and closed just as the request went out
   * (its keep-alive lapsing while this process was starved of CPU) is tried once more on a new one,
   * as browsers do with an idempotent request; any other failure of fetch itself throws with its
   * cause and the server's output (a bare 'fetch failed' says neither).
   */
  fetch(path: string, init?: RequestInit): Promise<Response>;
}

/** The environment `npm start` gives the server, on `db` and `port` (no front ends; the demo seed only when asked). */
export function serverEnv(
  db: FaultDatabase,
  port: number,
  opts: { seedDemo?: boolean; env?: Record<string, string> } = {},
): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = {
    ...process.env,
    ...SERVER_ENV,
    PORT: String(port),
    DATA_DIR: db.dataDir,
    NODE_ENV: 'test',
    SKIP_BUILD: '1',
    SEED_DEMO: opts.seedDemo ? '1' : '0',
    JWT_SECRET: db.jwtSecret,
  };
  if (db.databaseUrl) env.DATABASE_URL = db.databaseUrl;
  else delete env.DATABASE_URL;
  return { ...env, ...opts.env };
}

/**
 * The real server as `npm start` runs it (the production bundle under plain node, with the same
 * environment) as a child process on the database; no front ends, no demo seed unless `seedDemo`
 * (the server then creates the demo data on an empty database, as `npm start` does). `env` adds to
 * or overrides that environment (a DATABASE_URL given there is used as it is: a proxy in front of
 * the database); `ready` is the answer awaited before it is handed back (default: /api/v1/health
 * answers 200).
 */
export async function spawnApi(
  db: FaultDatabase,
  opts: { seedDemo?: boolean; env?: Record<string, string>; ready?: (baseUrl: string) => Promise<boolean> } = {},
): Promise<ChildApi> {
  const entry = await testBundle();
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  let output = '';
  const env = serverEnv(db, port, opts);
  // Node itself (no CLI in between): SIGTERM reaches the server's own handler directly.
  const child: ChildProcess = spawn(process.execPath, [...SERVER_NODE_ARGS, entry], {
    cwd: REPO_ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const record = (c: Buffer) => (output = (output + c.toString()).slice(-32_000));
  child.stdout!.on('data', record);
  child.stderr!.on('data', record);
  let exited: { code: number | null; signal: NodeJS.Signals | null } | null = null;
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve((exited = { code, signal }))),
  );
  const killGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      // already gone
    }
  };
  const killOnExit = () => killGroup('SIGKILL');
  process.once('exit', killOnExit);
  const api: ChildApi = {
    baseUrl,
    output: () => output,
    async kill(signal) {
      process.off('exit', killOnExit);
      killGroup(signal);
      const result = await Promise.race([exit, sleep(10_000).then(() => null)]);
      // tsx forwards SIGTERM to node; make sure nothing of the group survives.
      killGroup('SIGKILL');
      return result ?? (await exit);
    },
    async fetch(path, init) {
      const method = init?.method ?? 'GET';
      for (let attempt = 1; ; attempt++) {
        try {
          return await fetch(`${baseUrl}${path}`, init);
        } catch (err) {
          const cause = (err as { cause?: { code?: string; message?: string } }).cause;
          const reset = cause?.code === 'ECONNRESET' || cause?.code === 'UND_ERR_SOCKET';
          if (reset && attempt === 1 && (method === 'GET' || method === 'HEAD')) continue;
          const exitedAs = exited ? ` (the API had ended: ${JSON.stringify(exited)})` : '';
          throw new Error(`${method} ${path}: ${cause?.code ?? ''} ${cause?.message ?? String(err)}${exitedAs}\n${output}`, { cause: err });
        }
      }
    },
  };
  const ready =
    opts.ready ?? (async (url: string) => (await fetch(`${url}/api/v1/health`, { signal: AbortSignal.timeout(2_000) })).status === 200);
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline && !exited) {
    try {
      if (await ready(baseUrl)) return api;
    } catch {
      // not listening yet
    }
    await sleep(200);
  }
  await api.kill('SIGKILL');
  throw new Error(`The API did not start.\n${output}`);
}

/** A deterministic pseudo-random sequence (mulberry32), so a failing run can be replayed. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface DatabaseProxy {
  /** The database URL through the proxy (the same database, user and options). */
  url: string;
  /** Connections arrive and wait, nothing reaches the database, until release(). */
  hold(): void;
  release(): void;
  /** The database goes away: every connection is cut, and new ones are refused (nothing listens). */
  cut(): Promise<void>;
  /** The database is back: the port listens again and connects through. */
  restore(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A TCP proxy in front of PostgreSQL, so a test can make the database hang at start (hold) or go
 * away and come back (cut, restore) for the process under test alone, deterministically: the
 * same refused connection and cut socket a stopped or unreachable server gives.
 */
export async function databaseProxy(databaseUrl: string): Promise<DatabaseProxy> {
  const target = new URL(databaseUrl);
  const sockets = new Set<net.Socket>();
  let held: Array<() => void> | null = null;
  const connect = (client: net.Socket) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    client.pipe(upstream).pipe(client);
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
    client.on('close', () => upstream.destroy());
  };
  const server = net.createServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => {});
    if (held) {
      client.pause();
      held.push(() => {
        client.resume();
        connect(client);
      });
    } else connect(client);
  });
  const listen = (port: number) => new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  await listen(0);
  const port = (server.address() as net.AddressInfo).port;
  const url = new URL(databaseUrl);
  url.hostname = '127.0.0.1';
  url.port = String(port);
  const closeListener = () => new Promise<void>((resolve) => (server.listening ? server.close(() => resolve()) : resolve()));
  return {
    url: url.toString(),
    hold: () => void (held ??= []),
    release() {
      const waiting = held ?? [];
      held = null;
      for (const go of waiting) go();
    },
    async cut() {
      const closed = closeListener();
      for (const s of sockets) s.destroy();
      await closed;
    },
    restore: () => listen(port),
    async close() {
      const closed = closeListener();
      for (const s of sockets) s.destroy();
      await closed;
    },
  };
}
