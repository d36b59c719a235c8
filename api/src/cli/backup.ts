import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { readBackupSettings } from '../modules/backups/backups.rules.js';
import { makeBackup } from '../modules/backups/backups.service.js';

/**
 * npm run backup [-- --dir PATH]
 * One archive of this installation (database, secrets.json, stored files) with its .sha256, into
 * --dir, else BACKUP_DIR, else DATA_DIR/backups; safe while the API runs and writes. Reads
 * DATA_DIR, DATABASE_URL and BACKUP_RECIPIENT (encrypts the archive) as the API does, without
 * opening the app (no migration, no job).
 */
async function main() {
  const { values } = parseArgs({ options: { dir: { type: 'string' } } });
  const dataDir = path.resolve(process.env.DATA_DIR ?? 'data');
  const databaseUrl = process.env.DATABASE_URL || null;
  const settings = readBackupSettings(process.env, dataDir);
  const backupDir = values.dir ? path.resolve(values.dir) : settings.dir;
  const file = path.join(dataDir, 'vigia.sqlite');
  if (!databaseUrl && !fs.existsSync(file)) throw new Error(`No hay base de datos SQLite en ${file}: revise DATA_DIR.`);
  const started = performance.now();
  const made = await makeBackup({
    source: databaseUrl ? { dialect: 'postgres', url: databaseUrl } : { dialect: 'sqlite', file },
    dataDir,
    backupDir,
    now: new Date(),
    recipient: settings.recipient,
  });
  if (made.folderNote) console.log(`Aviso: ${made.folderNote}.`);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`Copia de seguridad${made.encrypted ? ' cifrada (age, BACKUP_RECIPIENT)' : ''}: ${made.archive}`);
  console.log(
    `  ${made.bytes} bytes en ${seconds} s; esquema ${made.manifest.schema_version}; ${made.manifest.files.length} archivos; SHA-256 en ${path.basename(made.archive)}.sha256`,
  );
}

main().catch((err) => {
  console.error(`No se pudo hacer la copia de seguridad: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
