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
  /**
   * What an empty database gets at start (SEED_DEMO): 'published', the demo with README's password
   * (development and tests, unless SEED_DEMO=0); 'generated', the demo with passwords made for this
   * start and shown once (production with SEED_DEMO=1); 'off', nothing (production by default, or
   * SEED_DEMO=0). Unset where a Config is built by hand: nothing is seeded then.
   */
  demo?: DemoSeeding;
}

export type DemoSeeding = 'published' | 'generated' | 'off';

/**
 * A setting the operator gave that the product cannot use. The start prints its Spanish sentence
 * alone: a stack trace under it reads like a crash of the product, when the fix is one variable
 * (describeFailure).
 */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * Reads a secret from the environment, or generates it once and keeps it in DATA_DIR. The file is
 * written aside and moved into place only where none exists yet (link fails on an existing name),
 * then read back: two processes starting together on a new DATA_DIR end up with the same key, where
 * each writing its own would have signed sessions the other refuses.
 */
function readOrCreateSecret(dataDir: string, name: string, fromEnv: string | undefined): string {
  if (fromEnv) return fromEnv;
  const file = path.join(dataDir, 'secrets.json');
  const read = (): Record<string, string> => (fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : {});
  const secrets = read();
  if (secrets[name]) return secrets[name];
  secrets[name] = crypto.randomBytes(48).toString('base64url');
  const aside = `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}`;
  fs.writeFileSync(aside, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  try {
    if (fs.existsSync(file)) fs.renameSync(aside, file);
    else fs.linkSync(aside, file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    fs.rmSync(aside, { force: true });
  }
  return read()[name] ?? secrets[name];
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const dataDir = path.resolve(env.DATA_DIR ?? 'data');
  fs.mkdirSync(dataDir, { recursive: true });
  const nodeEnv = env.NODE_ENV === 'production' || env.NODE_ENV === 'test' ? env.NODE_ENV : 'development';
  return {
    port: readInteger(env, 'PORT', 3000, 1, 65535),
    env: nodeEnv,
    dataDir,
    databaseUrl: env.DATABASE_URL || null,
    jwtSecret: readOrCreateSecret(dataDir, 'jwt', env.JWT_SECRET),
    tokenTtlSeconds: readInteger(env, 'TOKEN_TTL_SECONDS', 12 * 3600, 1, 365 * 24 * 3600),
    smsUrl: env.SMS_URL || null,
    smsToken: env.SMS_TOKEN || null,
    publicUrl: env.PUBLIC_URL || null,
    allowHttpServices: env.WEBHOOKS_ALLOW_HTTP === '1',
    clockOffsetMs: readClockOffset(env.CLOCK_OFFSET_MS),
    demo: readDemoSeeding(env.SEED_DEMO, nodeEnv),
  };
}

/** An integer setting between `min` and `max`; unset or empty is `fallback`. */
function readInteger(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const text = env[name]?.trim();
  if (!text) return fallback;
  const n = Number(text);
  if (!/^\d+$/.test(text) || n < min || n > max)
    throw new ConfigError(`${name} debe ser un número entero entre ${min} y ${max}; se recibió «${text}».`);
  return n;
}

function readClockOffset(text: string | undefined): number {
  if (!text) return 0;
  const ms = Number(text);
  if (!Number.isSafeInteger(ms)) throw new ConfigError(`CLOCK_OFFSET_MS debe ser un número entero de milisegundos; se recibió «${text}».`);
  return ms;
}

/**
 * Issue 49: a production start creates no demo organisation unless the operator says SEED_DEMO=1,
 * and then not with README's password, which anyone can read. Elsewhere the demo stays what
 * `npm start` has always made, unless SEED_DEMO=0.
 */
export function readDemoSeeding(text: string | undefined, nodeEnv: Config['env']): DemoSeeding {
  const value = text?.trim() ?? '';
  if (value !== '' && value !== '0' && value !== '1') throw new ConfigError(`SEED_DEMO debe ser 1 o 0; se recibió «${value}».`);
  if (value === '0') return 'off';
  if (nodeEnv === 'production') return value === '1' ? 'generated' : 'off';
  return 'published';
}

/**
 * The text a start (or a command-line tool) that cannot go on prints after its own words: the
 * operator's Spanish sentence alone for a setting or a cause the start named (ConfigError), with the
 * stack trace only under LOG_LEVEL=debug or trace; any other error is a fault of the product and
 * keeps its trace.
 */
export function describeFailure(err: unknown, env: NodeJS.ProcessEnv = process.env): string {
  const error = err instanceof Error ? err : new Error(String(err));
  if (!(error instanceof ConfigError)) return error.stack ?? error.message;
  const debug = ['debug', 'trace'].includes(env.LOG_LEVEL?.trim().toLowerCase() ?? '');
  // The trace's own first line repeats the message: only its frames follow the sentence.
  const frames = error.stack?.indexOf('\n    at ') ?? -1;
  return debug && frames >= 0 ? `${error.message}${error.stack!.slice(frames)}` : error.message;
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
