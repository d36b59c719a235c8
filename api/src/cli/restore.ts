import path from 'node:path';
import { MIGRATIONS } from '../db/migrate.js';
import { restoreBackup } from '../modules/backups/backups.restore.js';

/**
 * npm run restore -- FILE
 * Restores an archive of `npm run backup` into an empty DATA_DIR (and, with DATABASE_URL, an
 * empty PostgreSQL database), after checking it whole; refuses anything else, writing nothing.
 * The API migrates the restored database to this version at its next start.
 */
async function main() {
  const file = process.argv.slice(2).find((a) => a !== '--');
  if (!file) {
    console.error('Uso: npm run restore -- ARCHIVO.tar.gz   (con DATA_DIR vacío y, en PostgreSQL, DATABASE_URL de una base vacía)');
    process.exit(2);
  }
  const dataDir = path.resolve(process.env.DATA_DIR ?? 'data');
  const manifest = await restoreBackup({
    archive: path.resolve(file),
    dataDir,
    databaseUrl: process.env.DATABASE_URL || null,
    knownMigrations: MIGRATIONS.map(([name]) => name),
  });
  console.log(`Copia restaurada en ${dataDir}${process.env.DATABASE_URL ? ' y en la base de datos de DATABASE_URL' : ''}.`);
  console.log(`  Hecha el ${manifest.created_at}; esquema ${manifest.schema_version}; ${manifest.files.length} archivos verificados.`);
}

main().catch((err) => {
  console.error(`No se restauró nada: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
