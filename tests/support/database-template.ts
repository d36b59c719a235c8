import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Sequelize } from 'sequelize';
import { openDatabase } from '../../api/src/db/database.js';
import { migrate } from '../../api/src/db/migrate.js';
import { syncCatalogues } from '../../api/src/modules/catalogues/catalogues.sync.js';

/**
 * A database already migrated and holding the catalogues, made once per version of the migrations
 * and catalogues and copied for each test's own database, on SQLite (a file) and PostgreSQL (CREATE
 * DATABASE … TEMPLATE). Each API, security and fault file built its database from nothing: 43
 * migrations and ~20,000 catalogue rows, 20-60 s a file on CI's loaded PostgreSQL, where the files
 * waited 28 of the stream's 60 minutes before their first test (P259). The product still migrates
 * and syncs the catalogues when it starts on the copy, as on any existing database: a template one
 * step behind the sources is brought up to date there, never trusted as it is.
 */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** What decides the template's content: the migrations and the catalogue files and their loader. */
const SOURCES = ['api/src/db/migrations', 'seeds/catalogues', 'api/src/modules/catalogues', 'seeds/rda-catalogues.ts'];

function filesUnder(rel: string): string[] {
  const abs = path.join(ROOT, rel);
  if (!fs.existsSync(abs)) return [];
  if (fs.statSync(abs).isFile()) return [rel];
  return fs
    .readdirSync(abs)
    .sort()
    .flatMap((name) => filesUnder(path.join(rel, name)));
}

let key: string | null = null;
/** A short hash of the sources' names and contents. */
export function templateKey(): string {
  if (key) return key;
  const hash = crypto.createHash('sha256');
  for (const file of SOURCES.flatMap(filesUnder))
    hash
      .update(file)
      .update('\0')
      .update(fs.readFileSync(path.join(ROOT, file)));
  return (key = hash.digest('hex').slice(0, 16));
}

/** Migrates and loads the catalogues, as bootstrap does before anything else. */
async function prepare(config: { dataDir: string; databaseUrl: string | null }): Promise<void> {
  const sequelize = await openDatabase(config, { checkpointEveryMs: 0 });
  try {
    await migrate(sequelize);
    await syncCatalogues(sequelize.getQueryInterface());
    if (!config.databaseUrl) await sequelize.query('PRAGMA wal_checkpoint(TRUNCATE)');
  } finally {
    await sequelize.close();
  }
}

let sqliteFile: Promise<string> | null = null;

/** The SQLite template's file, made by this process if no process made it yet. */
function sqliteTemplate(): Promise<string> {
  sqliteFile ??= (async () => {
    const file = path.join(os.tmpdir(), `vigia-template-${templateKey()}.sqlite`);
    if (fs.existsSync(file)) return file;
    const work = fs.mkdtempSync(path.join(os.tmpdir(), 'vigia-template-'));
    try {
      await prepare({ dataDir: work, databaseUrl: null });
      // Whole or not at all: two processes that make it at once each rename a complete file.
      fs.renameSync(path.join(work, 'vigia.sqlite'), file);
    } finally {
      fs.rmSync(work, { recursive: true, force: true });
    }
    return file;
  })();
  return sqliteFile;
}

/** Puts a copy of the SQLite template where a product on `dataDir` opens its database. */
export async function copySqliteTemplate(dataDir: string): Promise<void> {
  fs.copyFileSync(await sqliteTemplate(), path.join(dataDir, 'vigia.sqlite'));
}

const pgTemplates = new Map<string, Promise<string>>();

/** The PostgreSQL template's name on the server of `adminUrl`, made by this process if none was. */
function postgresTemplate(adminUrl: string): Promise<string> {
  let made = pgTemplates.get(adminUrl);
  if (!made) {
    made = (async () => {
      const name = `vigia_tpl_${templateKey()}`;
      const admin = new Sequelize(adminUrl, { logging: false });
      try {
        const [found] = await admin.query('SELECT 1 FROM pg_database WHERE datname = :name', { replacements: { name } });
        if (found.length) return name;
        const work = `${name}_${process.pid}_${crypto.randomBytes(3).toString('hex')}`;
        await admin.query(`CREATE DATABASE "${work}"`);
        const url = new URL(adminUrl);
        url.pathname = `/${work}`;
        await prepare({ dataDir: os.tmpdir(), databaseUrl: url.toString() });
        // Whole or not at all: the first complete one takes the name, a second is dropped. The
        // server may still be ending the sessions that prepared it (a rename needs none): tried again.
        for (let attempt = 1; ; attempt++) {
          try {
            await admin.query(`ALTER DATABASE "${work}" RENAME TO "${name}"`);
            return name;
          } catch (error) {
            const [taken] = await admin.query('SELECT 1 FROM pg_database WHERE datname = :name', { replacements: { name } });
            if (taken.length) {
              await admin.query(`DROP DATABASE IF EXISTS "${work}" WITH (FORCE)`);
              return name;
            }
            if (attempt >= 50) throw error;
            await new Promise((resolve) => setTimeout(resolve, 100));
          }
        }
      } finally {
        await admin.close();
      }
    })();
    pgTemplates.set(adminUrl, made);
  }
  return made;
}

/** CREATE DATABASE `name` as a copy of the template, on the server of `adminUrl`. */
export async function createPostgresFromTemplate(adminUrl: string, name: string): Promise<void> {
  const template = await postgresTemplate(adminUrl);
  const admin = new Sequelize(adminUrl, { logging: false });
  try {
    // Another process's CREATE … TEMPLATE of the same template at the same moment can make this
    // one wait or fail with 'being accessed by other users': tried again.
    for (let attempt = 1; ; attempt++) {
      try {
        await admin.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`);
        return;
      } catch (error) {
        if (attempt >= 50 || !/accessed by other users/.test(String((error as Error).message))) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100 + Math.random() * 200));
      }
    }
  } finally {
    await admin.close();
  }
}

/** A test's own database: its data folder, and on PostgreSQL its database; `drop` removes both. */
export interface TestDatabase {
  dataDir: string;
  databaseUrl: string | null;
  drop(): Promise<void>;
}

/**
 * A data folder under the temporary folder (`prefix`…) and, when DATABASE_URL is set, a PostgreSQL
 * database of its own (`${dbPrefix}_<pid>_<random>`): a copy of the template, or with `empty` one
 * with nothing in it (the tests of a first start, the targets of a restore).
 */
export async function newTestDatabase(prefix: string, dbPrefix: string, opts: { empty?: boolean } = {}): Promise<TestDatabase> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) {
    if (!opts.empty) await copySqliteTemplate(dataDir);
    return { dataDir, databaseUrl: null, drop: async () => fs.rmSync(dataDir, { recursive: true, force: true }) };
  }
  const name = `${dbPrefix}_${process.pid}_${crypto.randomBytes(4).toString('hex')}`;
  if (opts.empty) {
    const admin = new Sequelize(adminUrl, { logging: false });
    try {
      await admin.query(`CREATE DATABASE "${name}"`);
    } finally {
      await admin.close();
    }
  } else await createPostgresFromTemplate(adminUrl, name);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    dataDir,
    databaseUrl: url.toString(),
    async drop() {
      const admin = new Sequelize(adminUrl, { logging: false });
      try {
        await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await admin.close();
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
