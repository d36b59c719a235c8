import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../api/src/db/database.js';
import { select } from '../../api/src/db/sql.js';
import { freshDatabase, type FaultDatabase } from '../faults/support.js';
import { startServer, type ServerRun } from '../support/server-process.js';

/**
 * Issue 49: the first production start on an empty database. `NODE_ENV=production` created the
 * demo organisations with README's password, so anyone who read README could sign in as their
 * administrator. Now production creates nothing demo unless SEED_DEMO=1 is set, then with
 * passwords made for that start, and otherwise says how to create the first organisation.
 * Development keeps README's demo. The real bundle, on SQLite or on PostgreSQL (DATABASE_URL).
 */

const PUBLISHED = { email: 'admin@demo.vigia.co', password: 'Vigia@2026' };
const DEMO_EMAILS = ['admin@demo.vigia.co', 'medico@demo.vigia.co', 'enfermeria@demo.vigia.co', 'consulta@demo.vigia.co'];

let db: FaultDatabase | null = null;
let server: ServerRun | null = null;

afterEach(async () => {
  if (server) expect(await server.stop()).toBe(0);
  server = null;
  await db?.drop();
  db = null;
});

function environment(database: FaultDatabase, env: Record<string, string | undefined>) {
  return { DATA_DIR: database.dataDir, DATABASE_URL: database.databaseUrl ?? undefined, JWT_SECRET: database.jwtSecret, ...env };
}

async function signIn(run: ServerRun, email: string, password: string) {
  const res = await fetch(`${run.baseUrl}/api/v1/sessions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  return { status: res.status, body: (await res.json()) as { code?: string; email?: string } };
}

async function organisations(database: FaultDatabase): Promise<string[]> {
  const sequelize = await openDatabase(database);
  try {
    return (await select<{ name: string }>(sequelize, 'SELECT name FROM clients ORDER BY id')).map((r) => r.name);
  } finally {
    await sequelize.close();
  }
}

/**
 * The server's output once it holds `line`, the last line a case reads: what the server prints
 * before it takes requests can reach this process after the readiness answer does (CI once read
 * the output before the demo's passwords had arrived).
 */
async function printed(run: ServerRun, line: string): Promise<string> {
  await expect.poll(() => run.output(), { timeout: 10_000 }).toContain(line);
  return run.output();
}

/** The printed `role  email  (password)` lines of the demo's accounts. */
function printedPasswords(output: string): Map<string, string> {
  return new Map([...output.matchAll(/^\s+\w+\s+(\S+@\S+)\s+\((\S+)\)$/gm)].map((m) => [m[1], m[2]]));
}

describe('the first production start', () => {
  it('creates no demo, refuses the published password and says how to create the first organisation', async () => {
    db = await freshDatabase({ empty: true });
    server = await startServer(environment(db, { NODE_ENV: 'production' }));
    const output = await printed(server, 'Vigía sigue en marcha mientras tanto.');
    expect(output).toContain('Aún no hay ninguna organización');
    expect(output).toContain('npm run client:create -- --name');
    expect(output).not.toContain('Datos de demostración');
    expect(output).not.toContain(PUBLISHED.password);
    const refused = await signIn(server, PUBLISHED.email, PUBLISHED.password);
    expect(refused.status).toBe(401);
    expect(await organisations(db)).toEqual([]);
  });

  it('with SEED_DEMO=1 creates the demo with passwords of its own, shown once and never in the log file', async () => {
    db = await freshDatabase({ empty: true });
    const logFile = path.join(db.dataDir, 'vigia.log');
    server = await startServer(environment(db, { NODE_ENV: 'production', SEED_DEMO: '1', LOG_FILE: logFile }));
    const output = await printed(server, 'Portal del paciente: documento');
    const passwords = printedPasswords(output);
    expect([...passwords.keys()]).toEqual(expect.arrayContaining(DEMO_EMAILS));
    expect(new Set(passwords.values()).size).toBe(passwords.size);
    expect(output).not.toContain(PUBLISHED.password);
    expect(await organisations(db)).toEqual(['Clínica Demo', 'Hogar Los Andes']);

    expect((await signIn(server, PUBLISHED.email, PUBLISHED.password)).status).toBe(401);
    const signedIn = await signIn(server, PUBLISHED.email, passwords.get(PUBLISHED.email)!);
    expect(signedIn).toMatchObject({ status: 201, body: { email: PUBLISHED.email } });

    // The log's lines leave in writes of 4 KB or every 250 ms (P266): the sign-in's line comes a moment after its answer.
    await expect.poll(() => fs.readFileSync(logFile, 'utf8'), { timeout: 5_000 }).toContain('"route":"/api/v1/sessions"');
    const log = fs.readFileSync(logFile, 'utf8');
    for (const password of passwords.values()) expect(log).not.toContain(password);
  });

  it('in development keeps README’s demo and its password', async () => {
    db = await freshDatabase({ empty: true });
    server = await startServer(environment(db, { NODE_ENV: undefined }));
    expect(printedPasswords(await printed(server, 'Portal del paciente: documento')).get(PUBLISHED.email)).toBe(PUBLISHED.password);
    expect((await signIn(server, PUBLISHED.email, PUBLISHED.password)).status).toBe(201);
  });
});
