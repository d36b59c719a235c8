import path from 'node:path';
import { Encrypter } from 'age-encryption';
import { ConfigError } from '../../config.js';

/**
 * What a backup archive is called, which ones the daily job keeps, and what restore accepts in a
 * manifest. Pure: the service and the two command-line tools (npm run backup / restore) decide
 * with these, and the table tests state the same cases.
 */

export type BackupDialect = 'sqlite' | 'postgres';

export interface BackupSettings {
  /** Hour of the day (UTC) at which the API makes its own backup; null = never. */
  hour: number | null;
  /** How many of the API's backups stay in `dir`; older ones are deleted after each new one. */
  keep: number;
  dir: string;
  /** BACKUP_RECIPIENT: the age X25519 public key every archive is encrypted to; null = archives in the clear. */
  recipient: string | null;
}

const DEFAULT_BACKUP_HOUR = 8;
const DEFAULT_BACKUP_KEEP = 7;

/**
 * BACKUP_HOUR (0-23 UTC, `off` = no daily backup), BACKUP_KEEP (≥ 1), BACKUP_DIR (default
 * DATA_DIR/backups), BACKUP_RECIPIENT (an age X25519 recipient, `age1…`).
 */
export function readBackupSettings(env: Record<string, string | undefined>, dataDir: string): BackupSettings {
  const hourText = env.BACKUP_HOUR?.trim();
  let hour: number | null = DEFAULT_BACKUP_HOUR;
  if (hourText === 'off') hour = null;
  else if (hourText) {
    hour = Number(hourText);
    if (!/^\d{1,2}$/.test(hourText) || hour > 23)
      throw new ConfigError(`BACKUP_HOUR debe ser una hora entre 0 y 23 (UTC) u "off": ${hourText}`);
  }
  const keepText = env.BACKUP_KEEP?.trim();
  const keep = keepText ? Number(keepText) : DEFAULT_BACKUP_KEEP;
  if (keepText && (!/^\d+$/.test(keepText) || keep < 1))
    throw new ConfigError(`BACKUP_KEEP debe ser un número entero mayor o igual a 1: ${keepText}`);
  const dir = path.resolve(dataDir, env.BACKUP_DIR?.trim() || 'backups');
  return { hour, keep, dir, recipient: parseBackupRecipient(env.BACKUP_RECIPIENT) };
}

/**
 * BACKUP_RECIPIENT, checked at start-up by the library that will use it (its bech32 decoding and
 * key length), so a mistyped key stops the start instead of failing the first night. Only X25519
 * (`age1…`, what `age-keygen` prints): the post-quantum and plugin kinds have their own prefixes
 * and are refused by name, as restore could not open their archives without more than an identity file.
 */
export function parseBackupRecipient(value: string | undefined): string | null {
  const text = value?.trim();
  if (!text) return null;
  const refuse = () =>
    new ConfigError(
      `BACKUP_RECIPIENT debe ser una clave pública age X25519 (age1…, la que imprime npm run backup:keygen o age-keygen): ${text.slice(0, 80)}`,
    );
  if (!text.startsWith('age1') || /^age1(pq|tag)1/.test(text)) throw refuse();
  try {
    new Encrypter().addRecipient(text);
  } catch {
    throw refuse();
  }
  return text;
}

/** The daily job runs in the hour slot that begins at `hour` o'clock UTC. */
export function isBackupHour(now: Date, hour: number | null): boolean {
  return hour !== null && now.getUTCHours() === hour;
}

const NAME = /^vigia-(\d{8})T(\d{6})Z-(sqlite|postgres)\.tar\.gz(\.age)?$/;

/**
 * vigia-20261128T080000Z-sqlite.tar.gz: sorts by time as text, names its database, no ':' for other
 * file systems; `.age` after it when encrypted, as the age tool names what it encrypts.
 */
export function backupFileName(at: Date, dialect: BackupDialect, encrypted = false): string {
  const stamp = at
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replace(/[-:]/g, '');
  return `vigia-${stamp}-${dialect}.tar.gz${encrypted ? '.age' : ''}`;
}

