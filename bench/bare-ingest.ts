/**
 * The ingestion baseline of issue 7: a bare Express route that inserts the same measurement rows
 * as POST /api/v1/patients/{id}/measurements, with the raw driver (sqlite3 or pg), and nothing
 * else: no auth, no validation, no patient lookup, no hooks. Started by ingest.ts as its own
 * process, like the API, on the same database: `node --import tsx bench/bare-ingest.ts`.
 * Env: PORT, BENCH_CLIENT_ID, BENCH_SQLITE_FILE or BENCH_PG_URL, and the API's CLOCK_OFFSET_MS.
 */
import express from 'express';
import { createClock } from '../api/src/config.js';
import pg from 'pg';
import sqlite3 from 'sqlite3';

type Insert = (sql: string) => Promise<unknown[]>;

function formatTs(d: Date): string {
  return `${d.toISOString().replace('T', ' ').replace('Z', '')} +00:00`;
}

async function openInsert(): Promise<Insert> {
  if (process.env.BENCH_PG_URL) {
    // The API's pool size.
    const pool = new pg.Pool({ connectionString: process.env.BENCH_PG_URL, max: 10 });
    return async (sql) => (await pool.query(sql)).rows;
  }
  const db = await new Promise<sqlite3.Database>((ok, fail) => {
    const h = new sqlite3.Database(process.env.BENCH_SQLITE_FILE!, sqlite3.OPEN_READWRITE, (e) => (e ? fail(e) : ok(h)));
  });
  const exec = (sql: string) => new Promise<void>((ok, fail) => db.exec(sql, (e) => (e ? fail(e) : ok())));
  // The API's settings (api/src/db/database.ts).
  await exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 5000;');
  return (sql) => new Promise((ok, fail) => db.all(sql, [], (e: Error | null, rows: unknown[]) => (e ? fail(e) : ok(rows))));
}

async function main() {
  const insert = await openInsert();
  const clientId = Number(process.env.BENCH_CLIENT_ID);
  // "now" as the API reads it (the run's clock, bench/server.ts).
  const clock = createClock(Number(process.env.CLOCK_OFFSET_MS ?? 0));
  const app = express();
  app.use(express.json({ limit: '1mb' }));
  app.post('/bare/patients/:id/measurements', async (req, res) => {
    const patientId = Number(req.params.id);
    type Sent = { clinical_element: number; value: number; when?: string };
    const body = req.body as Partial<Sent> & { measurements?: Sent[] };
    const list = body.measurements ?? [body as Sent];
    const now = formatTs(clock());
    // The same row the API stores: the reading's own time when it has one, else now.
    const values = list
      .map(
        (m) =>
          `(${clientId},${patientId},${Number(m.clinical_element)},${Number(m.value)},'${m.when ? formatTs(new Date(m.when)) : now}',0,NULL,TRUE,'staff',NULL,NULL,NULL,'${now}')`,
      )
      .join(',');
    const rows = await insert(
      `INSERT INTO measurements (client_id, patient_id, clinical_element, value, "when", status, comment, eraseble, source, created_by, device_id, reading_id, created_at) VALUES ${values} RETURNING id`,
    );
    res.status(201).json(rows);
  });
  app.get('/bare/health', (_req, res) => {
    res.json({ ok: true });
  });
  app.listen(Number(process.env.PORT), '127.0.0.1');
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
