import fs from 'node:fs';
import path from 'node:path';
import * as tar from 'tar';
import type { Sequelize } from 'sequelize';
import type { JobRunner } from '../../jobs/queue.js';
import {
  backupFileName,
  backupsToRemove,
  checksumLine,
  DATABASE_ENTRY,
  isBackupHour,
  isDataFileToCopy,
  MANIFEST_NAME,
  readBackupSettings,
  type BackupDialect,
  type Manifest,
} from './backups.rules.js';
import {
  assertPgDumpFits,
  copySqlite,
  describeFiles,
  dumpSchemaVersion,
  encryptFile,
  inspectSqlite,
  listFiles,
  pgEnvironment,
  preparePrivateDir,
  PRIVATE_FILE,
  runTool,
  sha256File,
} from './backups.files.js';

/** The database to copy: SQLite's file, or a PostgreSQL database by URL. */
export type BackupSource = { dialect: 'sqlite'; file: string } | { dialect: 'postgres'; url: string };

export interface BackupResult {
  archive: string;
  bytes: number;
  sha256: string;
  manifest: Manifest;
  encrypted: boolean;
  /** What the caller says in its log when the folder was open to others: tightened, or could not be. */
  folderNote: string | null;
}

/** The sentence an operator reads about the archives' folder, for the log and the command's output. */
function describeFolder(dir: string, found: { before: number; tightened: boolean }): string {
  const mode = found.before.toString(8).padStart(4, '0');
  return found.tightened
    ? `la carpeta de las copias ${dir} tenía permisos ${mode}: ahora 0700 (solo su dueño la lee)`
    : `la carpeta de las copias ${dir} tiene permisos ${mode} y no se pudieron restringir a 0700 (no es de este usuario): las copias son 0600, pero otros ven sus nombres`;
}

/**
 * gzip's fastest level: the archive is mostly SQLite pages or an already compressed dump, so a
 * higher level buys a few percent of size for several times the time (bench/README.md), and the
 * daily copy runs beside the API.
 */
const GZIP_LEVEL = 1;

/** The database of a running app, as the daily job sees it. */
function backupSourceOf(sequelize: Sequelize): BackupSource {
  if (sequelize.getDialect() === 'postgres') {
    const c = sequelize.config;
    const u = new URL('postgres://localhost');
    u.hostname = c.host ?? 'localhost';
    u.port = String(c.port ?? 5432);
    u.pathname = `/${c.database}`;
    if (c.username) u.username = encodeURIComponent(c.username);
    if (c.password) u.password = encodeURIComponent(c.password);
    return { dialect: 'postgres', url: u.toString() };
  }
  return { dialect: 'sqlite', file: (sequelize as unknown as { options: { storage: string } }).options.storage };
}

/**
 * One archive of the installation: the database copied at one instant, then what else DATA_DIR
 * holds (secrets.json, chat attachments). Files come after the database, so every file a copied
 * row names is there (a file is written before its row and never deleted). Everything is staged
 * in a hidden folder of `backupDir` and the archive appears under its final name only when whole,
 * with its `.sha256` beside it. The archive holds secrets.json (the key that signs sessions), so
 * everything is written 0600 in 0700 folders; with `recipient` (BACKUP_RECIPIENT) the archive is
 * encrypted to that age key and only its holder can read it, wherever it is copied.
 */
