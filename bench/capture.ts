/**
 * The SQL the API really sends for a request, to check that queries.ts still mirrors it. The app
 * is built in this process on the same database with Sequelize's logging on (the measured API runs
 * in its own process and logs nothing), and each request's statements are reduced to a shape:
 * literals, placeholders and aliases out, so '$1' and 'Patient.id = 5' compare equal.
 */
import type { Server } from 'node:http';
import { bootstrap } from '../api/src/bootstrap.js';
import { loadConfig } from '../api/src/config.js';
import { createLogger } from '../api/src/observability/logger.js';
import { bodyOf, fetchRetrying, type HttpRequest } from './load.js';

export function statementShape(sql: string): string {
  let s = sql.replace(/^Execut(?:ing|ed) \([^)]*\):\s*/, '').replace(/;\s*$/, '');
  s = s.replace(/'(?:[^']|'')*'/g, '?').replace(/\$v?\d+/g, '?');
  s = s.replace(/[`"]/g, '');
  for (const [, alias] of s.matchAll(/\b(?:FROM|JOIN)\s+\w+\s+AS\s+(\w+)/gi)) {
    s = s.replace(new RegExp(`\\s+AS\\s+${alias}\\b`, 'g'), '').replace(new RegExp(`\\b${alias}\\.`, 'g'), '');
  }
  s = s.replace(/(?<![\w.?])-?\d+(?:\.\d+)?(?![\w.])/g, '?');
  s = s.replace(/\bIN\s*\(\s*\?(?:\s*,\s*\?)*\s*\)/gi, 'IN (?)');
  s = s.replace(/\bLIMIT\s+\?\s*,\s*\?/gi, 'LIMIT ?').replace(/\s+OFFSET\s+\?/gi, '');
  return s
    .replace(/[()]/g, ' ')
    .replace(/\s*,\s*/g, ', ')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
}

/** Where and how to build the in-process copy of the API: as the measured one, at its clock. */
export interface CaptureOptions {
  dataDir: string;
  databaseUrl: string | null;
  jwtSecret: string;
  token: string;
  /** The measured API's CLOCK_OFFSET_MS: its tokens and signed links are checked at that clock. */
  clockOffsetMs: number;
}

/** A statement as the API sent it: text without Sequelize's prefix, and its bound values if any. */
export interface RawStatement {
  sql: string;
  bind: unknown[];
}

/** For each request, the shapes of the statements the API sent while answering it. */
export async function captureStatements(opts: CaptureOptions, requests: HttpRequest[]): Promise<string[][]> {
  return (await captureRaw(opts, requests)).map((list) => list.map((s) => statementShape(s.sql)));
}

/**
 * For each request, the statements the API sent, as sent (replacements are inlined by Sequelize,
 * bound values kept apart): the read baselines of replay.ts run exactly these on the driver.
 */
export async function captureRaw(opts: CaptureOptions, requests: HttpRequest[]): Promise<RawStatement[][]> {
  const config = loadConfig({
    DATA_DIR: opts.dataDir,
    DATABASE_URL: opts.databaseUrl ?? '',
    JWT_SECRET: opts.jwtSecret,
    NODE_ENV: 'production',
    CLOCK_OFFSET_MS: String(opts.clockOffsetMs),
  });
  // Its request lines (production logs at info, to stdout) would land among the bench's own: a
  // logger writing nowhere, with no file or stdout stream (nor its flush timer) opened for it.
  const logger = createLogger({ level: 'silent', format: 'json', file: null }, { write: () => undefined });
  const product = await bootstrap(config, { serveFrontEnds: false, logger });
  let current: RawStatement[] = [];
  (product.sequelize as unknown as { options: { logging: (sql: string, o?: { bind?: unknown }) => void } }).options.logging = (sql, o) => {
    const bind = Array.isArray(o?.bind) ? o.bind : [];
    current.push({ sql: sql.replace(/^Execut(?:ing|ed) \([^)]*\):\s*/, '').replace(/;\s*$/, ''), bind });
  };
  const server: Server = product.app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as { port: number };
  const out: RawStatement[][] = [];
  try {
    // Start-up work still in flight (the catalogue sync's upserts) must not land in the first request.
    await fetchRetrying(`http://127.0.0.1:${port}/api/v1/health`).then((r) => r.arrayBuffer());
    await new Promise((r) => setTimeout(r, 500));
    for (const r of requests) {
      current = [];
      const res = await fetchRetrying(`http://127.0.0.1:${port}${r.path}`, {
        method: r.method,
        body: bodyOf(r),
        headers: { authorization: `Bearer ${opts.token}`, 'content-type': 'application/json' },
      });
      await res.arrayBuffer();
      out.push(current);
    }
  } finally {
    await new Promise((resolve) => server.close(resolve));
    await product.close();
  }
  return out;
}
