import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import http from 'node:http';
import { spawn } from 'node:child_process';
import sqlite3 from 'sqlite3';
import { Sequelize, QueryTypes } from 'sequelize';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { generateX25519Identity, identityToRecipient } from 'age-encryption';
import { createLogger } from '../../api/src/observability/logger.js';
import type { TestProduct } from '../support/product.js';
import { bootOn, freshDatabase, onPostgres, spawnApi, type ChildApi, type FaultDatabase } from './support';

/**
 * Issue 39: `npm run backup` while the API stores device readings at 300/s, then `npm run
 * restore` into a new DATA_DIR (on PostgreSQL, a new empty database too) and the API started on
 * it: every reading acknowledged before the backup began is there, SQLite's integrity_check
 * passes, the demo users sign in, DATA_DIR's own files came back byte for byte. A corrupted and a
 * truncated archive are refused and nothing is written. Runs on PostgreSQL when DATABASE_URL is set.
 *
 * Issue 49: archives are 0600 in a 0700 folder; with BACKUP_RECIPIENT they are encrypted with age
 * and restore with the identity file to the same data, a wrong key or a damaged encrypted file is
 * refused with nothing written; the daily backup says so at `info`, with the archive's name.
 */

const REPO_ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const RATE = 300;
/** Readings stream this long before the backup starts, and this long after it ended. */
const LEAD_MS = 2000;
const TAIL_MS = 500;
const CARD = 'GW-COPIA-01';
const DEMO_PASSWORD = 'Vigia@2026';
const DEMO_EMAILS = [
  'admin@demo.vigia.co',
  'medico@demo.vigia.co',
  'enfermeria@demo.vigia.co',
  'consulta@demo.vigia.co',
  'admin@losandes.vigia.co',
];
const ATTACHMENT = 'messages/1/foto-prueba.bin';
/** The demo's portal patient (README, 'Demo access'), whose readings the gateway sends. */
const DEMO_PORTAL_PATIENT_NID = '1020304050';

let db: FaultDatabase;
let work: string;
let secret: string;
let patientId: number;
let attachment: Buffer;
let server: ChildApi | null = null;
const cleanups: Array<() => Promise<void>> = [];

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** An npm script as an operator runs it, without blocking this process (the stream goes on meanwhile). */
function npmRun(
  script: string,
  args: string[],
  env: { DATA_DIR: string; DATABASE_URL: string | null; BACKUP_RECIPIENT?: string },
): Promise<Run> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: env.DATA_DIR };
  if (env.DATABASE_URL) childEnv.DATABASE_URL = env.DATABASE_URL;
  else delete childEnv.DATABASE_URL;
  delete childEnv.BACKUP_DIR;
  delete childEnv.BACKUP_IDENTITY_FILE;
  if (env.BACKUP_RECIPIENT) childEnv.BACKUP_RECIPIENT = env.BACKUP_RECIPIENT;
  else delete childEnv.BACKUP_RECIPIENT;
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', script, '--', ...args], {
      cwd: REPO_ROOT,
      env: childEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * The gateway's connections: at most GATEWAY_SOCKETS open at once and kept alive, the rest of the
 * readings wait in the gateway's own queue, as a real gateway's pool does. Opening a socket per
 * reading with thousands queued overflowed the API's listen backlog on a loaded CI machine (connect
 * timeouts after 10 s), which measured the kernel, not the backup.
 */
const GATEWAY_SOCKETS = 32;
const gatewayAgent = new http.Agent({ keepAlive: true, maxSockets: GATEWAY_SOCKETS });

