import { describe, expect, it } from 'vitest';
import { generateX25519Identity, identityToRecipient } from 'age-encryption';
import {
  archiveKind,
  backupFileName,
  backupsToRemove,
  checkManifest,
  compareWithManifest,
  isBackupHour,
  isDataFileToCopy,
  isSafeEntryPath,
  parseBackupName,
  parseChecksumLine,
  parseIdentityFile,
  readBackupSettings,
  type Manifest,
} from './backups.rules';

const HASH = 'a'.repeat(64);
const IDENTITY = await generateX25519Identity();
const RECIPIENT = await identityToRecipient(IDENTITY);
const KNOWN = ['0001-foundation', '0002-patient-search-terms', '0023-triage-mark-readings'];
const manifest = (over: Partial<Manifest> = {}): Manifest => ({
  format: 1,
  product: 'vigia',
  created_at: '2026-11-28T08:00:00.000Z',
  database: 'sqlite',
  schema_version: '0023-triage-mark-readings',
  files: [
    { path: 'database/vigia.sqlite', size: 4096, sha256: HASH },
    { path: 'files/secrets.json', size: 80, sha256: 'b'.repeat(64) },
  ],
  ...over,
});

describe('readBackupSettings', () => {
  it.each([
    [{}, { hour: 8, keep: 7, dir: '/srv/data/backups', recipient: null }],
    [
      { BACKUP_HOUR: '0', BACKUP_KEEP: '1' },
      { hour: 0, keep: 1, dir: '/srv/data/backups', recipient: null },
    ],
    [
      { BACKUP_HOUR: '23', BACKUP_DIR: '/mnt/copias' },
      { hour: 23, keep: 7, dir: '/mnt/copias', recipient: null },
    ],
    [
      { BACKUP_HOUR: 'off', BACKUP_DIR: 'otras', BACKUP_RECIPIENT: ` ${RECIPIENT} ` },
      { hour: null, keep: 7, dir: '/srv/data/otras', recipient: RECIPIENT },
    ],
  ])('%j gives %j', (env, expected) => {
    expect(readBackupSettings(env, '/srv/data')).toEqual(expected);
  });
  it.each([
    [{ BACKUP_HOUR: '24' }, /BACKUP_HOUR/],
    [{ BACKUP_HOUR: '-1' }, /BACKUP_HOUR/],
    [{ BACKUP_HOUR: '3.5' }, /BACKUP_HOUR/],
    [{ BACKUP_KEEP: '0' }, /BACKUP_KEEP/],
    [{ BACKUP_KEEP: 'siete' }, /BACKUP_KEEP/],
    // A character changed: bech32's checksum catches it.
    [
      { BACKUP_RECIPIENT: `${RECIPIENT.slice(0, -1)}${RECIPIENT.endsWith('q') ? 'p' : 'q'}` },
      /BACKUP_RECIPIENT debe ser una clave pública age X25519/,
    ],
    [{ BACKUP_RECIPIENT: 'AGE-SECRET-KEY-1QQQ' }, /BACKUP_RECIPIENT debe ser una clave pública age X25519/],
    [{ BACKUP_RECIPIENT: 'age1pq1abc' }, /BACKUP_RECIPIENT/],
    [{ BACKUP_RECIPIENT: 'ssh-ed25519 AAAA' }, /BACKUP_RECIPIENT/],
  ])('refuses %j', (env, message) => {
    expect(() => readBackupSettings(env, '/srv/data')).toThrow(message);
  });
});

describe('isBackupHour', () => {
  it.each([
    ['2026-11-28T08:00:00Z', 8, true],
    ['2026-11-28T08:59:59Z', 8, true],
    ['2026-11-28T09:00:00Z', 8, false],
    ['2026-11-28T07:59:59Z', 8, false],
    ['2026-11-28T03:00:00-05:00', 8, true],
    ['2026-11-28T08:00:00Z', null, false],
  ] as const)('%s at hour %s: %s', (now, hour, expected) => {
    expect(isBackupHour(new Date(now), hour)).toBe(expected);
  });
});

