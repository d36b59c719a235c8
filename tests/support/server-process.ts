import path from 'node:path';
import { spawn } from 'node:child_process';
import { SERVER_ENV, SERVER_NODE_ARGS } from '../../api/build.js';
import { testBundle } from './bundle.js';
import { freePort } from '../faults/support.js';

/**
 * The production bundle started as `npm start` starts it (plain node, its flags and environment),
 * with an environment a test writes whole: what a first start prints and does depends on NODE_ENV,
 * SEED_DEMO and LOG_LEVEL, which tests/faults/support.ts's spawnApi fixes for its own tests.
 */

const REPO_ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface ServerRun {
  baseUrl: string;
  /** stdout and stderr so far, in the order they came. */
  output(): string;
  /** Signals the process and waits for its exit code (SIGKILL after 15 s). */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * `env` over the server's own (SERVER_ENV) and nothing of this process's but PATH and HOME, so a
 * variable of the test runner's (NODE_ENV=test, DATABASE_URL) cannot decide the start.
 */
function childEnv(env: Record<string, string | undefined>): Record<string, string> {
  const base: Record<string, string | undefined> = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    ...SERVER_ENV,
    SKIP_BUILD: '1',
    ...env,
  };
  return Object.fromEntries(Object.entries(base).filter((e): e is [string, string] => e[1] !== undefined));
}

/** Starts the server and waits until `GET /api/health/ready` answers 200 (throws with the output when it ends first). */
export async function startServer(env: Record<string, string | undefined>, timeoutMs = 90_000): Promise<ServerRun> {
  const entry = await testBundle();
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [...SERVER_NODE_ARGS, entry], {
    cwd: REPO_ROOT,
    env: childEnv({ ...env, PORT: String(port) }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const record = (c: Buffer) => (output += c.toString());
  child.stdout.on('data', record);
  child.stderr.on('data', record);
  let exitCode: number | null | undefined;
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve((exitCode = code))));
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const run: ServerRun = {
    baseUrl,
    output: () => output,
    async stop(signal = 'SIGTERM') {
      process.off('exit', killOnExit);
      if (exitCode === undefined) child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && exitCode === undefined) {
    const status = await fetch(`${baseUrl}/api/health/ready`, { signal: AbortSignal.timeout(2_000) }).then(
      (res) => res.status,
      () => 0,
    );
    if (status === 200) return run;
    await sleep(200);
  }
  await run.stop('SIGKILL');
  throw new Error(`The server did not become ready.\n${output}`);
}

/** Runs the server until it exits by itself (killed after `timeoutMs`): a start that must fail. */
export async function runServerToExit(
  env: Record<string, string | undefined>,
  timeoutMs = 30_000,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const entry = await testBundle();
  const child = spawn(process.execPath, [...SERVER_NODE_ARGS, entry], {
    cwd: REPO_ROOT,
    env: childEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
  clearTimeout(timer);
  return { code, stdout, stderr };
}
