import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { Decrypter, Encrypter } from 'age-encryption';
import sqlite3 from 'sqlite3';
import { QueryTypes, Sequelize } from 'sequelize';
import type { ManifestFile } from './backups.rules.js';

/** What the archive's making and restoring both need: hashes, folder walks, SQLite and the PostgreSQL tools. */

export async function sha256File(file: string): Promise<string> {
  const hash = crypto.createHash('sha256');
  for await (const chunk of fs.createReadStream(file, { highWaterMark: 1 << 20 })) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Archives and everything on the way to them: only the process's own user reads them (they hold secrets.json). */
export const PRIVATE_FILE = 0o600;
export const PRIVATE_DIR = 0o700;

/**
 * The folder the archives go into, made 0700 or, when it exists open to others, tightened to 0700.
 * Answers its mode before when it was open to others, and whether the tightening worked: a folder
 * of another user (a mounted share) cannot be changed, and the backup still goes on, its files
 * 0600, rather than stop making copies over a folder's mode.
 */
export function preparePrivateDir(dir: string): { before: number; tightened: boolean } | null {
  if (!fs.existsSync(dir)) {
    fs.mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR });
    // mkdir's mode passes through the umask; chmod states it whole.
    fs.chmodSync(dir, PRIVATE_DIR);
    return null;
  }
  const before = fs.statSync(dir).mode & 0o777;
  if ((before & 0o077) === 0) return null;
  try {
    fs.chmodSync(dir, PRIVATE_DIR);
    return { before, tightened: true };
  } catch {
    return { before, tightened: false };
  }
}

/**
 * Encrypts `source` into `dest` (created 0600, never over an existing file) for the age recipient,
 * as a stream: the library works in 64 KiB chunks, so memory stays flat whatever the archive's size.
 */
export async function encryptFile(source: string, dest: string, recipient: string): Promise<void> {
  const encrypter = new Encrypter();
  encrypter.addRecipient(recipient);
  const plain = Readable.toWeb(fs.createReadStream(source, { highWaterMark: 1 << 20 })) as unknown as ReadableStream<Uint8Array>;
  const sealed = await encrypter.encrypt(plain);
  await pipeline(
    Readable.fromWeb(sealed as unknown as WebReadableStream<Uint8Array>),
    fs.createWriteStream(dest, { flags: 'wx', mode: PRIVATE_FILE }),
  );
}

/** Why an age file could not be opened: the key is not its recipient's, or the file is not sound. */
export class DecryptRefused extends Error {
  constructor(
    readonly reason: 'bad-identity' | 'wrong-key' | 'damaged',
    detail: string,
  ) {
    super(detail);
  }
}

/**
 * Reads an age file's header with the given identities and answers the plaintext as a stream.
 * The header is checked here, before the caller writes anything: a key that is not the file's
 * recipient is known at this point. The payload is authenticated chunk by chunk as it is read,
 * so a changed byte makes the stream fail rather than yield altered data.
 */
export async function openDecrypted(file: string, identities: string[]): Promise<Readable> {
  const decrypter = new Decrypter();
  try {
    // The library decodes each key here (bech32 and its checksum): a mistyped line is told apart from a wrong key.
    for (const identity of identities) decrypter.addIdentity(identity);
  } catch (err) {
    throw new DecryptRefused('bad-identity', err instanceof Error ? err.message : String(err));
  }
  const source = fs.createReadStream(file, { highWaterMark: 1 << 20 });
  let plain: ReadableStream<Uint8Array>;
  try {
    plain = await decrypter.decrypt(Readable.toWeb(source) as unknown as ReadableStream<Uint8Array>);
  } catch (err) {
    source.destroy();
    const message = err instanceof Error ? err.message : String(err);
    throw new DecryptRefused(/no identity matched/.test(message) ? 'wrong-key' : 'damaged', message);
  }
  return Readable.fromWeb(plain as unknown as WebReadableStream<Uint8Array>);
}

/** Every regular file under `root`, as '/'-separated relative paths, sorted. Symbolic links are not followed. */
export function listFiles(root: string, keep: (relative: string) => boolean = () => true): string[] {
  const out: string[] = [];
  const walk = (dir: string, prefix: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const rel = prefix ? `${prefix}/${e.name}` : e.name;
      if (!keep(rel)) continue;
      if (e.isDirectory()) walk(path.join(dir, e.name), rel);
      else if (e.isFile()) out.push(rel);
    }
  };
  if (fs.existsSync(root)) walk(root, '');
  return out.sort();
}

export async function describeFiles(root: string, relatives: string[]): Promise<ManifestFile[]> {
  const out: ManifestFile[] = [];
  for (const rel of relatives) {
    const file = path.join(root, ...rel.split('/'));
    out.push({ path: rel, size: fs.statSync(file).size, sha256: await sha256File(file) });
  }
  return out;
}

/** node-sqlite3's online backup (its typings leave it out). */
interface SqliteBackup {
  step(pages: number, cb: (err: Error | null) => void): void;
  finish(cb?: (err: Error | null) => void): void;
  completed: boolean;
  failed: boolean;
}
type WithBackup = sqlite3.Database & { backup(file: string, cb: (err: Error | null) => void): SqliteBackup };

function openSqlite(file: string, mode: number): Promise<sqlite3.Database> {
  return new Promise((resolve, reject) => {
    const db = new sqlite3.Database(file, mode, (err) => (err ? reject(err) : resolve(db)));
  });
}
const closeSqlite = (db: sqlite3.Database) => new Promise<void>((resolve) => db.close(() => resolve()));
const allSqlite = <T>(db: sqlite3.Database, sql: string) =>
  new Promise<T[]>((resolve, reject) => db.all(sql, (err, rows) => (err ? reject(err) : resolve(rows as T[]))));

