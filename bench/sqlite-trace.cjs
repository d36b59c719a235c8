/**
 * A preload for the API under the bench (BENCH_NODE_ARGS="--require ./bench/sqlite-trace.cjs"): one
 * JSON line on stderr (the API's log) for
 *  - every statement on SQLite's writer connection ("c":"W"; api/src/db/database.ts opens it with
 *    `PRAGMA temp_store = MEMORY`, which is how it is told apart), every checkpoint ("c":"C") and
 *    every other statement over 10 ms ("c":"R"): when it was called (epoch ms), how long until its
 *    callback ran (time queued on the connection and waiting for the main thread included), its SQL;
 *  - every pause of the main thread over 12 ms ("stall": ms), from a 5-ms timer that came late.
 * `npx tsx bench/sqlite-trace-summary.ts LOG` rebuilds the writer's transactions from it and lines
 * them up with the slowest seconds of single readings. A diagnostic only: it slows the API.
 */
/* eslint-disable @typescript-eslint/no-require-imports -- a preload given to --require is CommonJS */
const { performance } = require('node:perf_hooks');
const sqlite3 = require(require.resolve('sqlite3', { paths: [process.cwd()] }));

const out = (o) => process.stderr.write(`${JSON.stringify(o)}\n`);
const origin = Date.now() - performance.now();
const READ_OVER_MS = 10;
const STALL_OVER_MS = 12;

let tick = performance.now();
setInterval(() => {
  const now = performance.now();
  const late = now - tick - 5;
  if (late > STALL_OVER_MS) out({ stall: Math.round(late), at: +(origin + now).toFixed(1) });
  tick = now;
}, 5).unref();

const dbOf = new WeakMap();
const writers = new WeakSet();
const prepare = sqlite3.Database.prototype.prepare;
sqlite3.Database.prototype.prepare = function (...args) {
  const statement = prepare.apply(this, args);
  dbOf.set(statement, this);
  return statement;
};

function wrap(proto, method, onDatabase) {
  const original = proto[method];
  proto[method] = function (...args) {
    const db = onDatabase ? this : dbOf.get(this);
    const sql = onDatabase ? String(args[0]) : String(this.sql ?? '?');
    if (onDatabase && sql.includes('temp_store = MEMORY')) writers.add(this);
    const last = args.findLastIndex((a) => typeof a === 'function');
    if (last < 0) return original.apply(this, args);
    const kind = db && writers.has(db) ? 'W' : sql.includes('wal_checkpoint') ? 'C' : 'R';
    const callback = args[last];
    const called = performance.now();
    args[last] = function (...result) {
      const ms = performance.now() - called;
      if (kind !== 'R' || ms > READ_OVER_MS)
        out({ c: kind, at: +(origin + called).toFixed(1), ms: +ms.toFixed(2), sql: sql.slice(0, 80).replace(/\s+/g, ' ') });
      return callback.apply(this, result);
    };
    return original.apply(this, args);
  };
}
for (const method of ['run', 'all', 'get', 'exec']) wrap(sqlite3.Database.prototype, method, true);
for (const method of ['run', 'all', 'get']) wrap(sqlite3.Statement.prototype, method, false);
