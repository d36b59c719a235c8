import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sqlite3 from 'sqlite3';
import * as tar from 'tar';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { generateX25519Identity, identityToRecipient } from 'age-encryption';
import { copySqlite, inspectSqlite } from './backups.files';
import { RestoreRefused, restoreBackup } from './backups.restore';
import { makeBackup, pruneBackups, registerBackupJob } from './backups.service';
import { openDatabase } from '../../db/database';
import { migrate } from '../../db/migrate';
import { createJobRunner } from '../../jobs/queue';
import { checksumLine } from './backups.rules';

/**
 * The archive's making and restoring on real SQLite files (no API): what the fault test
 * (tests/faults/backup.test.ts) cannot tell apart under load, stated here where it is certain.
 */

const KNOWN = ['0001-foundation', '0002-patient-search-terms'];
const NOW = new Date('2026-11-28T08:00:00Z');

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigia-backups-unit-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const open = (file: string) =>
  new Promise<sqlite3.Database>((resolve, reject) => {
    const db = new sqlite3.Database(file, (err) => (err ? reject(err) : resolve(db)));
  });
const run = (db: sqlite3.Database, sql: string) =>
  new Promise<void>((resolve, reject) => db.run(sql, (err) => (err ? reject(err) : resolve())));
const count = async (file: string) => {
  const db = await open(file);
  try {
    return await new Promise<number>((resolve, reject) =>
      db.get('SELECT COUNT(*) AS n FROM readings', (err, row: { n: number }) => (err ? reject(err) : resolve(row.n))),
    );
  } finally {
    await new Promise<void>((resolve) => db.close(() => resolve()));
  }
};

/** A WAL database that checkpoints never, so its last writes live only in the -wal file. */
async function liveDatabase(file: string, rows: number, schema = KNOWN.at(-1)!) {
  const db = await open(file);
  await run(db, 'PRAGMA journal_mode = WAL');
  await run(db, 'PRAGMA wal_autocheckpoint = 0');
  await run(db, 'CREATE TABLE schema_migrations (name TEXT PRIMARY KEY)');
  await run(db, `INSERT INTO schema_migrations VALUES ('0001-foundation'), ('${schema}')`);
  await run(db, 'CREATE TABLE readings (id INTEGER PRIMARY KEY, value REAL, note TEXT)');
  for (let i = 0; i < rows; i += 100) {
    const values = Array.from({ length: 100 }, (_, j) => `(${72 + ((i + j) % 30)}, '${'x'.repeat(200)}')`).join(',');
    await run(db, `INSERT INTO readings (value, note) VALUES ${values}`);
  }
  return db;
}

describe('copySqlite', () => {
  it('copies what only the WAL holds, where a copy of the file alone has none of it', async () => {
    const file = path.join(dir, 'vigia.sqlite');
    const db = await liveDatabase(file, 1000);
    try {
      await copySqlite(file, path.join(dir, 'copia.sqlite'));
      fs.copyFileSync(file, path.join(dir, 'ingenua.sqlite'));
      expect(await count(path.join(dir, 'copia.sqlite'))).toBe(1000);
      await expect(count(path.join(dir, 'ingenua.sqlite'))).rejects.toThrow(/no such table/);
      expect(await inspectSqlite(path.join(dir, 'copia.sqlite'), { integrity: true })).toEqual({
        integrity: 'ok',
        schemaVersion: '0002-patient-search-terms',
      });
    } finally {
      db.close();
    }
  });

  it('copies one instant while another connection keeps writing', async () => {
    const file = path.join(dir, 'vigia.sqlite');
    const db = await liveDatabase(file, 2000);
    let writing = true;
    let written = 0;
    const writer = (async () => {
      while (writing) {
        await run(db, "INSERT INTO readings (value, note) VALUES (80, 'durante'), (81, 'durante')");
        written += 2;
      }
    })();
    try {
      await copySqlite(file, path.join(dir, 'copia.sqlite'));
    } finally {
      writing = false;
      await writer;
      db.close();
    }
    const copied = await count(path.join(dir, 'copia.sqlite'));
    expect(copied % 2).toBe(0);
    expect(copied).toBeGreaterThanOrEqual(2000);
    expect(copied).toBeLessThanOrEqual(2000 + written);
    expect((await inspectSqlite(path.join(dir, 'copia.sqlite'), { integrity: true })).integrity).toBe('ok');
  });
});