/**
 * Copies the live database into `dest` with SQLite's online backup, all pages in one step: one
 * read transaction, so the copy is the database as it was at one instant. In WAL mode a reader
 * never holds up the writer, so the API keeps storing readings meanwhile (a step of a few pages at
 * a time would instead start over each time the API wrote).
 */
export async function copySqlite(source: string, dest: string): Promise<void> {
  const db = (await openSqlite(source, sqlite3.OPEN_READONLY)) as WithBackup;
  try {
    await new Promise<void>((resolve, reject) => db.run('PRAGMA busy_timeout = 5000', (err) => (err ? reject(err) : resolve())));
    let backup!: SqliteBackup;
    await new Promise<void>((resolve, reject) => {
      backup = db.backup(dest, (err) => (err ? reject(err) : resolve()));
    });
    try {
      await new Promise<void>((resolve, reject) => backup.step(-1, (err) => (err ? reject(err) : resolve())));
      if (!backup.completed || backup.failed) throw new Error('La copia en línea de SQLite no terminó.');
    } finally {
      await new Promise<void>((resolve) => backup.finish(() => resolve()));
    }
  } finally {
    await closeSqlite(db);
  }
}

/**
 * The last migration applied, read-only; with `integrity`, also PRAGMA integrity_check's answer
 * ('ok' when sound), which reads every page: restore asks for it, the backup does not.
 */
export async function inspectSqlite(
  file: string,
  opts: { integrity?: boolean } = {},
): Promise<{ integrity: string | null; schemaVersion: string | null }> {
  const db = await openSqlite(file, sqlite3.OPEN_READONLY);
  try {
    const check = opts.integrity ? await allSqlite<{ integrity_check: string }>(db, 'PRAGMA integrity_check') : null;
    const integrity = check ? check.map((r) => r.integrity_check).join('; ') : null;
    const tables = await allSqlite<{ n: number }>(
      db,
      "SELECT COUNT(*) AS n FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'",
    );
    const last = tables[0].n ? await allSqlite<{ name: string }>(db, 'SELECT name FROM schema_migrations ORDER BY name DESC LIMIT 1') : [];
    return { integrity, schemaVersion: last[0]?.name ?? null };
  } finally {
    await closeSqlite(db);
  }
}

/**
 * libpq's environment for a postgres:// URL: the password travels in PGPASSWORD, not on a command
 * line that `ps` shows.
 */
export function pgEnvironment(url: string): NodeJS.ProcessEnv {
  const u = new URL(url);
  const env: NodeJS.ProcessEnv = { ...process.env };
  env.PGHOST = decodeURIComponent(u.hostname) || 'localhost';
  env.PGPORT = u.port || '5432';
  env.PGDATABASE = decodeURIComponent(u.pathname.replace(/^\//, ''));
  if (u.username) env.PGUSER = decodeURIComponent(u.username);
  if (u.password) env.PGPASSWORD = decodeURIComponent(u.password);
  const sslmode = u.searchParams.get('sslmode');
  if (sslmode) env.PGSSLMODE = sslmode;
  return env;
}

/** Runs a PostgreSQL client tool; rejects with its own error text (it names the cause). */
export function runTool(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let err = '';
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => (err = (err + c.toString()).slice(-4000)));
    child.on('error', (e: NodeJS.ErrnoException) =>
      reject(
        new Error(e.code === 'ENOENT' ? `No se encontró ${command}: instale el cliente de PostgreSQL (postgresql-client).` : e.message),
      ),
    );
    child.on('close', (code) =>
      code === 0 ? resolve(Buffer.concat(out).toString()) : reject(new Error(`${command} falló (${code}): ${err.trim()}`)),
    );
  });
}

/**
 * pg_dump refuses a server of a newer major version than its own, in English and after
 * connecting; this says it first, in Spanish, with the package to install.
 */
export async function assertPgDumpFits(url: string): Promise<void> {
  const tool = Number(/(\d+)(\.\d+)?/.exec(await runTool('pg_dump', ['--version'], process.env))?.[1]);
  const sequelize = new Sequelize(url, { logging: false });
  let server: number;
  try {
    const [row] = await sequelize.query<{ server_version_num: string }>('SHOW server_version_num', { type: QueryTypes.SELECT });
    server = Math.floor(Number(row.server_version_num) / 10000);
  } finally {
    await sequelize.close();
  }
  if (tool < server)
    throw new Error(
      `pg_dump ${tool} es más antiguo que el servidor PostgreSQL ${server}: instale postgresql-client-${server} (o más nuevo).`,
    );
}

/**
 * The last migration recorded in a custom-format dump, read from the dump itself (its
 * schema_migrations rows as COPY text): the version is that of the copied data, whatever ran after.
 */
export async function dumpSchemaVersion(dump: string): Promise<string | null> {
  const text = await runTool('pg_restore', ['--data-only', '--table=schema_migrations', '--file=-', dump], process.env);
  const names: string[] = [];
  let inCopy = false;
  for (const line of text.split('\n')) {
    if (line.startsWith('COPY ') && line.includes('schema_migrations')) inCopy = true;
    else if (inCopy && line === '\\.') inCopy = false;
    else if (inCopy && line) names.push(line.split('\t')[0]);
  }
  return names.sort().at(-1) ?? null;
}
