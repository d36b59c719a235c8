/**
 * The backup of issue 39 at the data set's size: `npm run backup`'s code path (makeBackup: the
 * database's online copy or pg_dump, DATA_DIR's files, manifest with SHA-256s, tar.gz, .sha256)
 * into a scratch folder, beside the database's own tool on the same data: `sqlite3 FILE "VACUUM INTO
 * 'DEST'"` on SQLite, `pg_dump --format=custom` on PostgreSQL. Runs while the API is up and idle;
 * the archives are deleted afterwards.
 *
 * Not the shell's `.backup` (issue 52): it copies a few pages at a time and starts over whenever
 * another connection writes, and an idle API still writes (its job queue polls every second), so at
 * 100,000 patients it was still copying the first gigabyte after 14 minutes. VACUUM INTO reads the
 * database in one read transaction, as the product's one-step online backup does, so it finishes
 * whatever the API writes meanwhile.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { makeBackup, type BackupSource } from '../api/src/modules/backups/backups.service.js';
import { pgEnvironment } from '../api/src/modules/backups/backups.files.js';

export interface BackupBenchResult {
  dialect: 'sqlite' | 'postgres';
  /** Size of what was copied: the SQLite file (with its WAL), or the database as PostgreSQL reports it. */
  databaseBytes: number;
  archiveBytes: number;
  files: number;
  seconds: number;
  /** The database's own tool on the same data; null when it is not installed. */
  baseline: { tool: string; seconds: number; bytes: number } | null;
}

function timeTool(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(command, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.on('error', (e: NodeJS.ErrnoException) => (e.code === 'ENOENT' ? resolve(null) : reject(e)));
    child.on('close', (code) =>
      code === 0 ? resolve((performance.now() - started) / 1000) : reject(new Error(`${command} falló (${code}): ${err.trim()}`)),
    );
  });
}

const sizeOf = (file: string) => (fs.existsSync(file) ? fs.statSync(file).size : 0);

export async function measureBackup(deps: {
  dataDir: string;
  databaseUrl: string | null;
  databaseBytes: () => Promise<number>;
  log: (line: string) => void;
}): Promise<BackupBenchResult> {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'vigia-bench-backup-'));
  try {
    const file = path.join(deps.dataDir, 'vigia.sqlite');
    const source: BackupSource = deps.databaseUrl ? { dialect: 'postgres', url: deps.databaseUrl } : { dialect: 'sqlite', file };
    const databaseBytes = await deps.databaseBytes();
    deps.log(`Copia de seguridad (npm run backup) de ${(databaseBytes / 1024 / 1024).toFixed(0)} MB`);
    const started = performance.now();
    const made = await makeBackup({ source, dataDir: deps.dataDir, backupDir: path.join(scratch, 'copias'), now: new Date() });
    const seconds = (performance.now() - started) / 1000;
    const dest = path.join(scratch, 'base');
    const baselineSeconds =
      source.dialect === 'sqlite'
        ? await timeTool('sqlite3', [file, `VACUUM INTO '${dest.replace(/'/g, "''")}'`], process.env)
        : await timeTool('pg_dump', ['--format=custom', '--no-owner', '--no-privileges', `--file=${dest}`], pgEnvironment(source.url));
    const tool = source.dialect === 'sqlite' ? 'sqlite3 VACUUM INTO' : 'pg_dump --format=custom';
    if (baselineSeconds === null) deps.log(`${tool.split(' ')[0]} no está instalado: la fila de la copia queda sin base`);
    return {
      dialect: source.dialect,
      databaseBytes,
      archiveBytes: made.bytes,
      files: made.manifest.files.length,
      seconds,
      baseline: baselineSeconds === null ? null : { tool, seconds: baselineSeconds, bytes: sizeOf(dest) },
    };
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}