export function parseBackupName(name: string): { at: Date; dialect: BackupDialect; encrypted: boolean } | null {
  const m = NAME.exec(name);
  if (!m) return null;
  const [d, t] = [m[1], m[2]];
  const at = new Date(`${d.slice(0, 4)}-${d.slice(4, 6)}-${d.slice(6, 8)}T${t.slice(0, 2)}:${t.slice(2, 4)}:${t.slice(4, 6)}Z`);
  return Number.isNaN(at.getTime()) ? null : { at, dialect: m[3] as BackupDialect, encrypted: Boolean(m[4]) };
}

/**
 * The archives to delete so that the newest `keep` remain. Only names this product writes count:
 * an operator's own file in the folder is never touched, nor counted.
 */
export function backupsToRemove(names: string[], keep: number): string[] {
  const ours = names.filter((n) => parseBackupName(n)).sort();
  return ours.slice(0, Math.max(0, ours.length - keep));
}

/**
 * A file of DATA_DIR that goes into the archive (relative path, '/'-separated). Not the SQLite
 * files (the database goes in as its consistent copy), nor the backups themselves, nor what a
 * restore is writing.
 */
export function isDataFileToCopy(relative: string, backupDirRelative: string | null): boolean {
  const top = relative.split('/')[0];
  if (/^vigia\.sqlite(-wal|-shm|-journal)?$/.test(relative)) return false;
  if (backupDirRelative && (relative === backupDirRelative || relative.startsWith(`${backupDirRelative}/`))) return false;
  // The start lock (SQLITE_START_LOCK_FILE in db/migrate.ts) is an empty SQLite file of the running process, not data.
  if (relative === 'vigia.start-lock') return false;
  return !top.startsWith('.vigia-');
}

export interface ManifestFile {
  path: string;
  size: number;
  sha256: string;
}

export interface Manifest {
  format: 1;
  product: 'vigia';
  created_at: string;
  database: BackupDialect;
  /** The last umzug migration applied to the copied database. */
  schema_version: string;
  files: ManifestFile[];
}

export const MANIFEST_NAME = 'manifest.json';
export const DATABASE_ENTRY: Record<BackupDialect, string> = { sqlite: 'database/vigia.sqlite', postgres: 'database/vigia.dump' };

/** Relative, inside the archive's folders, no way up: a crafted archive cannot write elsewhere. */
export function isSafeEntryPath(p: string): boolean {
  if (!p || p.startsWith('/') || p.includes('\\') || p.includes('\0')) return false;
  const parts = p.split('/');
  if (parts.some((s) => s === '' || s === '.' || s === '..')) return false;
  return parts[0] === 'database' || parts[0] === 'files';
}

export type Checked<T> = { ok: true; value: T } | { ok: false; message: string };

/**
 * A manifest restore can act on: its own format, the database it expects, a schema this code has
 * (a newer one would be opened by code that does not know its tables), the database file listed.
 */
