/**
 * `npm run seed:large -- --patients 100000 --seed 42 ...` (options: seeds/large.ts). The command
 * line's composition root: it opens the API's database (DATA_DIR / DATABASE_URL) and hands the
 * loader what it needs from the API (api/src/seed-deps.ts), since seeds import no API code.
 */
import path from 'node:path';
import { openDatabase } from '../api/src/db/database.js';
import { seedDeps } from '../api/src/seed-deps.js';
import { formatCount, readOptions, seedLarge } from '../seeds/large.js';

async function main() {
  const opts = readOptions(process.argv.slice(2));
  const databaseUrl = process.env.DATABASE_URL || null;
  const dataDir = path.resolve(process.env.DATA_DIR ?? 'data');
  const sequelize = await openDatabase({ dataDir, databaseUrl });
  console.log(
    `Base de datos: ${databaseUrl ? 'PostgreSQL' : path.join(dataDir, 'vigia.sqlite')} · semilla ${opts.seed} · ${formatCount(opts.patients)} pacientes × ${opts.clients} clientes · ${opts.measurementsPerPatient} mediciones por paciente`,
  );
  try {
    await seedLarge(seedDeps, sequelize, opts);
  } finally {
    await sequelize.close();
  }
}

main().catch((err) => {
  console.error(`[seed:large] ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
