import { pino, type DestinationStream, type Logger } from 'pino';
import { redactError, redactLogValue, scrubText } from './redact.rules.js';

export type { Logger } from 'pino';

/** The modules' log dependency: a sentence (no personal data) and the error that caused it. */
export type LogFn = (msg: string, err?: unknown) => void;

export interface LogSettings {
  level: string;
  /** json: one object a line (production, files, collectors); pretty: one readable line (a developer's terminal). */
  format: 'json' | 'pretty';
  /** LOG_FILE: append the lines to this file instead of stdout (JSON whatever LOG_FORMAT says). */
  file: string | null;
}

const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/**
 * LOG_LEVEL (default info; silent under NODE_ENV=test, where the suites would print thousands of
 * lines) and LOG_FORMAT (default pretty in development on a terminal, json otherwise).
 */
export function loadLogSettings(
  env: NodeJS.ProcessEnv,
  nodeEnv: 'development' | 'test' | 'production',
  isTty = Boolean(process.stdout.isTTY),
): LogSettings {
  const requested = env.LOG_LEVEL?.trim().toLowerCase();
  const level = requested && LEVELS.includes(requested) ? requested : nodeEnv === 'test' ? 'silent' : 'info';
  const format =
    env.LOG_FORMAT === 'json' || env.LOG_FORMAT === 'pretty' ? env.LOG_FORMAT : nodeEnv !== 'production' && isTty ? 'pretty' : 'json';
  return { level, format, file: env.LOG_FILE?.trim() || null };
}

/** One readable line per entry: time, level, message, then the fields as key=value. */
function prettyStream(out: NodeJS.WritableStream): DestinationStream {
  return {
    write(line: string) {
      const { time, level, msg, err, pid: _pid, hostname: _host, ...rest } = JSON.parse(line) as Record<string, unknown>;
      const fields = Object.entries(rest)
        .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
        .join(' ');
      const e = err as { message?: string; stack?: string } | undefined;
      out.write(
        `${new Date(String(time)).toISOString().slice(11, 23)} ${String(level).toUpperCase().padEnd(5)} ${msg ?? ''} ${fields}${e ? `\n  ${e.stack ?? e.message}` : ''}\n`,
      );
    },
  };
}

/**
 * Marks a line every field of which the API wrote itself (the request line: ids, numbers, the
 * route template, a request id it checked) with a constant message: such a line skips the
 * redaction pass, which changed nothing in it and cost, on every request, a copy and walk of the
 * object and the scrubbing expressions over the message.
 */
export const TRUSTED_LINE: unique symbol = Symbol('vigia.trusted-line');
type Trusted = { [TRUSTED_LINE]?: true };

/**
 * Issue 52: the lines go out in writes of at least 4 KB, or every 250 ms, whichever comes first
 * (SonicBoom's minLength and periodicFlush). One write a line put a file write on libuv's pool of
 * four threads for every request, the same pool node-sqlite3 runs every statement on; at 500
 * readings a second that was 500 writes. A process that ends by exit or a signal flushes what it
 * holds (pino's exit hook); one killed outright loses at most its last 250 ms of lines.
 */
const BATCHED_WRITES = { minLength: 4096, periodicFlush: 250 };

/**
 * The process's logger: JSON lines on stdout (or `destination`), every argument passed through the
 * redaction rule, so a caller that hands it a row or a sentence with an e-mail in it still writes
 * nothing personal.
 */
export function createLogger(settings: LogSettings, destination?: DestinationStream): Logger {
  const dest =
    destination ??
    (settings.file
      ? pino.destination({ dest: settings.file, sync: false, mkdir: true, ...BATCHED_WRITES })
      : settings.format === 'pretty'
        ? prettyStream(process.stdout)
        : pino.destination({ dest: 1, sync: false, ...BATCHED_WRITES }));
  return pino(
    {
      level: settings.level,
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      messageKey: 'msg',
      serializers: { err: redactError },
      formatters: {
        level: (label) => ({ level: label }),
        log: (obj) => {
          if ((obj as Trusted)[TRUSTED_LINE]) return obj;
          const { err, ...rest } = obj;
          return { ...(redactLogValue(rest) as object), ...(err ? { err } : {}) };
        },
      },
      hooks: {
        logMethod(args, method) {
          if ((args[0] as Trusted | null)?.[TRUSTED_LINE]) return method.apply(this, args);
          // A sentence passed as message (and any printf arguments) is scrubbed like a field.
          const safe = args.map((a, i) => (typeof a === 'string' && (i > 0 || typeof args[0] === 'string') ? scrubText(a) : a));
          method.apply(this, safe as Parameters<typeof method>);
        },
      },
    },
    dest,
  );
}

/** The `log` dependency modules take, writing to `logger` at error level (or warn without an error). */
export function logFunction(logger: Logger): LogFn {
  return (msg, err) => (err === undefined || err === '' ? logger.warn(msg) : logger.error({ err }, msg));
}