describe('makeBackup, restoreBackup and pruneBackups', () => {
  async function installation() {
    const dataDir = path.join(dir, 'data');
    fs.mkdirSync(path.join(dataDir, 'messages', '3'), { recursive: true });
    fs.writeFileSync(path.join(dataDir, 'secrets.json'), '{"jwt":"s"}');
    fs.writeFileSync(path.join(dataDir, 'messages', '3', 'foto.jpg'), crypto.randomBytes(5000));
    const db = await liveDatabase(path.join(dataDir, 'vigia.sqlite'), 300);
    return { dataDir, db };
  }

  it('restores into an empty DATA_DIR what was backed up: database, secrets, attachments, and not the backups', async () => {
    const { dataDir, db } = await installation();
    const backupDir = path.join(dataDir, 'backups');
    fs.mkdirSync(backupDir);
    fs.writeFileSync(path.join(backupDir, 'copia-anterior.tar.gz'), 'no se copia');
    const made = await makeBackup({
      source: { dialect: 'sqlite', file: path.join(dataDir, 'vigia.sqlite') },
      dataDir,
      backupDir,
      now: NOW,
    });
    db.close();
    expect(path.basename(made.archive)).toBe('vigia-20261128T080000Z-sqlite.tar.gz');
    expect(made.manifest.files.map((f) => f.path)).toEqual(['database/vigia.sqlite', 'files/messages/3/foto.jpg', 'files/secrets.json']);
    expect(made.manifest.schema_version).toBe('0002-patient-search-terms');
    expect(fs.readdirSync(backupDir).sort()).toEqual([
      'copia-anterior.tar.gz',
      'vigia-20261128T080000Z-sqlite.tar.gz',
      'vigia-20261128T080000Z-sqlite.tar.gz.sha256',
    ]);

    const target = path.join(dir, 'restaurado');
    await restoreBackup({ archive: made.archive, dataDir: target, databaseUrl: null, knownMigrations: KNOWN });
    expect(fs.readdirSync(target).sort()).toEqual(['messages', 'secrets.json', 'vigia.sqlite']);
    expect(await count(path.join(target, 'vigia.sqlite'))).toBe(300);
    expect(fs.readFileSync(path.join(target, 'messages', '3', 'foto.jpg'))).toEqual(
      fs.readFileSync(path.join(dataDir, 'messages', '3', 'foto.jpg')),
    );
    expect(fs.readdirSync(dir).filter((n) => n.startsWith('.vigia-'))).toEqual([]);
  });

  it('refuses to write its archives into DATA_DIR itself (each would hold the earlier ones)', async () => {
    const { dataDir, db } = await installation();
    try {
      await expect(
        makeBackup({
          source: { dialect: 'sqlite', file: path.join(dataDir, 'vigia.sqlite') },
          dataDir,
          backupDir: `${dataDir}/`,
          now: NOW,
        }),
      ).rejects.toThrow(/no puede ser DATA_DIR/);
    } finally {
      db.close();
    }
  });

  it('refuses a schema this code does not have, writing nothing', async () => {
    const dataDir = path.join(dir, 'data');
    fs.mkdirSync(dataDir);
    const db = await liveDatabase(path.join(dataDir, 'vigia.sqlite'), 10, '0999-del-futuro');
    const made = await makeBackup({
      source: { dialect: 'sqlite', file: path.join(dataDir, 'vigia.sqlite') },
      dataDir,
      backupDir: path.join(dir, 'copias'),
      now: NOW,
    });
    db.close();
    const before = fs.readdirSync(dir).sort();
    const target = path.join(dir, 'restaurado');
    await expect(restoreBackup({ archive: made.archive, dataDir: target, databaseUrl: null, knownMigrations: KNOWN })).rejects.toThrow(
      /esquema "0999-del-futuro", que esta versión de Vigía no conoce/,
    );
    expect(fs.readdirSync(dir).sort()).toEqual(before);
  });

  it('refuses an archive made again with one file changed (its .sha256 remade too), by the manifest', async () => {
    const { dataDir, db } = await installation();
    const made = await makeBackup({
      source: { dialect: 'sqlite', file: path.join(dataDir, 'vigia.sqlite') },
      dataDir,
      backupDir: path.join(dir, 'copias'),
      now: NOW,
    });
    db.close();
    const unpacked = path.join(dir, 'abierta');
    fs.mkdirSync(unpacked);
    await tar.extract({ file: made.archive, cwd: unpacked });
    fs.writeFileSync(path.join(unpacked, 'files', 'secrets.json'), '{"jwt":"otra"}');
    const forged = path.join(dir, 'alterada.tar.gz');
    await tar.create({ gzip: true, file: forged, cwd: unpacked }, fs.readdirSync(unpacked));
    const sum = crypto.createHash('sha256').update(fs.readFileSync(forged)).digest('hex');
    fs.writeFileSync(`${forged}.sha256`, checksumLine(sum, 'alterada.tar.gz'));
    const target = path.join(dir, 'restaurado');
    const restoring = restoreBackup({ archive: forged, dataDir: target, databaseUrl: null, knownMigrations: KNOWN });
    await expect(restoring).rejects.toBeInstanceOf(RestoreRefused);
    await expect(restoring).rejects.toThrow(/files\/secrets.json/);
    expect(fs.existsSync(target)).toBe(false);
  });

  it('writes the archive 0600 in a 0700 folder, tightening an existing folder open to others and saying so', async () => {
    const { dataDir, db } = await installation();
    const backupDir = path.join(dir, 'copias');
    fs.mkdirSync(backupDir, { mode: 0o755 });
    fs.chmodSync(backupDir, 0o755);
    const made = await makeBackup({
      source: { dialect: 'sqlite', file: path.join(dataDir, 'vigia.sqlite') },
      dataDir,
      backupDir,
      now: NOW,
    });
    const fresh = path.join(dir, 'nuevas', 'copias');
    const again = await makeBackup({
      source: { dialect: 'sqlite', file: path.join(dataDir, 'vigia.sqlite') },
      dataDir,
      backupDir: fresh,
      now: NOW,
    });
    db.close();
    const mode = (p: string) => fs.statSync(p).mode & 0o777;
    expect(made.folderNote).toBe(`la carpeta de las copias ${backupDir} tenía permisos 0755: ahora 0700 (solo su dueño la lee)`);
    expect(mode(backupDir)).toBe(0o700);
    expect(again.folderNote).toBeNull();
    expect(mode(fresh)).toBe(0o700);
    for (const file of [made.archive, `${made.archive}.sha256`, again.archive]) expect(mode(file)).toBe(0o600);
  });

  it('still makes the copy in a folder of another user that cannot be tightened, and says so', async () => {
    const { dataDir, db } = await installation();
    const backupDir = path.join(dir, 'compartida');
    fs.mkdirSync(backupDir);
    fs.chmodSync(backupDir, 0o775);
    const chmod = fs.chmodSync.bind(fs);
    // As root every chmod succeeds; the refusal a mounted share or another owner gives is stated here.
    const spy = vi.spyOn(fs, 'chmodSync').mockImplementation((p, mode) => {
      if (path.resolve(String(p)) === backupDir) throw Object.assign(new Error('EPERM: operation not permitted'), { code: 'EPERM' });
      chmod(p, mode);
    });
    try {
      const made = await makeBackup({
        source: { dialect: 'sqlite', file: path.join(dataDir, 'vigia.sqlite') },
        dataDir,
        backupDir,
        now: NOW,
      });
      expect(made.folderNote).toMatch(/tiene permisos 0775 y no se pudieron restringir a 0700/);
      expect(fs.statSync(made.archive).mode & 0o777).toBe(0o600);
    } finally {
      spy.mockRestore();
      db.close();
    }
  });

  it('encrypts to BACKUP_RECIPIENT and restores with the identity file the same data; another key is refused, writing nothing', async () => {
    const { dataDir, db } = await installation();
    const identity = await generateX25519Identity();
    const made = await makeBackup({
      source: { dialect: 'sqlite', file: path.join(dataDir, 'vigia.sqlite') },
      dataDir,
      backupDir: path.join(dir, 'copias'),
      now: NOW,
      recipient: await identityToRecipient(identity),
    });
    db.close();
    expect(path.basename(made.archive)).toBe('vigia-20261128T080000Z-sqlite.tar.gz.age');
    expect(made.encrypted).toBe(true);
    // Neither secrets.json nor the database can be read in the file.
    const sealed = fs.readFileSync(made.archive);
    expect(sealed.subarray(0, 22).toString()).toBe('age-encryption.org/v1\n');
    expect(sealed.includes(Buffer.from('"jwt":"s"'))).toBe(false);

    const wrongKey = path.join(dir, 'otra.key');
    fs.writeFileSync(wrongKey, `${await generateX25519Identity()}\n`);
    const mangled = path.join(dir, 'cortada.key');
    // One character changed: bech32's checksum always catches it.
    fs.writeFileSync(mangled, `${identity.slice(0, -1)}${identity.endsWith('Q') ? 'P' : 'Q'}\n`);
    const before = fs.readdirSync(dir).sort();
    const target = path.join(dir, 'restaurado');
    const base = { archive: made.archive, dataDir: target, databaseUrl: null, knownMigrations: KNOWN };
    await expect(restoreBackup({ ...base, identityFile: wrongKey })).rejects.toThrow(/no abre esta copia/);
    await expect(restoreBackup(base)).rejects.toThrow(/La copia está cifrada \(age\): indique el archivo de identidad/);
    await expect(restoreBackup({ ...base, identityFile: mangled })).rejects.toThrow(
      /El archivo de identidad trae una clave que no es válida/,
    );
    expect(fs.readdirSync(dir).sort()).toEqual(before);

    const key = path.join(dir, 'copias.key');
    fs.writeFileSync(key, `# public key: ${await identityToRecipient(identity)}\n${identity}\n`);
    await restoreBackup({ ...base, identityFile: key });
    expect(await count(path.join(target, 'vigia.sqlite'))).toBe(300);
    expect(fs.readFileSync(path.join(target, 'secrets.json'), 'utf8')).toBe('{"jwt":"s"}');
    expect(fs.readdirSync(dir).filter((n) => n.startsWith('.vigia-'))).toEqual([]);
  });

  it('keeps the newest BACKUP_KEEP archives of its own and their checksums, nothing else', () => {
    const names = ['vigia-20261126T080000Z-sqlite.tar.gz', 'vigia-20261127T080000Z-sqlite.tar.gz', 'vigia-20261128T080000Z-sqlite.tar.gz'];
    for (const n of names) {
      fs.writeFileSync(path.join(dir, n), 'x');
      fs.writeFileSync(path.join(dir, `${n}.sha256`), 'x');
    }
    fs.writeFileSync(path.join(dir, 'mia.tar.gz'), 'x');
    expect(pruneBackups(dir, 2)).toEqual([names[0]]);
    expect(fs.readdirSync(dir).sort()).toEqual(['mia.tar.gz', ...names.slice(1).flatMap((n) => [n, `${n}.sha256`])].sort());
  });
});