function postOnce(base: string, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${base}/api/v1/devices/${CARD}/readings`,
      {
        method: 'POST',
        agent: gatewayAgent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'x-device-secret': secret },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', reject);
      },
    );
    // Generous: on a busy 2-core machine the API may answer slower than 300/s and readings queue.
    req.setTimeout(120_000, () => req.destroy(new Error('sin respuesta en 120 s')));
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * One reading as a gateway sends it. A reading that got no answer because its connection failed
 * (reset, closed, refused or not opened in time) is sent again with the same reading_id, as a
 * gateway retries what it got no answer for (a reading is stored once by its id).
 */
async function sendReading(base: string, id: string, when: Date): Promise<number | string> {
  const body = JSON.stringify({
    readings: [{ reading_id: id, clinical_element: 1, value: 60 + (Number(id.slice(-3)) % 40), when: when.toISOString() }],
  });
  let last = '';
  for (let attempt = 0; attempt < 4; attempt++) {
    try {
      return await postOnce(base, body);
    } catch (err) {
      last = String((err as NodeJS.ErrnoException).code ?? (err as Error).message);
      if (!/ECONNRESET|ECONNREFUSED|ETIMEDOUT|EPIPE|socket hang up/i.test(last)) return last;
      await new Promise((r) => setTimeout(r, 200 * (attempt + 1)));
    }
  }
  return last;
}

/**
 * Offers RATE readings a second, one per request, each with its own reading_id, until stop();
 * `acked` lists the ids answered 201 in the order the answers came.
 */
function streamReadings(base: string) {
  const acked: string[] = [];
  const failures: string[] = [];
  const inFlight = new Set<Promise<void>>();
  const started = performance.now();
  // Reading n is n seconds after this: six hours back, so none is in the future however long the copy takes
  // (an hour back made every reading after the 3,600th a 400 once lead and copy passed 12 s on a loaded machine).
  const firstWhen = Date.now() - 6 * 3600_000;
  let sent = 0;
  let stopped = false;
  const timer = setInterval(() => {
    const due = Math.floor(((performance.now() - started) / 1000) * RATE);
    while (!stopped && sent < due && inFlight.size < 5000) {
      const n = sent++;
      const id = `copia-${String(n).padStart(6, '0')}`;
      const p = sendReading(base, id, new Date(firstWhen + n * 1000)).then((status) => {
        if (status === 201) acked.push(id);
        else failures.push(`${id}: ${status}`);
        inFlight.delete(p);
      });
      inFlight.add(p);
    }
  }, 5);
  return {
    acked,
    failures,
    sent: () => sent,
    async stop() {
      stopped = true;
      clearInterval(timer);
      const seconds = (performance.now() - started) / 1000;
      await Promise.all(inFlight);
      return seconds;
    },
  };
}

const listDir = (dir: string) => (fs.existsSync(dir) ? fs.readdirSync(dir).sort() : []);
const modeOf = (p: string) => (fs.statSync(p).mode & 0o777).toString(8);

async function tableCount(url: string): Promise<number> {
  const s = new Sequelize(url, { logging: false });
  try {
    const [row] = await s.query<{ n: number }>(
      "SELECT COUNT(*)::int AS n FROM pg_tables WHERE schemaname NOT IN ('pg_catalog', 'information_schema')",
      { type: QueryTypes.SELECT },
    );
    return row.n;
  } finally {
    await s.close();
  }
}

function integrityCheck(file: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const conn = new sqlite3.Database(file, sqlite3.OPEN_READONLY, (err) => {
      if (err) return reject(err);
      conn.all('PRAGMA integrity_check', (e, rows: Array<{ integrity_check: string }>) => {
        conn.close(() => (e ? reject(e) : resolve(rows.map((r) => r.integrity_check).join('; '))));
      });
    });
  });
}

/** A connection of the test's own beside the running API, for what the API has no route to show. */
function openDirect(target: { dataDir: string; databaseUrl: string | null }): Sequelize {
  return target.databaseUrl
    ? new Sequelize(target.databaseUrl, { logging: false })
    : new Sequelize({ dialect: 'sqlite', storage: path.join(target.dataDir, 'vigia.sqlite'), logging: false });
}

async function signIn(base: string, email: string): Promise<{ status: number; token?: string; text: string }> {
  const res = await fetch(`${base}/api/v1/sessions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: DEMO_PASSWORD }),
  });
  const text = await res.text();
  return { status: res.status, token: res.status === 201 ? (JSON.parse(text) as { token: string }).token : undefined, text };
}