export function checkManifest(raw: unknown, knownMigrations: readonly string[], dialect: BackupDialect): Checked<Manifest> {
  const bad = (message: string): Checked<Manifest> => ({ ok: false, message });
  if (!raw || typeof raw !== 'object') return bad('La copia no trae un manifiesto válido.');
  const m = raw as Partial<Manifest>;
  if (m.product !== 'vigia' || m.format !== 1) return bad('El manifiesto no es de una copia de Vigía en un formato conocido.');
  if (m.database !== 'sqlite' && m.database !== 'postgres') return bad('El manifiesto no indica la base de datos copiada.');
  if (m.database !== dialect) {
    const names = { sqlite: 'SQLite', postgres: 'PostgreSQL' };
    return bad(
      `La copia es de ${names[m.database]} y el destino es ${names[dialect]}: ${dialect === 'postgres' ? 'quite DATABASE_URL' : 'defina DATABASE_URL'} o use una copia de ${names[dialect]}.`,
    );
  }
  if (typeof m.schema_version !== 'string' || !knownMigrations.includes(m.schema_version)) {
    return bad(
      `La copia tiene el esquema "${String(m.schema_version)}", que esta versión de Vigía no conoce (la más reciente que conoce es "${knownMigrations.at(-1)}"): restáurela con la versión de Vigía que la hizo o una más nueva.`,
    );
  }
  if (!Array.isArray(m.files)) return bad('El manifiesto no trae la lista de archivos.');
  const seen = new Set<string>();
  for (const f of m.files) {
    if (
      !f ||
      typeof f.path !== 'string' ||
      !isSafeEntryPath(f.path) ||
      !Number.isSafeInteger(f.size) ||
      f.size < 0 ||
      typeof f.sha256 !== 'string' ||
      !/^[0-9a-f]{64}$/.test(f.sha256) ||
      seen.has(f.path)
    ) {
      return bad(`El manifiesto trae una entrada de archivo no válida: ${JSON.stringify(f).slice(0, 200)}`);
    }
    seen.add(f.path);
  }
  if (!seen.has(DATABASE_ENTRY[dialect])) return bad('El manifiesto no incluye la base de datos.');
  return { ok: true, value: m as Manifest };
}

/** The files found in the archive against the manifest: the first difference, in words, or null. */
export function compareWithManifest(listed: ManifestFile[], found: ManifestFile[]): string | null {
  const byPath = new Map(found.map((f) => [f.path, f]));
  for (const f of listed) {
    const got = byPath.get(f.path);
    if (!got) return `Falta el archivo ${f.path} en la copia.`;
    if (got.size !== f.size) return `El archivo ${f.path} mide ${got.size} bytes y el manifiesto dice ${f.size}.`;
    if (got.sha256 !== f.sha256) return `El archivo ${f.path} no coincide con su suma SHA-256 del manifiesto.`;
    byPath.delete(f.path);
  }
  const extra = [...byPath.keys()][0];
  return extra ? `La copia trae el archivo ${extra}, que el manifiesto no lista.` : null;
}

/** The `.sha256` beside an archive, as sha256sum writes it: "<64 hex>  <name>". */
export function checksumLine(sha256: string, archiveName: string): string {
  return `${sha256}  ${archiveName}\n`;
}

export function parseChecksumLine(text: string): string | null {
  const m = /^([0-9a-f]{64})\b/i.exec(text.trim());
  return m ? m[1].toLowerCase() : null;
}

/** How every binary age file begins (its version line); armored files begin with their PEM line. */
export const AGE_MAGIC = 'age-encryption.org/v1\n';
const AGE_ARMOR = '-----BEGIN AGE ENCRYPTED FILE-----';

/** What the first bytes of an archive say it is: restore decides by content, not by a name an operator may have changed. */
export function archiveKind(head: Buffer): 'age' | 'age-armored' | 'plain' {
  if (head.subarray(0, AGE_MAGIC.length).toString('latin1') === AGE_MAGIC) return 'age';
  if (head.subarray(0, AGE_ARMOR.length).toString('latin1') === AGE_ARMOR) return 'age-armored';
  return 'plain';
}

/**
 * The identities of an age identity file as age-keygen writes it: one `AGE-SECRET-KEY-1…` a line,
 * `#` comments and blank lines ignored. Answers the keys, or the Spanish reason the file is not one.
 */
export function parseIdentityFile(text: string): Checked<string[]> {
  const lines = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  if (!lines.length) return { ok: false, message: 'El archivo de identidad no contiene ninguna clave (AGE-SECRET-KEY-1…).' };
  const odd = lines.find((l) => !/^AGE-SECRET-KEY-1[0-9A-Z]+$/.test(l));
  if (odd)
    return {
      ok: false,
      message: odd.startsWith('age1')
        ? 'El archivo de identidad trae una clave pública (age1…): la restauración necesita la clave privada (AGE-SECRET-KEY-1…) que la acompaña.'
        : 'El archivo de identidad trae una línea que no es una clave age X25519 (AGE-SECRET-KEY-1…).',
    };
  return { ok: true, value: lines };
}
