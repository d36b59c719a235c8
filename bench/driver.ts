import pg from 'pg';
import sqlite3 from 'sqlite3';

export type Dialect = 'sqlite' | 'postgres';
export type Row = Record<string, unknown>;

/**
 * The raw driver the read baselines run on: no HTTP, no Express, no Sequelize. SQL is written once
 * with `$1`-style placeholders, which PostgreSQL takes as they are and SQLite as `?1`.
 */
export interface Driver {
  dialect: Dialect;
  all<T extends object = Row>(sql: string, params?: unknown[]): Promise<T[]>;
  /** The plan, one line per node, indented by depth; on PostgreSQL with the rows really read. */
  explain(sql: string, params?: unknown[]): Promise<string[]>;
  version(): Promise<string>;
  close(): Promise<void>;
}

export type DriverTarget = { dialect: 'sqlite'; file: string } | { dialect: 'postgres'; url: string };

export async function openDriver(target: DriverTarget, opts: { connections: number }): Promise<Driver> {
  return target.dialect === 'sqlite' ? openSqlite(target.file) : openPostgres(target.url, opts.connections);
}

/** Longer than any statement the bench sends SQLite at the issues' sizes (the slowest take seconds). */
const SQLITE_WATCHDOG_MS = 300_000;

function openSqlite(file: string): Promise<Driver> {
  const toSqlite = (sql: string) => sql.replace(/\$(\d+)/g, '?$1');
  return new Promise((resolve, reject) => {
    // One handle with the default page cache, as the API has: Sequelize's SQLite dialect shares
    // one handle among all its queries (outside transactions).
    const db = new sqlite3.Database(file, sqlite3.OPEN_READWRITE, (err) => {
      if (err) return reject(err);
      // The API writes in the background (jobs) and ingestion's clean-up writes here: wait, do not fail.
      db.run('PRAGMA busy_timeout = 5000');
      // Statements in flight, watched: a callback node-sqlite3 never calls (reported upstream, e.g.
      // TryGhost/node-sqlite3#1060) would leave nothing to wait on, and Node would exit 0 mid-run. A
      // ref'd check every 10 s while any is pending fails the oldest past SQLITE_WATCHDOG_MS instead
      // (a Map entry per statement: nothing measurable beside the baselines it times).
      const pending = new Map<number, { sql: string; since: number; fail: (e: Error) => void }>();
      let nextId = 0;
      let watch: NodeJS.Timeout | null = null;
      const check = () => {
        const now = performance.now();
        for (const [id, p] of pending)
          if (now - p.since > SQLITE_WATCHDOG_MS) {
            pending.delete(id);
            p.fail(new Error(`SQLite no respondió en ${SQLITE_WATCHDOG_MS / 1000} s a: ${p.sql.replace(/\s+/g, ' ').slice(0, 120)}`));
          }
        if (pending.size === 0 && watch) {
          clearInterval(watch);
          watch = null;
        }
      };
      const all = <T extends object>(sql: string, params: unknown[] = []) =>
        new Promise<T[]>((ok, fail) => {
          const id = nextId++;
          pending.set(id, { sql, since: performance.now(), fail });
          watch ??= setInterval(check, 10_000);
          db.all(toSqlite(sql), params, (e: Error | null, rows: T[]) => {
            if (!pending.delete(id)) return;
            if (e) fail(e);
            else ok(rows);
          });
        });
      resolve({
        dialect: 'sqlite',
        all,
        async explain(sql, params) {
          const rows = await all<{ id: number; parent: number; detail: string }>(`EXPLAIN QUERY PLAN ${sql}`, params);
          const depth = new Map<number, number>([[0, -1]]);
          return rows.map((r) => {
            const d = (depth.get(r.parent) ?? -1) + 1;
            depth.set(r.id, d);
            return `${'  '.repeat(d)}${r.detail}`;
          });
        },
        async version() {
          const [row] = await all<{ v: string }>('SELECT sqlite_version() AS v');
          return `SQLite ${row.v}`;
        },
        close: () => {
          if (watch) clearInterval(watch);
          watch = null;
          return new Promise((ok) => db.close(() => ok()));
        },
      });
    });
  });
}

async function openPostgres(url: string, connections: number): Promise<Driver> {
  // A pool as large as the API's (max 10), so concurrent baselines get the same parallelism.
  const pool = new pg.Pool({ connectionString: url, max: Math.max(1, Math.min(connections, 10)) });
  const all = async <T extends object>(sql: string, params: unknown[] = []) => (await pool.query<T>(sql, params)).rows;
  return {
    dialect: 'postgres',
    all,
    // ANALYZE runs the statement (all are reads) and shows the rows each node really read, which
    // is where a plan that looks cheap turns out not to be.
    async explain(sql, params) {
      return (await all<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`, params)).map((r) => r['QUERY PLAN']);
    },
    async version() {
      const [row] = await all<{ server_version: string }>('SHOW server_version');
      return `PostgreSQL ${row.server_version}`;
    },
    close: () => pool.end(),
  };
}

/** EXPLAIN ANALYZE's rows returned by a node, over all its loops. */
function actualRows(line: string): string {
  const m = /actual time=[\d.]+\.\.[\d.]+ rows=(\d+) loops=(\d+)/.exec(line);
  return m ? ` (${(Number(m[1]) * Number(m[2])).toLocaleString('en-US')} rows)` : '';
}

/** What a plan says about each table access: which index, or a full scan. */
export function describeAccess(dialect: Dialect, plan: string[]): string[] {
  const out: string[] = [];
  for (const raw of plan) {
    const line = raw.trim();
    if (dialect === 'sqlite') {
      let m = /^SEARCH (\S+)(?: AS \S+)? USING (?:COVERING )?INDEX (\S+) \((.*)\)/.exec(line);
      if (m) {
        out.push(`${m[1]}: index ${m[2]} (${m[3]})`);
        continue;
      }
      m = /^SEARCH (\S+)(?: AS \S+)? USING INTEGER PRIMARY KEY \((.*)\)/.exec(line);
      if (m) {
        out.push(`${m[1]}: primary key (${m[2]})`);
        continue;
      }
      m = /^SCAN (\S+)(?: AS \S+)? USING (?:COVERING )?INDEX (\S+)/.exec(line);
      if (m) {
        out.push(`${m[1]}: whole index ${m[2]}, no bound`);
        continue;
      }
      m = /^SCAN (\S+)/.exec(line);
      if (m && !/^SCAN CONSTANT ROW/.test(line)) {
        out.push(`${m[1]}: FULL TABLE SCAN`);
        continue;
      }
      if (/USE TEMP B-TREE/.test(line)) out.push(line.toLowerCase());
    } else {
      let m = /(Index Only Scan|Index Scan)( Backward)? using (\S+) on (\S+)/.exec(line);
      if (m) {
        out.push(`${m[4]}: ${m[1].toLowerCase()}${m[2] ? ' backward' : ''} ${m[3]}${actualRows(line)}`);
        continue;
      }
      m = /Bitmap Index Scan on (\S+)/.exec(line);
      if (m) {
        out.push(`bitmap index scan ${m[1]}${actualRows(line)}`);
        continue;
      }
      m = /Seq Scan on (\S+)/.exec(line);
      if (m) {
        out.push(`${m[1]}: FULL TABLE SCAN (seq scan)${actualRows(line)}`);
        continue;
      }
      m = /Rows Removed by Filter: (\d+)/.exec(line);
      if (m && out.length && Number(m[1]) > 0) out[out.length - 1] += `, ${Number(m[1]).toLocaleString('en-US')} rows read and discarded`;
    }
  }
  return out;
}
