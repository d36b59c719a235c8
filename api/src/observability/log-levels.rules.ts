/**
 * What each LOG_LEVEL writes (issue 49; docs/operations.md 'Logs'), every line without personal
 * data (redact.rules.ts):
 * - error, warn: failures; the job runner's 'the database does not answer'.
 * - info (default): one line per request (5xx at error), the process's start, drain and stop, the
 *   job runner's 'the database answers again', the daily backup.
 * - debug: also each job run (kind, id, attempt, outcome, ms; never its payload) and each request
 *   the process sends (method, origin, status or error code, ms; never the path, query or body:
 *   a provider's path may hold a phone number).
 * - trace: also each SQL statement's time (dialect, ms; never its text, into which Sequelize
 *   writes the values of some statements).
 */

export interface EchoFacts {
  nodeEnv: 'development' | 'test' | 'production';
  /** LOG_FILE, when the lines go to a file. */
  logFile: string | null;
  /** Whether stdout is a terminal (a person reading), not a file or a pipe to a collector. */
  stdoutIsTty: boolean;
}

/**
 * The development convenience: without an SMS provider, each SMS (a patient's one-time code and
 * phone) is also printed, so a demo sign-in needs no API call. Only to a person at a terminal:
 * never in production, never when the logs go to a file (LOG_FILE), never when stdout is itself
 * redirected to one or to a collector.
 */
export function echoesSmsToConsole(f: EchoFacts): boolean {
  return f.nodeEnv === 'development' && f.logFile === null && f.stdoutIsTty;
}
