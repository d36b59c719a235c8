import net from 'node:net';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVER_NODE_ARGS } from '../../api/build.js';
import { enqueueJob } from '../../api/src/jobs/queue.js';
import { select } from '../../api/src/db/sql.js';
import { testBundle } from '../support/bundle.js';
import { bootOn, freshDatabase, serverEnv, type FaultDatabase } from '../faults/support.js';

const REPO_ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');

interface JobState {
  id: number;
  kind: string;
  status: string;
  attempts: number;
}

async function jobStates(db: FaultDatabase): Promise<JobState[]> {
  const product = await bootOn(db);
  try {
    const rows = await select<JobState>(product.sequelize, 'SELECT id, kind, status, attempts FROM jobs ORDER BY id');
    return rows.map((r) => ({ id: Number(r.id), kind: r.kind, status: r.status, attempts: Number(r.attempts) }));
  } finally {
    await product.stop();
  }
}

/** Another process's socket on the port, bound as the server binds it (every interface). */
function occupyPort(): Promise<net.Server> {
  return new Promise((resolve, reject) => {
    const blocker = net.createServer((socket) => socket.destroy());
    blocker.once('error', reject);
    blocker.listen(0, () => resolve(blocker));
  });
}

/** The production bundle as `npm start` runs it, until it exits or `timeoutMs` passes (then killed). */
async function runServer(db: FaultDatabase, port: number, timeoutMs: number) {
  const entry = await testBundle();
  const env = serverEnv(db, port);
  const child = spawn(process.execPath, [...SERVER_NODE_ARGS, entry], { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const code = await exit;
  clearTimeout(timer);
  return { code, stdout, stderr };
}

describe('npm start on a port already taken', () => {
  let db: FaultDatabase;
  let blocker: net.Server;
  let port: number;
  let before: JobState[];

  beforeAll(async () => {
    db = await freshDatabase();
    // A migrated database with work due now: a server that ran its jobs would claim it within a second.
    const product = await bootOn(db);
    await enqueueJob(
      product.sequelize,
      { kind: 'db.statistics', key: 'startup-port-planted', payload: null },
      undefined,
      new Date(Date.now() - 60_000),
    );
    await product.stop();
    before = await jobStates(db);
    blocker = await occupyPort();
    port = (blocker.address() as net.AddressInfo).port;
  });

  afterAll(async () => {
    await new Promise((r) => blocker?.close(r));
    await db?.drop();
  });

  it('exits non-zero naming the port, having run no background job', async () => {
    const run = await runServer(db, port, 20_000);
    expect(run.stderr).toContain(`El puerto ${port} ya está en uso`);
    expect(run.stdout).not.toContain('Vigía está en');
    expect(run.code).toBe(1);
    expect(before.some((j) => j.status === 'pending' && j.attempts === 0)).toBe(true);
    expect(await jobStates(db)).toEqual(before);
  });
});
