import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SERVER_ENV, SERVER_NODE_ARGS } from '../../../api/build.js';
import { testBundle } from '../../support/bundle.js';
import { copySqliteTemplate } from '../../support/database-template.js';

/**
 * Boots the real product as `npm start` runs it: the API's production bundle under plain node,
 * with npm start's environment, serving the built admin and portal, as a child process
 * (testBundle: one copy per test worker, built from the sources).
 */

export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

const HEALTH_TIMEOUT_MS = 90_000;
const STOP_GRACE_MS = 5_000;
const OUTPUT_LIMIT = 64 * 1024;

export interface RunningServer {
  baseUrl: string;
  /** Everything the server printed so far (the tail, when it is long). */
  output(): string;
  stop(): Promise<void>;
}

async function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.unref();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `extraEnv` may depend on the server's own address (e.g. an OIDC redirect URI on this server). */
export async function startServer(
  extraEnv: Record<string, string> | ((baseUrl: string) => Record<string, string>) = {},
): Promise<RunningServer> {
  const port = await findFreePort();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'vigia-e2e-'));
  const baseUrl = `http://127.0.0.1:${port}`;

  let output = '';
  const record = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-OUTPUT_LIMIT);
  };

  const entry = await testBundle();
  // The migrated database with the catalogues (database-template.ts), unless the test names a
  // PostgreSQL database of its own: the server seeds the demo on it at its first start.
  const env = typeof extraEnv === 'function' ? extraEnv(baseUrl) : extraEnv;
  if (!env.DATABASE_URL) await copySqliteTemplate(dataDir);
  // Its own process group, so stop() ends it and anything it starts.
  const child = spawn(process.execPath, [...SERVER_NODE_ARGS, entry], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      ...SERVER_ENV,
      PORT: String(port),
      DATA_DIR: dataDir,
      NODE_ENV: 'test',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  child.stdout.on('data', record);
  child.stderr.on('data', record);

  let exited: { code: number | null; signal: NodeJS.Signals | null } | null = null;
  const exit = new Promise<void>((resolve) => {
    child.on('exit', (code, signal) => {
      exited = { code, signal };
      resolve();
    });
  });
  child.on('error', (error) => record(Buffer.from(`\n[spawn error] ${error.message}\n`)));

  const killGroup = (signal: NodeJS.Signals) => {
    if (exited || child.pid === undefined) return;
    try {
      process.kill(-child.pid, signal);
    } catch {
      // Already gone.
    }
  };
  const killOnExit = () => killGroup('SIGKILL');
  process.once('exit', killOnExit);

  async function stop(): Promise<void> {
    process.off('exit', killOnExit);
    killGroup('SIGTERM');
    await Promise.race([exit, sleep(STOP_GRACE_MS)]);
    killGroup('SIGKILL');
    await rm(dataDir, { recursive: true, force: true });
  }

  const deadline = Date.now() + HEALTH_TIMEOUT_MS;
  let lastProblem = 'no answer yet';
  while (Date.now() < deadline) {
    if (exited) break;
    try {
      const response = await fetch(`${baseUrl}/api/v1/health`, { signal: AbortSignal.timeout(2_000) });
      // Only once this child says it listens: the port was free when probed, and another process
      // (a test's server elsewhere) may have taken it since and answered the health check for it.
      if (response.status === 200 && output.includes('Vigía está en ')) return { baseUrl, output: () => output, stop };
      lastProblem = `GET /api/v1/health answered ${response.status}: ${(await response.text()).slice(0, 500)}`;
    } catch (error) {
      lastProblem = (error as Error).message;
    }
    await sleep(250);
  }

  const why = exited
    ? `exited early (code ${(exited as { code: number | null }).code}, signal ${(exited as { signal: string | null }).signal})`
    : `was not healthy after ${HEALTH_TIMEOUT_MS / 1000} s (${lastProblem})`;
  await stop();
  throw new Error(`The API server ${why}.\n--- server output ---\n${output}\n--- end of server output ---`);
}
