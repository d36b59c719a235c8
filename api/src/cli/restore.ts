import path from 'node:path';
import { parseArgs } from 'node:util';
import { MIGRATIONS } from '../db/migrate.js';
import { restoreBackup } from '../modules/backups/backups.restore.js';

const USAGE =
  'Uso: npm run restore -- ARCHIVO.tar.gz[.age] [--identity ARCHIVO_DE_IDENTIDAD]   (con DATA_DIR vacío y, en PostgreSQL, DATABASE_URL de una base vacía)';

/**
 * npm run restore -- FILE [--identity KEYFILE]
 * Restores an archive of `npm run backup` into an empty DATA_DIR (and, with DATABASE_URL, an
 * empty PostgreSQL database), after checking it whole; refuses anything else, writing nothing.
 * An encrypted archive needs the age identity file (--identity, else BACKUP_IDENTITY_FILE).
 * The API migrates the restored database to this version at its next start.
 */
async function main() {
  let parsed: ReturnType<typeof parseOptions>;
  try {
    parsed = parseOptions();
  } catch {
    console.error(USAGE);
    process.exit(2);
  }
  const file = parsed.positionals.find((a) => a !== '--');
  if (!file || parsed.positionals.length > 1) {
    console.error(USAGE);
    process.exit(2);
  }
  const identityFile = parsed.values.identity ?? (process.env.BACKUP_IDENTITY_FILE?.trim() || null);
  const dataDir = path.resolve(process.env.DATA_DIR ?? 'data');
  const manifest = await restoreBackup({
    archive: path.resolve(file),
    dataDir,
    databaseUrl: process.env.DATABASE_URL || null,
    knownMigrations: MIGRATIONS.map(([name]) => name),
    identityFile: identityFile ? path.resolve(identityFile) : null,
  });
  console.log(`Copia restaurada en ${dataDir}${process.env.DATABASE_URL ? ' y en la base de datos de DATABASE_URL' : ''}.`);
  console.log(`  Hecha el ${manifest.created_at}; esquema ${manifest.schema_version}; ${manifest.files.length} archivos verificados.`);
}

function parseOptions() {
  return parseArgs({ options: { identity: { type: 'string' } }, allowPositionals: true });
}

main().catch((err) => {
  console.error(`No se restauró nada: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
