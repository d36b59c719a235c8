import fs from 'node:fs';
import path from 'node:path';
import { generateX25519Identity, identityToRecipient } from 'age-encryption';
import { readBackupSettings } from '../modules/backups/backups.rules.js';

/**
 * npm run backup:keygen -- FILE
 * A new age key pair for BACKUP_RECIPIENT, with the library the product already uses, so an
 * operator needs no other tool (age-keygen writes the same file). The identity (private key) goes
 * to FILE, 0600, never over an existing file and never inside DATA_DIR or the archives' folder:
 * whoever holds the archives must not hold the key too. The public key is printed.
 */
async function main() {
  const file = process.argv.slice(2).find((a) => a !== '--');
  if (!file) {
    console.error('Uso: npm run backup:keygen -- ARCHIVO_DE_IDENTIDAD   (fuera de DATA_DIR y de la carpeta de las copias)');
    process.exit(2);
  }
  const target = path.resolve(file);
  const dataDir = path.resolve(process.env.DATA_DIR ?? 'data');
  const backupDir = readBackupSettings({ ...process.env, BACKUP_RECIPIENT: undefined }, dataDir).dir;
  const inside = (dir: string) => !path.relative(dir, target).startsWith('..') && !path.isAbsolute(path.relative(dir, target));
  if (inside(dataDir) || inside(backupDir))
    throw new Error(`${target} está dentro de DATA_DIR o de la carpeta de las copias: guarde la clave privada lejos de las copias.`);
  const identity = await generateX25519Identity();
  const recipient = await identityToRecipient(identity);
  const text = `# created: ${new Date().toISOString().replace(/\.\d{3}Z$/, 'Z')}\n# public key: ${recipient}\n${identity}\n`;
  try {
    fs.writeFileSync(target, text, { flag: 'wx', mode: 0o600 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST')
      throw new Error(`${target} ya existe: no se reemplaza una clave.`, { cause: err });
    throw err;
  }
  console.log(`Clave privada (identidad) en ${target}: guárdela fuera de este servidor (gestor de secretos o copia fuera de línea).`);
  console.log(`Clave pública, para BACKUP_RECIPIENT:\n${recipient}`);
}

main().catch((err) => {
  console.error(`No se creó la clave: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