describe('backup names', () => {
  it('names the instant in UTC and the database, and reads it back', () => {
    const at = new Date('2026-11-28T08:00:05.123Z');
    expect(backupFileName(at, 'sqlite')).toBe('vigia-20261128T080005Z-sqlite.tar.gz');
    expect(parseBackupName('vigia-20261128T080005Z-postgres.tar.gz')).toEqual({
      at: new Date('2026-11-28T08:00:05Z'),
      dialect: 'postgres',
      encrypted: false,
    });
  });
  it('adds .age to an encrypted archive, which the daily job counts among its own', () => {
    const at = new Date('2026-11-28T08:00:05Z');
    expect(backupFileName(at, 'postgres', true)).toBe('vigia-20261128T080005Z-postgres.tar.gz.age');
    expect(parseBackupName('vigia-20261128T080005Z-postgres.tar.gz.age')).toEqual({ at, dialect: 'postgres', encrypted: true });
    expect(parseBackupName('vigia-20261128T080005Z-postgres.tar.gz.age.sha256')).toBeNull();
  });
  it.each(['vigia-20261128T080005Z-sqlite.tar.gz.sha256', 'mi-copia.tar.gz', 'vigia-20261399T080005Z-sqlite.tar.gz', '.vigia-backup-x'])(
    'does not take %s for one of its archives',
    (name) => {
      expect(parseBackupName(name)).toBeNull();
    },
  );
});

describe('backupsToRemove', () => {
  const names = [
    'vigia-20261126T080000Z-sqlite.tar.gz',
    'vigia-20261126T080000Z-sqlite.tar.gz.sha256',
    'vigia-20261128T080000Z-sqlite.tar.gz',
    'vigia-20261127T080000Z-sqlite.tar.gz',
    'vigia-20261125T080000Z-sqlite.tar.gz.age',
    'vigia-20261125T080000Z-sqlite.tar.gz.age.sha256',
    'copia-manual.tar.gz',
  ];
  it.each([
    [1, ['vigia-20261125T080000Z-sqlite.tar.gz.age', 'vigia-20261126T080000Z-sqlite.tar.gz', 'vigia-20261127T080000Z-sqlite.tar.gz']],
    [2, ['vigia-20261125T080000Z-sqlite.tar.gz.age', 'vigia-20261126T080000Z-sqlite.tar.gz']],
    [3, ['vigia-20261125T080000Z-sqlite.tar.gz.age']],
    [4, []],
    [7, []],
  ])('keeping %i deletes %j, never a file of its own name', (keep, expected) => {
    expect(backupsToRemove(names, keep)).toEqual(expected);
  });
});

describe('isDataFileToCopy', () => {
  it.each([
    ['secrets.json', 'backups', true],
    ['messages/3/foto.jpg', 'backups', true],
    ['vigia.sqlite', 'backups', false],
    ['vigia.sqlite-wal', 'backups', false],
    ['vigia.sqlite-shm', 'backups', false],
    ['vigia.start-lock', 'backups', false],
    ['backups', 'backups', false],
    ['backups/vigia-20261128T080000Z-sqlite.tar.gz', 'backups', false],
    ['backups-viejas/x', 'backups', true],
    ['copias/x', null, true],
    ['.vigia-backup-abc/database/vigia.sqlite', null, false],
  ] as const)('%s (backups in %s): %s', (rel, backupDir, expected) => {
    expect(isDataFileToCopy(rel, backupDir)).toBe(expected);
  });
});

describe('isSafeEntryPath', () => {
  it.each([
    ['database/vigia.sqlite', true],
    ['files/messages/3/a.jpg', true],
    ['manifest.json', false],
    ['/etc/passwd', false],
    ['files/../../etc/passwd', false],
    ['files//x', false],
    ['files\\x', false],
    ['otros/x', false],
  ])('%s: %s', (p, expected) => {
    expect(isSafeEntryPath(p)).toBe(expected);
  });
});