describe('the daily backup job', () => {
  it('makes one archive in the BACKUP_HOUR slot only, once per slot, and keeps BACKUP_KEEP', async () => {
    const dataDir = path.join(dir, 'data');
    fs.mkdirSync(dataDir);
    fs.writeFileSync(path.join(dataDir, 'secrets.json'), '{"jwt":"s"}');
    const sequelize = await openDatabase({ dataDir, databaseUrl: null });
    const logged: string[] = [];
    const lines: Array<{ level: string; fields: object; msg: string }> = [];
    const logger = {
      info: (fields: object, msg: string) => lines.push({ level: 'info', fields, msg }),
      warn: (fields: object, msg: string) => lines.push({ level: 'warn', fields, msg }),
    };
    try {
      await migrate(sequelize);
      const jobs = createJobRunner({ sequelize, now: () => NOW, log: (m) => logged.push(m) });
      registerBackupJob({
        jobs,
        dataDir,
        log: (m) => logged.push(m),
        logger,
        env: { BACKUP_HOUR: '8', BACKUP_KEEP: '2', BACKUP_DIR: 'copias' },
      });
      const backupDir = path.join(dataDir, 'copias');
      const archives = () =>
        fs.existsSync(backupDir)
          ? fs
              .readdirSync(backupDir)
              .filter((n) => n.endsWith('.tar.gz'))
              .sort()
          : [];
      const at = (iso: string) => jobs.runDue({ now: new Date(iso), kinds: ['backup.daily'] });

      await at('2026-11-26T07:59:00Z');
      expect(archives()).toEqual([]);
      await at('2026-11-26T08:01:00Z');
      await at('2026-11-26T08:40:00Z');
      expect(archives()).toEqual(['vigia-20261126T080100Z-sqlite.tar.gz']);
      await at('2026-11-26T09:00:00Z');
      for (const day of ['27', '28']) await at(`2026-11-${day}T08:00:30Z`);
      expect(archives()).toEqual(['vigia-20261127T080030Z-sqlite.tar.gz', 'vigia-20261128T080030Z-sqlite.tar.gz']);
      expect(fs.existsSync(path.join(backupDir, 'vigia-20261126T080100Z-sqlite.tar.gz.sha256'))).toBe(false);
      expect(logged).toEqual([]);
      expect(lines.map((l) => [l.level, l.msg, (l.fields as { backup_file: string }).backup_file])).toEqual([
        ['info', 'copia de seguridad diaria hecha', 'vigia-20261126T080100Z-sqlite.tar.gz'],
        ['info', 'copia de seguridad diaria hecha', 'vigia-20261127T080030Z-sqlite.tar.gz'],
        ['info', 'copia de seguridad diaria hecha', 'vigia-20261128T080030Z-sqlite.tar.gz'],
      ]);
    } finally {
      await sequelize.close();
    }
  });
});
