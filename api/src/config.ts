import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';

export interface Config {
  port: number;
  env: 'development' | 'test' | 'production';
  dataDir: string;
  databaseUrl: string | null;
  jwtSecret: string;
  /** Staff and patient tokens live this long; the UI also logs out after 3 h idle. */
  tokenTtlSeconds: number;
  smsUrl: string | null;
  smsToken: string | null;
  publicUrl: string | null;
}

/** Reads a secret from the environment, or generates it once and keeps it in DATA_DIR. */
function readOrCreateSecret(dataDir: string, name: string, fromEnv: string | undefined): string {
  if (fromEnv) return fromEnv;
  const file = path.join(dataDir, 'secrets.json');
  const secrets: Record<string, string> = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : {};
  if (!secrets[name]) {
    secrets[name] = crypto.randomBytes(48).toString('base64url');
    fs.writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  }
  return secrets[name];
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const dataDir = path.resolve(env.DATA_DIR ?? 'data');
  fs.mkdirSync(dataDir, { recursive: true });
  const nodeEnv = env.NODE_ENV === 'production' || env.NODE_ENV === 'test' ? env.NODE_ENV : 'development';
  return {
    port: Number(env.PORT ?? 3000),
    env: nodeEnv,
    dataDir,
    databaseUrl: env.DATABASE_URL || null,
    jwtSecret: readOrCreateSecret(dataDir, 'jwt', env.JWT_SECRET),
    tokenTtlSeconds: Number(env.TOKEN_TTL_SECONDS ?? 12 * 3600),
    smsUrl: env.SMS_URL || null,
    smsToken: env.SMS_TOKEN || null,
    publicUrl: env.PUBLIC_URL || null,
  };
}
