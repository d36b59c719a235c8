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
  /**
   * WEBHOOKS_ALLOW_HTTP=1: webhook and integration URLs may be http:// and loopback or private
   * hosts (a local receiver while developing). Off by default whatever NODE_ENV says: 03 §5 wants https://.
   */
  allowHttpServices?: boolean;
  /**
   * CLOCK_OFFSET_MS: milliseconds added to the wall clock for every `now` of the app (tokens,
   * sessions, alarms, activities, jobs). 0 by default; the benchmark sets it so the API runs at its
   * data set's date on any day (bench/README.md). Not for a live installation.
   */
  clockOffsetMs?: number;
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
    allowHttpServices: env.WEBHOOKS_ALLOW_HTTP === '1',
    clockOffsetMs: readClockOffset(env.CLOCK_OFFSET_MS),
  };
}

function readClockOffset(text: string | undefined): number {
  if (!text) return 0;
  const ms = Number(text);
  if (!Number.isSafeInteger(ms)) throw new Error(`CLOCK_OFFSET_MS debe ser un número entero de milisegundos: ${text}`);
  return ms;
}

/** The app's clock: the wall clock moved by `offsetMs` (Config.clockOffsetMs), running at real speed. */
export function createClock(offsetMs = 0): () => Date {
  return offsetMs === 0 ? () => new Date() : () => new Date(Date.now() + offsetMs);
}

/** Messaging channel and AI assistant (D18); read when the app is built, all optional. */
export interface MessagingSettings {
  /** WhatsApp-style provider base URL (e.g. https://graph.facebook.com/v21.0/<phone-number-id>); unset = local channel. */
  messagingUrl: string | null;
  messagingToken: string | null;
  /** Key of the provider's X-Hub-Signature-256 on inbound webhooks; unset = every webhook refused. */
  messagingWebhookSecret: string | null;
  /** Name of the approved welcome template at the provider. */
  messagingWelcomeTemplate: string;
  /** OpenAI-compatible chat-completions base URL (…/v1); unset = assistant off. */
  aiBaseUrl: string | null;
  aiModel: string | null;
  aiApiKey: string | null;
}

export function loadMessagingConfig(env: NodeJS.ProcessEnv = process.env): MessagingSettings {
  return {
    messagingUrl: env.MESSAGING_URL || null,
    messagingToken: env.MESSAGING_TOKEN || null,
    messagingWebhookSecret: env.MESSAGING_WEBHOOK_SECRET || null,
    messagingWelcomeTemplate: env.MESSAGING_WELCOME_TEMPLATE || 'bienvenida_vigia',
    aiBaseUrl: env.AI_BASE_URL || null,
    aiModel: env.AI_MODEL || null,
    aiApiKey: env.AI_API_KEY || null,
  };
}

/** Single sign-on with an OpenID Connect provider (D18); all four set = on, otherwise off. */
export interface OidcSettings {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The admin's callback route registered at the provider, e.g. https://vigia.example/sso/callback. */
  redirectUri: string;
}

export function loadOidcConfig(env: NodeJS.ProcessEnv = process.env): OidcSettings | null {
  const { OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET, OIDC_REDIRECT_URI } = env;
  if (!OIDC_ISSUER || !OIDC_CLIENT_ID || !OIDC_CLIENT_SECRET || !OIDC_REDIRECT_URI) return null;
  return { issuer: OIDC_ISSUER, clientId: OIDC_CLIENT_ID, clientSecret: OIDC_CLIENT_SECRET, redirectUri: OIDC_REDIRECT_URI };
}