describe('checkManifest', () => {
  it('accepts a manifest of a known schema for the same database', () => {
    expect(checkManifest(manifest(), KNOWN, 'sqlite')).toEqual({ ok: true, value: manifest() });
  });
  it('accepts an older schema: the API migrates it at its next start', () => {
    expect(checkManifest(manifest({ schema_version: '0002-patient-search-terms' }), KNOWN, 'sqlite').ok).toBe(true);
  });
  it.each([
    [null, /manifiesto válido/],
    [{ ...manifest(), product: 'otro' }, /formato conocido/],
    [{ ...manifest(), format: 2 }, /formato conocido/],
    [manifest({ schema_version: '0099-del-futuro' }), /no conoce.*0023-triage-mark-readings/],
    [manifest({ database: 'postgres' }), /PostgreSQL y el destino es SQLite/],
    [manifest({ files: [{ path: 'files/secrets.json', size: 1, sha256: HASH }] }), /no incluye la base de datos/],
    [manifest({ files: [...manifest().files, { path: '../fuera', size: 1, sha256: HASH }] }), /entrada de archivo no válida/],
    [manifest({ files: [...manifest().files, { path: 'files/x', size: -1, sha256: HASH }] }), /entrada de archivo no válida/],
    [manifest({ files: [...manifest().files, { path: 'files/x', size: 1, sha256: 'xyz' }] }), /entrada de archivo no válida/],
    [manifest({ files: [...manifest().files, manifest().files[1]] }), /entrada de archivo no válida/],
  ])('refuses %j', (raw, message) => {
    const r = checkManifest(raw, KNOWN, 'sqlite');
    expect(r.ok).toBe(false);
    expect(!r.ok && r.message).toMatch(message);
  });
});

describe('compareWithManifest', () => {
  const listed = manifest().files;
  it.each([
    [listed, null],
    [[listed[0]], /Falta el archivo files\/secrets.json/],
    [[listed[0], { ...listed[1], size: 79 }], /mide 79 bytes y el manifiesto dice 80/],
    [[listed[0], { ...listed[1], sha256: HASH }], /files\/secrets.json no coincide con su suma SHA-256/],
    [[...listed, { path: 'files/intruso', size: 1, sha256: HASH }], /files\/intruso, que el manifiesto no lista/],
  ])('%j: %s', (found, expected) => {
    const r = compareWithManifest(listed, found);
    if (expected === null) expect(r).toBeNull();
    else expect(r).toMatch(expected);
  });
});

describe('parseChecksumLine', () => {
  it.each([
    [`${HASH}  vigia-20261128T080000Z-sqlite.tar.gz\n`, HASH],
    [HASH.toUpperCase(), HASH],
    ['abc  archivo', null],
    ['', null],
  ])('%j: %s', (text, expected) => {
    expect(parseChecksumLine(text)).toBe(expected);
  });
});

describe('archiveKind', () => {
  it.each([
    ['age-encryption.org/v1\n-> X25519 abc', 'age'],
    ['-----BEGIN AGE ENCRYPTED FILE-----\nYWdl', 'age-armored'],
    ['\x1f\x8b\x08\x00', 'plain'],
    ['age-encryption.org/v2\n', 'plain'],
    ['', 'plain'],
  ])('%j is %s', (head, expected) => {
    expect(archiveKind(Buffer.from(head, 'latin1'))).toBe(expected);
  });
});

describe('parseIdentityFile', () => {
  it('reads the keys of a file as age-keygen writes it, comments and blank lines aside', () => {
    const text = `# created: 2026-12-05T01:00:00Z\n# public key: ${RECIPIENT}\n${IDENTITY}\n\n`;
    expect(parseIdentityFile(text)).toEqual({ ok: true, value: [IDENTITY] });
  });
  it.each([
    ['', /ninguna clave/],
    ['# solo comentarios\n', /ninguna clave/],
    [RECIPIENT, /clave pública \(age1…\)/],
    ['AGE-SECRET-KEY-1abc minúsculas y espacios', /no es una clave age X25519/],
  ])('refuses %j in Spanish', (text, message) => {
    const r = parseIdentityFile(text);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toMatch(message);
  });
});
