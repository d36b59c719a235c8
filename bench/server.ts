import { spawn, type ChildProcess } from 'node:child_process';
import { buildServer, SERVER_ENV, SERVER_NODE_ARGS } from '../api/build.js';
import { createClock } from '../api/src/config.js';
import fs from 'node:fs';
import net from 'node:net';

export interface ApiProcess {
  pid: number;
  baseUrl: string;
  memory: MemorySampler;
  /** CPU time the API has used so far, all its threads (JavaScript, libuv pool, SQLite), in ms. */
  cpuMs(): number;
  stop(): Promise<void>;
}

/** VmRSS of the API every 250 ms, with the peak kept per phase. */
interface MemorySampler {
  setPhase(name: string): void;
  /** Peak RSS in bytes per phase, in the order phases began. */
  peaks(): Array<{ phase: string; peakBytes: number }>;
  peakBytes(): number;
  /** The kernel's own high-water mark (VmHWM), which also catches spikes between samples. */
  highWaterBytes(): number;
  samples(): number;
}

function readStatus(pid: number): { rss: number; hwm: number } | null {
  try {
    const text = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? 0) * 1024;
    return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
  } catch {
    return null;
  }
}

const TICKS_PER_SECOND = 100;

/** utime + stime from /proc/<pid>/stat (fields 14 and 15, after the parenthesised name). */
function readCpuMs(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return NaN;
  }
}

function sampleMemory(pid: number, everyMs = 250): MemorySampler & { halt(): void } {
  const peaks = new Map<string, number>();
  let phase = 'start-up';
  let hwm = 0;
  let count = 0;
  const take = () => {
    const s = readStatus(pid);
    if (!s) return;
    count++;
    hwm = Math.max(hwm, s.hwm);
    peaks.set(phase, Math.max(peaks.get(phase) ?? 0, s.rss));
  };
  take();
  const timer = setInterval(take, everyMs);
  timer.unref();
  return {
    setPhase(name) {
      take();
      phase = name;
      take();
    },
    peaks: () => [...peaks].map(([p, peakBytes]) => ({ phase: p, peakBytes })),
    peakBytes: () => Math.max(0, ...peaks.values()),
    highWaterBytes: () => {
      take();
      return hwm;
    },
    samples: () => count,
    halt: () => clearInterval(timer),
  };
}

/**
 * The clock of a run (issue 22): the data set's instant when the run starts, then real time. The
 * API, the in-process copies of it and the bare route all get the same CLOCK_OFFSET_MS, so they
 * agree to the millisecond, and the time of day the run starts changes nothing (bench/README.md).
 */
export interface RunClock {
  offsetMs: number;
  now(): Date;
}

export function runClockAt(instant: string, wallNow = Date.now()): RunClock {
  const offsetMs = Date.parse(instant) - wallNow;
  if (!Number.isSafeInteger(offsetMs)) throw new Error(`Fecha del conjunto de datos no válida: ${instant}`);
  return { offsetMs, now: createClock(offsetMs) };
}

/** The API's token secret in benchmark runs; capture.ts signs nothing but must verify the same tokens. */
export const BENCH_JWT_SECRET = 'bench-secret-not-for-production-0123456789abcdef';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

async function waitForHealth(baseUrl: string, child: ChildProcess, logFile: string, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    try {
      const res = await fetch(`${baseUrl}/api/v1/health`);
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`La API no respondió en ${baseUrl}/api/v1/health (código de salida ${child.exitCode}).\n${logTail(logFile)}`);
}

/** The API log's last 20 lines (empty when it was never written). */
function logTail(logFile: string): string {
  return fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8').split('\n').slice(-20).join('\n') : '';
}

/**
 * Starts the API as its own process, the way `npm start` runs it (migrate, then serve): the
 * production bundle (api/build.ts) under plain node, with the same environment. Node is spawned
 * directly, so the child's pid is the server's and its RSS is the API's alone.
 */
export async function startApi(opts: {
  rootDir: string;
  dataDir: string;
  databaseUrl: string | null;
  logFile: string;
  clock: RunClock;
  env?: NodeJS.ProcessEnv;
}): Promise<ApiProcess> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const log = fs.openSync(opts.logFile, 'w');
  const bundle = await buildServer();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...SERVER_ENV,
    NODE_ENV: 'production',
    PORT: String(port),
    DATA_DIR: opts.dataDir,
    SEED_DEMO: '0',
    SKIP_BUILD: '1',
    JWT_SECRET: BENCH_JWT_SECRET,
    CLOCK_OFFSET_MS: String(opts.clock.offsetMs),
    ...opts.env,
  };
  if (opts.databaseUrl) env.DATABASE_URL = opts.databaseUrl;
  else delete env.DATABASE_URL;
  const child = spawn(
    process.execPath,
    [
      ...SERVER_NODE_ARGS,
      ...(process.env.BENCH_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROF}`] : []),
      // Node flags of one's own for the API, e.g. BENCH_NODE_ARGS=--trace-gc (its lines land in api.log).
      ...(process.env.BENCH_NODE_ARGS?.split(/\s+/).filter(Boolean) ?? []),
      bundle,
    ],
    {
      cwd: opts.rootDir,
      env,
      stdio: ['ignore', log, log],
    },
  );
  fs.closeSync(log);
  const killNow = () => {
    if (child.exitCode === null) child.kill('SIGKILL');
  };
  process.once('exit', killNow);

  // An API that ends on its own leaves the run waiting on a dead port: say so, with its log's tail.
  let stopping = false;
  child.once('exit', (code, signal) => {
    if (stopping) return;
    console.error(
      `[bench] La API (pid ${child.pid}) terminó sola: código ${code}, señal ${signal}. Final de ${opts.logFile}:\n${logTail(opts.logFile)}`,
    );
  });

  const stop = async () => {
    stopping = true;
    memory.halt();
    process.removeListener('exit', killNow);
    if (child.exitCode !== null) return;
    const exited = new Promise<void>((r) => child.once('exit', () => r()));
    child.kill('SIGTERM');
    const timer = setTimeout(killNow, 10_000);
    await exited;
    clearTimeout(timer);
  };

  const memory = sampleMemory(child.pid!);
  try {
    await waitForHealth(baseUrl, child, opts.logFile, 180_000);
  } catch (err) {
    await stop();
    throw err;
  }
  return { pid: child.pid!, baseUrl, memory, cpuMs: () => readCpuMs(child.pid!), stop };
}