beforeAll(async () => {
  db = await freshDatabase();
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'vigia-backup-'));
  // What else DATA_DIR holds in an installation: the generated secrets and a stored attachment.
  fs.writeFileSync(path.join(db.dataDir, 'secrets.json'), JSON.stringify({ jwt: db.jwtSecret }), { mode: 0o600 });
  attachment = crypto.randomBytes(200_000);
  fs.mkdirSync(path.join(db.dataDir, path.dirname(ATTACHMENT)), { recursive: true });
  fs.writeFileSync(path.join(db.dataDir, ATTACHMENT), attachment);
  // The server creates the demo data on the empty database, as `npm start` does.
  server = await spawnApi(db, { seedDemo: true });
  const direct = openDirect(db);
  try {
    const [patient] = await direct.query<{ id: number }>('SELECT id FROM patients WHERE nid = :nid', {
      replacements: { nid: DEMO_PORTAL_PATIENT_NID },
      type: QueryTypes.SELECT,
    });
    patientId = Number(patient.id);
  } finally {
    await direct.close();
  }
  const admin = await signIn(server.baseUrl, 'admin@demo.vigia.co');
  expect(admin.status, admin.text).toBe(201);
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${admin.token}` };
  const put = await fetch(`${server.baseUrl}/api/v1/patients/${patientId}`, {
    method: 'PUT',
    headers,
    body: JSON.stringify({ card_id: CARD }),
  });
  expect(put.status, await put.clone().text()).toBe(200);
  const device = await fetch(`${server.baseUrl}/api/v1/devices`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ card_id: CARD, name: 'Pasarela de la prueba de copias' }),
  });
  const body = (await device.json()) as { secret: string };
  expect(device.status, JSON.stringify(body)).toBe(201);
  secret = body.secret;
});

afterAll(async () => {
  gatewayAgent.destroy();
  await server?.kill('SIGKILL');
  for (const c of cleanups.reverse()) await c().catch(() => undefined);
  await db?.drop();
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

let archive: string;

describe(`npm run backup / restore (${onPostgres ? 'PostgreSQL, pg_dump' : 'SQLite, online backup'})`, () => {
  it('copies the installation while readings arrive at 300/s, and the restored copy runs with every reading acknowledged before it', async () => {
    const stream = streamReadings(server!.baseUrl);
    // At least a second's worth stored before the copy starts, however busy the machine is.
    const leadStarted = Date.now();
    while (Date.now() - leadStarted < LEAD_MS || (stream.acked.length < RATE && Date.now() - leadStarted < 60_000)) {
      await new Promise((r) => setTimeout(r, 50));
    }
    const ackedBefore = [...stream.acked];
    const backupDir = path.join(work, 'copias');
    const backupStarted = performance.now();
    const made = await npmRun('backup', ['--dir', backupDir], { DATA_DIR: db.dataDir, DATABASE_URL: db.databaseUrl });
    const backupSeconds = (performance.now() - backupStarted) / 1000;
    const ackedAtEnd = stream.acked.length;
    await new Promise((r) => setTimeout(r, TAIL_MS));
    const seconds = await stream.stop();
    gatewayAgent.destroy(); // its kept-alive sockets, before the API is stopped
    expect(made.code, made.stderr + made.stdout).toBe(0);
    const reasons = new Map<string, number>();
    for (const f of stream.failures) reasons.set(f.replace(/^copia-\d+: /, ''), (reasons.get(f.replace(/^copia-\d+: /, '')) ?? 0) + 1);
    expect(Object.fromEntries(reasons), `first: ${stream.failures.slice(0, 3).join(' | ')}`).toEqual({});
    // The stream kept its rate, and the API kept storing while the copy was being made.
    expect(stream.sent()).toBeGreaterThanOrEqual(Math.floor(RATE * seconds * 0.9));
    expect(ackedAtEnd - ackedBefore.length).toBeGreaterThan(0);
    expect(ackedBefore.length).toBeGreaterThanOrEqual(RATE);
    expect(await server!.kill('SIGTERM')).toEqual({ code: 0, signal: null });
    server = null;

    const names = listDir(backupDir);
    expect(names).toHaveLength(2);
    archive = path.join(
      backupDir,
      names.find((n) => n.endsWith('.tar.gz'))!,
    );
    expect(path.basename(archive)).toMatch(new RegExp(`^vigia-\\d{8}T\\d{6}Z-${onPostgres ? 'postgres' : 'sqlite'}\\.tar\\.gz$`));
    expect(fs.readFileSync(`${archive}.sha256`, 'utf8')).toMatch(new RegExp(`^[0-9a-f]{64}  ${path.basename(archive)}\\n$`));
    // It holds the whole database and secrets.json: for the process's own user only.
    expect({ folder: modeOf(backupDir), archive: modeOf(archive), sum: modeOf(`${archive}.sha256`) }).toEqual({
      folder: '700',
      archive: '600',
      sum: '600',
    });
    console.log(
      `[faults/backup] ${stream.sent()} readings offered in ${seconds.toFixed(1)} s; ${ackedBefore.length} acknowledged before the backup, ${ackedAtEnd - ackedBefore.length} while it ran (${backupSeconds.toFixed(1)} s, ${fs.statSync(archive).size} bytes)`,
    );

    // A restore goes to an empty database (it refuses one that holds tables).
    const target = onPostgres
      ? await freshDatabase({ empty: true })
      : { dataDir: path.join(work, 'restaurado'), databaseUrl: null, jwtSecret: db.jwtSecret, drop: async () => {} };
    cleanups.push(() => target.drop());
    const restored = await npmRun('restore', [archive], { DATA_DIR: target.dataDir, DATABASE_URL: target.databaseUrl });
    expect(restored.code, restored.stderr + restored.stdout).toBe(0);
    expect(restored.stdout).toContain('Copia restaurada');
    expect(fs.readFileSync(path.join(target.dataDir, 'secrets.json'), 'utf8')).toBe(JSON.stringify({ jwt: db.jwtSecret }));
    expect(fs.readFileSync(path.join(target.dataDir, ATTACHMENT)).equals(attachment)).toBe(true);
    expect(listDir(target.dataDir).filter((n) => n.startsWith('.vigia-'))).toEqual([]);
    expect(listDir(work).filter((n) => n.startsWith('.vigia-'))).toEqual([]);
    if (!onPostgres) expect(await integrityCheck(path.join(target.dataDir, 'vigia.sqlite'))).toBe('ok');

    // The API on the restored copy: the demo users sign in.
    server = await spawnApi({ ...target, jwtSecret: db.jwtSecret });
    for (const email of DEMO_EMAILS) {
      const res = await signIn(server.baseUrl, email);
      expect(res.status, `${email}: ${res.text}`).toBe(201);
    }
    // The gateway's secret came back, and the restored database takes new rows (PostgreSQL's sequences restored too).
    expect(await sendReading(server.baseUrl, 'despues-001', new Date())).toBe(201);
    gatewayAgent.destroy();
    expect(await server.kill('SIGTERM')).toEqual({ code: 0, signal: null });
    server = null;

    const direct = openDirect(target);
    try {
      const rows = await direct.query<{ reading_id: string }>(
        "SELECT reading_id FROM measurements WHERE patient_id = :p AND reading_id IS NOT NULL AND reading_id <> 'despues-001'",
        { replacements: { p: patientId }, type: QueryTypes.SELECT },
      );
      const restoredIds = new Set(rows.map((r) => r.reading_id));
      expect(ackedBefore.filter((id) => !restoredIds.has(id))).toEqual([]);
      // Nothing in the copy that the device did not send (readings committed but answered after the
      // copy began may or may not be in it).
      const offered = stream.sent();
      expect(rows.filter((r) => !/^copia-\d{6}$/.test(r.reading_id) || Number(r.reading_id.slice(6)) >= offered)).toEqual([]);
    } finally {
      await direct.close();
    }
  });

  /** Runs restore on a damaged copy of the archive and checks that it refused, writing nothing anywhere. */
  async function expectRefused(file: string, message: RegExp, args: string[] = []) {
    const fresh = onPostgres ? await freshDatabase({ empty: true }) : null;
    if (fresh) cleanups.push(() => fresh.drop());
    // A folder of this test's own, so that what the rest of the machine writes to /tmp is not compared.
    const target = {
      dataDir: path.join(work, `destino-${crypto.randomBytes(3).toString('hex')}`),
      databaseUrl: fresh?.databaseUrl ?? null,
    };
    const parent = work;
    const before = listDir(parent);
    const run = await npmRun('restore', [file, ...args], { DATA_DIR: target.dataDir, DATABASE_URL: target.databaseUrl });
    expect(run.code, run.stderr + run.stdout).toBe(1);
    expect(run.stderr).toMatch(/^No se restauró nada: /);
    expect(run.stderr).toMatch(message);
    expect(fs.existsSync(target.dataDir)).toBe(false);
    expect(listDir(parent)).toEqual(before);
    if (target.databaseUrl) expect(await tableCount(target.databaseUrl)).toBe(0);
  }

  it('refuses a corrupted archive (one byte changed) by its checksum, writing nothing', async () => {
    expect(archive).toBeTruthy();
    const bad = path.join(work, 'dañada.tar.gz');
    const bytes = fs.readFileSync(archive);
    bytes[Math.floor(bytes.length / 2)] ^= 0xff;
    fs.writeFileSync(bad, bytes);
    fs.copyFileSync(`${archive}.sha256`, `${bad}.sha256`);
    await expectRefused(bad, /La suma SHA-256 de la copia no coincide/);
  });

  it('refuses a truncated archive even when its .sha256 was made again to match, writing nothing', async () => {
    expect(archive).toBeTruthy();
    const cut = path.join(work, 'cortada.tar.gz');
    const bytes = fs.readFileSync(archive);
    const part = bytes.subarray(0, Math.floor(bytes.length * 0.6));
    fs.writeFileSync(cut, part);
    fs.writeFileSync(`${cut}.sha256`, `${crypto.createHash('sha256').update(part).digest('hex')}  cortada.tar.gz\n`);
    await expectRefused(cut, /dañada o incompleta y no se pudo leer/);
  });

  it('refuses a DATA_DIR that is not empty, and on PostgreSQL a database that is not empty', async () => {
    expect(archive).toBeTruthy();
    const run = await npmRun('restore', [archive], { DATA_DIR: db.dataDir, DATABASE_URL: null });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/DATA_DIR .* no está vacío/);
    if (onPostgres) {
      const empty = fs.mkdtempSync(path.join(work, 'vacio-'));
      const again = await npmRun('restore', [archive], { DATA_DIR: empty, DATABASE_URL: db.databaseUrl });
      expect(again.code).toBe(1);
      expect(again.stderr).toMatch(/La base de datos de DATABASE_URL no está vacía/);
      expect(listDir(empty)).toEqual([]);
    }
  });

  let sealed: string;
  let identityFile: string;

  it('encrypts the archive to BACKUP_RECIPIENT, 0600 in its folder tightened to 0700, and restores it with the identity file to the same data', async () => {
    expect(archive).toBeTruthy();
    // Kept apart from the archives, as docs/operations.md says; made as an operator makes it.
    const keys = fs.mkdtempSync(path.join(work, 'claves-'));
    identityFile = path.join(keys, 'copias.key');
    const keygen = await npmRun('backup:keygen', [identityFile], { DATA_DIR: db.dataDir, DATABASE_URL: null });
    expect(keygen.code, keygen.stderr + keygen.stdout).toBe(0);
    const recipient = keygen.stdout.trim().split('\n').at(-1)!;
    expect(recipient).toMatch(/^age1[0-9a-z]{58}$/);
    expect(modeOf(identityFile)).toBe('600');
    const again = await npmRun('backup:keygen', [identityFile], { DATA_DIR: db.dataDir, DATABASE_URL: null });
    expect(again.stderr).toMatch(/ya existe: no se reemplaza una clave/);
    const backupDir = path.join(work, 'cifradas');
    fs.mkdirSync(backupDir);
    fs.chmodSync(backupDir, 0o755);

    const made = await npmRun('backup', ['--dir', backupDir], {
      DATA_DIR: db.dataDir,
      DATABASE_URL: db.databaseUrl,
      BACKUP_RECIPIENT: recipient,
    });
    expect(made.code, made.stderr + made.stdout).toBe(0);
    expect(made.stdout).toContain('Copia de seguridad cifrada');
    expect(made.stdout).toMatch(/tenía permisos 0755: ahora 0700/);
    const names = listDir(backupDir);
    expect(names).toEqual([expect.stringMatching(/\.tar\.gz\.age$/), expect.stringMatching(/\.tar\.gz\.age\.sha256$/)]);
    sealed = path.join(backupDir, names[0]);
    expect({ folder: modeOf(backupDir), archive: modeOf(sealed) }).toEqual({ folder: '700', archive: '600' });
    const bytes = fs.readFileSync(sealed);
    expect(bytes.subarray(0, 22).toString()).toBe('age-encryption.org/v1\n');
    expect(bytes.includes(Buffer.from(db.jwtSecret))).toBe(false);

    // A restore goes to an empty database (it refuses one that holds tables).
    const target = onPostgres
      ? await freshDatabase({ empty: true })
      : { dataDir: path.join(work, 'restaurado-cifrada'), databaseUrl: null, jwtSecret: db.jwtSecret, drop: async () => {} };
    cleanups.push(() => target.drop());
    const restored = await npmRun('restore', [sealed, '--identity', identityFile], {
      DATA_DIR: target.dataDir,
      DATABASE_URL: target.databaseUrl,
    });
    expect(restored.code, restored.stderr + restored.stdout).toBe(0);
    expect(fs.readFileSync(path.join(target.dataDir, 'secrets.json'), 'utf8')).toBe(JSON.stringify({ jwt: db.jwtSecret }));
    expect(fs.readFileSync(path.join(target.dataDir, ATTACHMENT)).equals(attachment)).toBe(true);
    expect(listDir(work).filter((n) => n.startsWith('.vigia-'))).toEqual([]);
    if (!onPostgres) expect(await integrityCheck(path.join(target.dataDir, 'vigia.sqlite'))).toBe('ok');
    // The API is stopped since the first test: the source and the copy must hold the same rows.
    const readings = async (t: { dataDir: string; databaseUrl: string | null }) => {
      const direct = openDirect(t);
      try {
        const rows = await direct.query<{ reading_id: string; value: number }>(
          'SELECT reading_id, value FROM measurements WHERE reading_id IS NOT NULL ORDER BY reading_id',
          { type: QueryTypes.SELECT },
        );
        const [users] = await direct.query<{ n: number }>('SELECT COUNT(*) AS n FROM users', { type: QueryTypes.SELECT });
        return { rows: rows.map((r) => `${r.reading_id}=${Number(r.value)}`), users: Number(users.n) };
      } finally {
        await direct.close();
      }
    };
    const [source, copy] = [await readings(db), await readings(target)];
    expect(source.rows.length).toBeGreaterThan(RATE);
    expect(copy).toEqual(source);
  });

  it('refuses an encrypted archive with another key, in Spanish, writing nothing', async () => {
    expect(sealed).toBeTruthy();
    const other = path.join(path.dirname(identityFile), 'otra.key');
    fs.writeFileSync(other, `${await generateX25519Identity()}\n`, { mode: 0o600 });
    await expectRefused(sealed, /La clave del archivo de identidad no abre esta copia/, ['--identity', other]);
    await expectRefused(sealed, /La copia está cifrada \(age\): indique el archivo de identidad/);
  });

  it('refuses a damaged encrypted archive by its checksum before opening it, and a truncated one whose checksum was remade, writing nothing', async () => {
    expect(sealed).toBeTruthy();
    const bytes = fs.readFileSync(sealed);
    const bad = path.join(work, 'dañada.tar.gz.age');
    const changed = Buffer.from(bytes);
    changed[Math.floor(changed.length / 2)] ^= 0xff;
    fs.writeFileSync(bad, changed);
    fs.copyFileSync(`${sealed}.sha256`, `${bad}.sha256`);
    await expectRefused(bad, /La suma SHA-256 de la copia no coincide/, ['--identity', identityFile]);

    const cut = path.join(work, 'cortada.tar.gz.age');
    const part = bytes.subarray(0, Math.floor(bytes.length * 0.6));
    fs.writeFileSync(cut, part);
    fs.writeFileSync(`${cut}.sha256`, `${crypto.createHash('sha256').update(part).digest('hex')}  cortada.tar.gz.age\n`);
    await expectRefused(cut, /La copia cifrada está dañada o incompleta/, ['--identity', identityFile]);
  });

  it("makes the daily backup encrypted to BACKUP_RECIPIENT and logs its success at info with the archive's name, not scrubbed", async () => {
    const lines: string[] = [];
    const logger = createLogger({ level: 'info', format: 'json', file: null }, { write: (line: string) => void lines.push(line) });
    // A slot two hours ahead: the API of the first test may have taken the current hour's slot already.
    const at = new Date(Math.floor(Date.now() / 3600_000) * 3600_000 + 2 * 3600_000 + 30_000);
    const backupDir = path.join(work, 'diarias');
    const saved = { hour: process.env.BACKUP_HOUR, dir: process.env.BACKUP_DIR, recipient: process.env.BACKUP_RECIPIENT };
    process.env.BACKUP_HOUR = String(at.getUTCHours());
    process.env.BACKUP_DIR = backupDir;
    process.env.BACKUP_RECIPIENT = await identityToRecipient(await generateX25519Identity());
    let product: TestProduct | null = null;
    try {
      product = await bootOn(db, { logger });
      expect(await product.jobs.runDue({ now: at, kinds: ['backup.daily'] })).toBe(1);
    } finally {
      await product?.stop();
      for (const [key, value] of [
        ['BACKUP_HOUR', saved.hour],
        ['BACKUP_DIR', saved.dir],
        ['BACKUP_RECIPIENT', saved.recipient],
      ] as const)
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
    }
    const name = listDir(backupDir).find((n) => n.endsWith('.tar.gz.age'));
    expect(name).toBe(`vigia-${at.toISOString().slice(0, 19).replace(/[-:]/g, '')}Z-${onPostgres ? 'postgres' : 'sqlite'}.tar.gz.age`);
    expect(modeOf(path.join(backupDir, name!))).toBe('600');
    const entries = lines
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((e) => String(e.msg).startsWith('copia de seguridad'));
    expect(entries.map((e) => ({ level: e.level, msg: e.msg, backup_file: e.backup_file }))).toEqual([
      { level: 'info', msg: 'copia de seguridad diaria hecha', backup_file: name },
    ]);
    expect(entries[0].bytes).toBe(fs.statSync(path.join(backupDir, name!)).size);
    expect(entries[0].encrypted).toBe(true);
  });
});
