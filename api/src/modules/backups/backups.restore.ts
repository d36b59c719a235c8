import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import { QueryTypes, Sequelize } from 'sequelize';
import * as tar from 'tar';
import {
  archiveKind,
  checkManifest,
  compareWithManifest,
  DATABASE_ENTRY,
  isSafeEntryPath,
  MANIFEST_NAME,
  parseChecksumLine,
  parseIdentityFile,
  type BackupDialect,
  type Manifest,
} from './backups.rules.js';
import {
  DecryptRefused,
  describeFiles,
  dumpSchemaVersion,
  inspectSqlite,
  listFiles,
  openDecrypted,
  pgEnvironment,
  PRIVATE_FILE,
  runTool,
  sha256File,
} from './backups.files.js';

/** A restore that did not happen, with the sentence the operator reads; nothing was written. */
export class RestoreRefused extends Error {}

/** The target database holds no table, sequence or view of its own (a fresh CREATE DATABASE). */
async function isEmptyPostgres(url: string): Promise<boolean> {
  const sequelize = new Sequelize(url, { logging: false });
  try {
    const rows = await sequelize.query<{ n: number }>(
      `SELECT COUNT(*)::int AS n FROM pg_class c JOIN pg_namespace s ON s.oid = c.relnamespace
       WHERE s.nspname NOT IN ('pg_catalog', 'information_schema') AND s.nspname NOT LIKE 'pg_toast%' AND s.nspname NOT LIKE 'pg_temp%'`,
      { type: QueryTypes.SELECT },
    );
    return rows[0].n === 0;
  } finally {
    await sequelize.close();
  }
}

function isEmptyDir(dir: string): boolean {
  if (!fs.existsSync(dir)) return true;
  return fs.statSync(dir).isDirectory() && fs.readdirSync(dir).length === 0;
}

/** Unpacks into `into`; any entry that is not a file or folder at a path of ours refuses the archive. */
async function unpack(archive: string, into: string): Promise<void> {
  const odd: string[] = [];
  try {
    await tar.extract({
      file: archive,
      cwd: into,
      strict: true,
      filter: (p, entry) => {
        const type = 'type' in entry ? entry.type : 'File';
        // Folders are allowed for an archive packed again by hand (GNU tar lists them); links never.
        const ok =
          (type === 'File' && (p === MANIFEST_NAME || isSafeEntryPath(p))) ||
          (type === 'Directory' && isSafeEntryPath(p.replace(/\/$/, '')));
        if (!ok) odd.push(p);
        return ok;
      },
    });
  } catch (err) {
    throw new RestoreRefused(`La copia está dañada o incompleta y no se pudo leer (${err instanceof Error ? err.message : String(err)}).`);
  }
  if (odd.length) throw new RestoreRefused(`La copia trae entradas que Vigía no escribe: ${odd.slice(0, 3).join(', ')}.`);
}

