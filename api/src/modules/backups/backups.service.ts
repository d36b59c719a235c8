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
  inspectSqlite,
  listFiles,
  pgEnvironment,
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
 * with its `.sha256` beside it.
 */
export async function makeBackup(input: { source: BackupSource; dataDir: string; backupDir: string; now: Date }): Promise<BackupResult> {
  const { source, dataDir, backupDir } = input;
  // Each archive would otherwise hold every earlier one.
  if (path.resolve(backupDir) === path.resolve(dataDir))
    throw new Error('La carpeta de las copias no puede ser DATA_DIR misma: use una subcarpeta (backups) u otra carpeta.');
  fs.mkdirSync(backupDir, { recursive: true });
  const staging = fs.mkdtempSync(path.join(backupDir, '.vigia-backup-'));
  try {
    const dialect: BackupDialect = source.dialect;
    const dbEntry = path.join(staging, ...DATABASE_ENTRY[dialect].split('/'));
    fs.mkdirSync(path.dirname(dbEntry), { recursive: true });
    let schemaVersion: string | null;
    if (source.dialect === 'sqlite') {
      await copySqlite(source.file, dbEntry);
      schemaVersion = (await inspectSqlite(dbEntry)).schemaVersion;
    } else {
      await assertPgDumpFits(source.url);
      await runTool('pg_dump', ['--format=custom', '--no-owner', '--no-privileges', `--file=${dbEntry}`], pgEnvironment(source.url));
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
    fs.writeFileSync(path.join(staging, MANIFEST_NAME), `${JSON.stringify(manifest, null, 2)}\n`);

    const name = backupFileName(input.now, dialect);
    const partial = path.join(staging, name);
    await tar.create({ gzip: { level: GZIP_LEVEL }, file: partial, cwd: staging, portable: true }, [MANIFEST_NAME, ...entries]);
    const sha256 = await sha256File(partial);
    const archive = path.join(backupDir, name);
    fs.writeFileSync(`${archive}.sha256`, checksumLine(sha256, name));
    fs.renameSync(partial, archive);
    return { archive, bytes: fs.statSync(archive).size, sha256, manifest };
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

/**
 * The API's own daily backup: an hourly slot of the job queue (so two processes on one PostgreSQL
 * make it once) that acts only in the hour BACKUP_HOUR names, then keeps the newest BACKUP_KEEP.
 * The settings are read at start-up, so a wrong value stops the start with its message.
 */
export function registerBackupJob(deps: {
  jobs: JobRunner;
  dataDir: string;
  log: (msg: string, err?: unknown) => void;
  env?: Record<string, string | undefined>;
}): void {
  const settings = readBackupSettings(deps.env ?? process.env, deps.dataDir);
  deps.jobs.every({
    kind: BACKUP_KIND,
    everyMs: 3600_000,
    handler: async ({ now, sequelize }) => {
      if (!isBackupHour(now, settings.hour)) return;
      try {
        const made = await makeBackup({ source: backupSourceOf(sequelize), dataDir: deps.dataDir, backupDir: settings.dir, now });
        pruneBackups(settings.dir, settings.keep);
        deps.log(`copia de seguridad diaria: ${path.basename(made.archive)} (${made.bytes} bytes)`);
      } catch (err) {
        deps.log('copia de seguridad diaria fallida', err);
        throw err;
      }
    },
  });
}