export async function makeBackup(input: {
  source: BackupSource;
  dataDir: string;
  backupDir: string;
  now: Date;
  recipient?: string | null;
}): Promise<BackupResult> {
  const { source, dataDir, backupDir } = input;
  // Each archive would otherwise hold every earlier one.
  if (path.resolve(backupDir) === path.resolve(dataDir))
    throw new Error('La carpeta de las copias no puede ser DATA_DIR misma: use una subcarpeta (backups) u otra carpeta.');
  const folder = preparePrivateDir(backupDir);
  // mkdtemp makes it 0700.
  const staging = fs.mkdtempSync(path.join(backupDir, '.vigia-backup-'));
  try {
    const dialect: BackupDialect = source.dialect;
    const dbEntry = path.join(staging, ...DATABASE_ENTRY[dialect].split('/'));
    fs.mkdirSync(path.dirname(dbEntry), { recursive: true });
    let schemaVersion: string | null;
    if (source.dialect === 'sqlite') {
      await copySqlite(source.file, dbEntry);
      fs.chmodSync(dbEntry, PRIVATE_FILE);
      schemaVersion = (await inspectSqlite(dbEntry)).schemaVersion;
    } else {
      await assertPgDumpFits(source.url);
      await runTool('pg_dump', ['--format=custom', '--no-owner', '--no-privileges', `--file=${dbEntry}`], pgEnvironment(source.url));
      fs.chmodSync(dbEntry, PRIVATE_FILE);
      schemaVersion = await dumpSchemaVersion(dbEntry);
    }
    if (!schemaVersion) throw new Error('La base de datos no tiene migraciones aplicadas: no hay nada que copiar.');

    const backupRel = path.relative(dataDir, backupDir).split(path.sep).join('/');
    const inside = backupRel && !backupRel.startsWith('..') && !path.isAbsolute(backupRel) ? backupRel : null;
    const dataFiles = listFiles(dataDir, (rel) => isDataFileToCopy(rel, inside));
    for (const rel of dataFiles) {
      const to = path.join(staging, 'files', ...rel.split('/'));
      fs.mkdirSync(path.dirname(to), { recursive: true });
      fs.copyFileSync(path.join(dataDir, ...rel.split('/')), to);
      fs.chmodSync(to, PRIVATE_FILE);
    }
    const entries = [DATABASE_ENTRY[dialect], ...dataFiles.map((rel) => `files/${rel}`)];
    const manifest: Manifest = {
      format: 1,
      product: 'vigia',
      created_at: input.now.toISOString(),
      database: dialect,
      schema_version: schemaVersion,
      files: await describeFiles(staging, entries),
    };
    fs.writeFileSync(path.join(staging, MANIFEST_NAME), `${JSON.stringify(manifest, null, 2)}\n`, { mode: PRIVATE_FILE });

    const encrypted = Boolean(input.recipient);
    const name = backupFileName(input.now, dialect, encrypted);
    const tarball = path.join(staging, backupFileName(input.now, dialect));
    await tar.create({ gzip: { level: GZIP_LEVEL }, file: tarball, cwd: staging, portable: true }, [MANIFEST_NAME, ...entries]);
    fs.chmodSync(tarball, PRIVATE_FILE);
    const partial = encrypted ? `${tarball}.age` : tarball;
    if (input.recipient) await encryptFile(tarball, partial, input.recipient);
    // The checksum is of the file as it lies on disk (encrypted or not), so restore checks it before opening anything.
    const sha256 = await sha256File(partial);
    const archive = path.join(backupDir, name);
    fs.writeFileSync(`${archive}.sha256`, checksumLine(sha256, name), { mode: PRIVATE_FILE });
    fs.renameSync(partial, archive);
    return {
      archive,
      bytes: fs.statSync(archive).size,
      sha256,
      manifest,
      encrypted,
      folderNote: folder && describeFolder(backupDir, folder),
    };
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}

/** Deletes the oldest archives (and their .sha256) beyond the newest `keep`; answers their names. */
export function pruneBackups(backupDir: string, keep: number): string[] {
  const gone = backupsToRemove(fs.existsSync(backupDir) ? fs.readdirSync(backupDir) : [], keep);
  for (const name of gone) {
    fs.rmSync(path.join(backupDir, name), { force: true });
    fs.rmSync(path.join(backupDir, `${name}.sha256`), { force: true });
  }
  return gone;
}

const BACKUP_KIND = 'backup.daily';

/** What the daily job writes its lines with: the app's logger (pino's `info(fields, msg)`), or the plain log. */
export interface BackupLogger {
  info(fields: object, msg: string): void;
  warn(fields: object, msg: string): void;
}

/**
 * The API's own daily backup: an hourly slot of the job queue (so two processes on one PostgreSQL
 * make it once) that acts only in the hour BACKUP_HOUR names, then keeps the newest BACKUP_KEEP.
 * The settings are read at start-up, so a wrong value stops the start with its message.
 */
export function registerBackupJob(deps: {
  jobs: JobRunner;
  dataDir: string;
  log: (msg: string, err?: unknown) => void;
  logger?: BackupLogger;
  env?: Record<string, string | undefined>;
}): void {
  const settings = readBackupSettings(deps.env ?? process.env, deps.dataDir);
  const logger: BackupLogger = deps.logger ?? { info: (_f, msg) => deps.log(msg), warn: (_f, msg) => deps.log(msg) };
  deps.jobs.every({
    kind: BACKUP_KIND,
    everyMs: 3600_000,
    handler: async ({ now, sequelize }) => {
      if (!isBackupHour(now, settings.hour)) return;
      try {
        const made = await makeBackup({
          source: backupSourceOf(sequelize),
          dataDir: deps.dataDir,
          backupDir: settings.dir,
          now,
          recipient: settings.recipient,
        });
        if (made.folderNote) logger.warn({}, made.folderNote);
        const removed = pruneBackups(settings.dir, settings.keep);
        // A success is news, not a warning. The name (our own, a time and a database) is under
        // backup_file, which the log redaction passes as the API wrote it: scrubbed as a sentence,
        // its digits read as a document number.
        logger.info(
          { backup_file: path.basename(made.archive), bytes: made.bytes, encrypted: made.encrypted, removed: removed.length },
          'copia de seguridad diaria hecha',
        );
      } catch (err) {
        deps.log('copia de seguridad diaria fallida', err);
        throw err;
      }
    },
  });
}