function readHead(file: string, bytes: number): Buffer {
  const fd = fs.openSync(file, 'r');
  try {
    const head = Buffer.alloc(bytes);
    return head.subarray(0, fs.readSync(fd, head, 0, bytes, 0));
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * An age-encrypted archive opened with the identity file: its header is checked here, before any
 * folder is made, so a missing or wrong key refuses with nothing written.
 */
async function openEncryptedArchive(archive: string, identityFile: string | null | undefined): Promise<Readable> {
  if (!identityFile)
    throw new RestoreRefused(
      'La copia está cifrada (age): indique el archivo de identidad con la clave privada, con --identity ARCHIVO o BACKUP_IDENTITY_FILE.',
    );
  let text: string;
  try {
    text = fs.readFileSync(identityFile, 'utf8');
  } catch (err) {
    throw new RestoreRefused(
      `No se pudo leer el archivo de identidad ${identityFile} (${(err as NodeJS.ErrnoException).code ?? 'error'}).`,
    );
  }
  const identities = parseIdentityFile(text);
  if (!identities.ok) throw new RestoreRefused(identities.message);
  try {
    return await openDecrypted(archive, identities.value);
  } catch (err) {
    if (err instanceof DecryptRefused && err.reason === 'bad-identity')
      throw new RestoreRefused(
        `El archivo de identidad trae una clave que no es válida (${err.message}): revise que se copió entera, tal como la escribió npm run backup:keygen o age-keygen.`,
      );
    if (err instanceof DecryptRefused && err.reason === 'wrong-key')
      throw new RestoreRefused(
        'La clave del archivo de identidad no abre esta copia: fue cifrada para otra clave pública (BACKUP_RECIPIENT). Use la identidad que corresponde a la clave con que se hizo.',
      );
    throw new RestoreRefused(`La copia cifrada está dañada: su encabezado no se pudo leer (${(err as Error).message}).`);
  }
}

/**
 * `npm run restore -- FILE`: into an empty DATA_DIR (and, on PostgreSQL, an empty database) only.
 * Checks the archive against its .sha256, each file against the manifest, the schema against the
 * migrations this code has, and SQLite's integrity_check, all in a hidden folder beside DATA_DIR
 * that becomes DATA_DIR by one rename once everything passed. pg_restore runs in one
 * transaction, so a dump that fails halfway leaves the database empty. An age-encrypted archive
 * (BACKUP_RECIPIENT) is checked against its .sha256 as it lies, then opened with `identityFile`
 * and decrypted into that hidden folder, then restored like a plain one.
 */
export async function restoreBackup(input: {
  archive: string;
  dataDir: string;
  databaseUrl: string | null;
  knownMigrations: readonly string[];
  identityFile?: string | null;
}): Promise<Manifest> {
  const { archive, dataDir, databaseUrl } = input;
  const dialect: BackupDialect = databaseUrl ? 'postgres' : 'sqlite';
  if (!fs.existsSync(archive) || !fs.statSync(archive).isFile()) throw new RestoreRefused(`No existe el archivo ${archive}.`);
  if (!isEmptyDir(dataDir))
    throw new RestoreRefused(`DATA_DIR (${dataDir}) no está vacío: la restauración solo escribe en una carpeta vacía o que no existe.`);
  if (databaseUrl && !(await isEmptyPostgres(databaseUrl)))
    throw new RestoreRefused('La base de datos de DATABASE_URL no está vacía: cree una nueva (createdb) y restaure en ella.');

  const sumFile = `${archive}.sha256`;
  if (!fs.existsSync(sumFile)) throw new RestoreRefused(`Falta la suma de control ${sumFile} junto a la copia.`);
  const expected = parseChecksumLine(fs.readFileSync(sumFile, 'utf8'));
  if (!expected) throw new RestoreRefused(`El archivo ${sumFile} no contiene una suma SHA-256.`);
  if ((await sha256File(archive)) !== expected)
    throw new RestoreRefused('La suma SHA-256 de la copia no coincide con su archivo .sha256: la copia está dañada o incompleta.');

  const kind = archiveKind(readHead(archive, 64));
  if (kind === 'age-armored')
    throw new RestoreRefused('La copia está cifrada en formato de texto (armor): Vigía escribe el binario; descífrela antes con age -d.');
  const decrypted = kind === 'age' ? await openEncryptedArchive(archive, input.identityFile) : null;

  const parent = path.dirname(path.resolve(dataDir));
  let staging: string | null = null;
  try {
    fs.mkdirSync(parent, { recursive: true });
    staging = fs.mkdtempSync(path.join(parent, `.vigia-restore-${crypto.randomBytes(3).toString('hex')}-`));
    let tarball = archive;
    if (decrypted) {
      tarball = path.join(staging, 'archive.tar.gz');
      try {
        // Streamed to a 0600 file in the 0700 staging folder; age authenticates each 64 KiB chunk, so a changed byte fails here.
        await pipeline(decrypted, fs.createWriteStream(tarball, { flags: 'wx', mode: PRIVATE_FILE }));
      } catch (err) {
        // A system error (ENOSPC, EACCES) is the disk's, not the archive's.
        const code = (err as NodeJS.ErrnoException).code;
        if (code && /^E[A-Z]+$/.test(code))
          throw new RestoreRefused(`No se pudo escribir la copia descifrada junto a DATA_DIR, en ${parent} (${code}).`);
        throw new RestoreRefused(`La copia cifrada está dañada o incompleta: no se pudo descifrar (${(err as Error).message}).`);
      }
    }
    const unpacked = path.join(staging, 'archive');
    fs.mkdirSync(unpacked);
    await unpack(tarball, unpacked);
    const manifestFile = path.join(unpacked, MANIFEST_NAME);
    let raw: unknown = null;
    try {
      raw = JSON.parse(fs.readFileSync(manifestFile, 'utf8'));
    } catch {
      // checkManifest names the problem
    }
    const checked = checkManifest(raw, input.knownMigrations, dialect);
    if (!checked.ok) throw new RestoreRefused(checked.message);
    const manifest = checked.value;
    const found = await describeFiles(
      unpacked,
      listFiles(unpacked).filter((p) => p !== MANIFEST_NAME),
    );
    const difference = compareWithManifest(manifest.files, found);
    if (difference) throw new RestoreRefused(difference);

    const dbFile = path.join(unpacked, ...DATABASE_ENTRY[dialect].split('/'));
    const schemaVersion = dialect === 'sqlite' ? await checkSqlite(dbFile) : await dumpSchemaVersion(dbFile).catch(() => null);
    if (schemaVersion !== manifest.schema_version)
      throw new RestoreRefused(
        `La base de datos copiada tiene el esquema "${schemaVersion}" y el manifiesto dice "${manifest.schema_version}".`,
      );

    const newData = path.join(unpacked, 'files');
    if (!fs.existsSync(newData)) fs.mkdirSync(newData);
    fs.chmodSync(newData, 0o700);
    if (dialect === 'sqlite') fs.renameSync(dbFile, path.join(newData, 'vigia.sqlite'));
    else {
      const env = pgEnvironment(databaseUrl!);
      try {
        await runTool(
          'pg_restore',
          ['--single-transaction', '--exit-on-error', '--no-owner', '--no-privileges', `--dbname=${env.PGDATABASE}`, dbFile],
          env,
        );
      } catch (err) {
        throw new RestoreRefused(`pg_restore no pudo restaurar la copia; la base de datos quedó vacía (${(err as Error).message}).`);
      }
    }
    // rename(2) replaces an empty directory, so an existing empty DATA_DIR is taken over as well.
    fs.renameSync(newData, dataDir);
    return manifest;
  } finally {
    decrypted?.destroy();
    if (staging) fs.rmSync(staging, { recursive: true, force: true });
  }
}

async function checkSqlite(file: string): Promise<string | null> {
  let found: Awaited<ReturnType<typeof inspectSqlite>>;
  try {
    found = await inspectSqlite(file, { integrity: true });
  } catch (err) {
    throw new RestoreRefused(`La base de datos de la copia no se puede abrir: ${(err as Error).message}.`);
  }
  if (found.integrity !== 'ok')
    throw new RestoreRefused(`La base de datos de la copia no pasa PRAGMA integrity_check: ${String(found.integrity).slice(0, 300)}`);
  return found.schemaVersion;
}
