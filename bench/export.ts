/**
 * CSV export of a year of one patient's readings (issue 7): GET .../measurements?format=csv
 * answers {url}; the download streams the file. Measured on the client's year-long patient (the
 * seed's first active patient, `--heavy-readings` readings): time to first byte, time and bytes of
 * the whole file, one download at a time, then `parallel` at once, with the API's RSS sampled
 * throughout (peak and the kernel's VmHWM). Baseline: the SQL the download sends (captured,
 * replay.ts) run on the bare driver, plus writing the same rows as CSV text in memory.
 */
import { captureRaw, type RawStatement } from './capture.js';
import type { Driver } from './driver.js';
import { fetchRetrying } from './load.js';
import type { ApiProcess } from './server.js';
import { summarize, type Latency } from './stats.js';

export interface ExportResult {
  patientId: number;
  range: { start_at: string; end_at: string };
  rows: number;
  bytes: number;
  firstByte: Latency;
  whole: Latency;
  parallel: { downloads: number; seconds: number };
  baseline: { statements: number; whole: Latency };
  apiPeakRssBytes: number;
  apiHighWaterBytes: number;
}

async function download(url: string): Promise<{ firstByteMs: number; ms: number; bytes: number; lines: number }> {
  const t = performance.now();
  const res = await fetchRetrying(url);
  if (res.status !== 200 || !res.body) throw new Error(`La descarga del CSV respondió ${res.status}: ${await res.text()}`);
  const reader = res.body.getReader();
  let firstByteMs = 0;
  let bytes = 0;
  let lines = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (!firstByteMs) firstByteMs = performance.now() - t;
    bytes += value.byteLength;
    for (const b of value) if (b === 10) lines++;
  }
  return { firstByteMs, ms: performance.now() - t, bytes, lines };
}

export async function measureExport(deps: {
  api: ApiProcess;
  driver: Driver;
  token: string;
  dataDir: string;
  databaseUrl: string | null;
  jwtSecret: string;
  clockOffsetMs: number;
  patientId: number;
  now: string;
  repeats: number;
  parallel: number;
  log: (line: string) => void;
}): Promise<ExportResult> {
  const { api, token, log } = deps;
  const end = deps.now.slice(0, 10);
  const start = new Date(Date.parse(deps.now) - 365 * 86_400_000).toISOString().slice(0, 10);
  const linkPath = `/api/v1/patients/${deps.patientId}/measurements?format=csv&start_at=${start}&end_at=${end}`;
  log(`GET ${linkPath} → descarga (paciente con un año de lecturas)`);
  const linkRes = await fetchRetrying(`${api.baseUrl}${linkPath}`, { headers: { authorization: `Bearer ${token}` } });
  if (linkRes.status !== 200) throw new Error(`El enlace del CSV respondió ${linkRes.status}: ${await linkRes.text()}`);
  const { url } = (await linkRes.json()) as { url: string };
  const full = url.startsWith('http') ? url : `${api.baseUrl}${url}`;

  api.memory.setPhase('csv-export');
  const first: number[] = [];
  const whole: number[] = [];
  let bytes = 0;
  let lines = 0;
  for (let i = 0; i < deps.repeats; i++) {
    const d = await download(full);
    first.push(d.firstByteMs);
    whole.push(d.ms);
    bytes = d.bytes;
    lines = d.lines;
  }
  log(
    `  ${lines.toLocaleString('en-US')} líneas, ${(bytes / 1024 / 1024).toFixed(1)} MB: primer byte p50 ${summarize(first).p50.toFixed(0)} ms · completo p50 ${summarize(whole).p50.toFixed(0)} ms`,
  );
  const t = performance.now();
  await Promise.all(Array.from({ length: deps.parallel }, () => download(full)));
  const parallelSeconds = (performance.now() - t) / 1000;
  log(`  ${deps.parallel} descargas a la vez: ${parallelSeconds.toFixed(1)} s`);
  const apiPeakRssBytes = api.memory.peaks().find((p) => p.phase === 'csv-export')?.peakBytes ?? 0;

  // Baseline: the statements of one download, as the API sent them, on the bare driver.
  const [statements] = await captureRaw(
    { dataDir: deps.dataDir, databaseUrl: deps.databaseUrl, jwtSecret: deps.jwtSecret, token, clockOffsetMs: deps.clockOffsetMs },
    [{ method: 'GET', path: url.startsWith('http') ? new URL(url).pathname : url }],
  );
  const reads = statements.filter((s: RawStatement) => /^\s*SELECT/i.test(s.sql));
  const base: number[] = [];
  for (let i = 0; i < deps.repeats; i++) {
    const t0 = performance.now();
    let text = 0;
    for (const s of reads) {
      const rows = await deps.driver.all<Record<string, unknown>>(s.sql, s.bind);
      for (const r of rows) text += Object.values(r).join(',').length + 1;
    }
    base.push(performance.now() - t0);
    if (!text) log('  AVISO: la línea base del CSV no leyó filas');
  }
  log(
    `  base (driver, ${reads.length} sentencias): p50 ${summarize(base).p50.toFixed(0)} ms · RSS pico API ${(apiPeakRssBytes / 1024 / 1024).toFixed(0)} MB`,
  );
  return {
    patientId: deps.patientId,
    range: { start_at: start, end_at: end },
    rows: Math.max(0, lines - 1),
    bytes,
    firstByte: summarize(first),
    whole: summarize(whole),
    parallel: { downloads: deps.parallel, seconds: parallelSeconds },
    baseline: { statements: reads.length, whole: summarize(base) },
    apiPeakRssBytes,
    apiHighWaterBytes: api.memory.highWaterBytes(),
  };
}
