import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Manifest } from './dataset.js';
import type { ContentionResult, ScenarioResult, Settings } from './measure.js';
import { extraRows, measuredPhases, renderExtraDetails, type Extras } from './report-extras.js';
import { API_RSS_TARGET_BYTES, CONTENTION_TARGET, PENDING, TARGET_PATIENTS_PER_CLIENT } from './targets.js';

export interface Row {
  what: string;
  target: string;
  figure: string;
  baseline: string;
  ratio: string;
  result: string;
}

export interface Results {
  date: string;
  runSeconds: number;
  machine: { cpuModel: string; cpuCount: number; totalMemoryBytes: number; node: string; platform: string };
  /** layout: how `measurements` is laid out (`--partitioned`); absent in results of earlier runs. */
  database: { dialect: string; version: string; layout?: string };
  dataset: Manifest & { reused: boolean; folder: string };
  settings: Settings;
  scenarios: ScenarioResult[];
  contention: ContentionResult | null;
  /** Ingestion, CSV export, front ends, scale-out (report-extras.ts). */
  extras?: Extras;
  memory: { idleBytes: number; peakBytes: number; highWaterBytes: number; perPhase: Array<{ phase: string; peakBytes: number }> };
  rows: Row[];
}

export function describeMachine(): Results['machine'] {
  const cpus = os.cpus();
  return {
    cpuModel: cpus[0]?.model ?? 'unknown',
    cpuCount: cpus.length,
    totalMemoryBytes: os.totalmem(),
    node: process.version,
    platform: `${os.platform()} ${os.release()}`,
  };
}

const ms = (v: number) => (Number.isFinite(v) ? `${v < 10 ? v.toFixed(2) : v.toFixed(1)} ms` : '—');
const perSecond = (v: number) => `${v < 100 ? v.toFixed(1) : Math.round(v).toLocaleString('en-US')}/s`;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const times = (v: number) => (Number.isFinite(v) ? `${v.toFixed(2)}×` : '—');
const count = (n: number) => n.toLocaleString('en-US');

/** The summary table: every measured figure beside its baseline, then the rows still to build. */
export function buildRows(r: Omit<Results, 'rows'>): Row[] {
  const smaller = r.dataset.options.patients < TARGET_PATIENTS_PER_CLIENT;
  const verdict = (ok: boolean) => (ok ? 'pass' : 'FAIL') + (smaller ? ' ¹' : '');
  const rows: Row[] = [];
  for (const s of r.scenarios) {
    const signIn = s.loaded === null;
    if (signIn) {
      rows.push({
        what: `${s.label}: sign-ins/s at 1 connection (p95 ${ms(s.single.latency.p95)})`,
        target: '— (CPU-bound by design)',
        figure: perSecond(s.single.rps),
        baseline: `${perSecond(1000 / s.baseline.latency.mean)} (same SQL + the API's password module in-process)`,
        ratio: times(s.single.rps / (1000 / s.baseline.latency.mean)),
        result: '—',
      });
      continue;
    }
    const p95 = s.single.latency.p95;
    rows.push({
      what: `${s.label}: p95 at 1 connection`,
      target: s.p95TargetMs ? `≤ ${s.p95TargetMs} ms` : '—',
      figure: ms(p95),
      baseline: `${ms(s.baseline.latency.p95)} (same SQL on the driver)`,
      ratio: times(p95 / s.baseline.latency.p95),
      result: s.p95TargetMs ? verdict(p95 <= s.p95TargetMs) : '—',
    });
  }
  for (const s of r.scenarios) {
    if (!s.loaded || !s.baseline.throughput) continue;
    const target = s.rpsTarget ?? null;
    rows.push({
      what: `${s.label}: throughput at ${s.loaded.connections} connections (p95 ${ms(s.loaded.latency.p95)})`,
      target: target ? `≥ ${perSecond(target)}` : '—',
      figure: perSecond(s.loaded.rps),
      baseline: `${perSecond(s.baseline.throughput.rps)} (driver, ${s.baseline.throughput.concurrency} loops)`,
      ratio: times(s.loaded.rps / s.baseline.throughput.rps),
      result: target ? verdict(s.loaded.rps >= target && s.loaded.non2xx + s.loaded.errors === 0) : '—',
    });
  }
  if (r.contention) {
    const c = r.contention;
    const alone = r.scenarios.find((s) => s.id === 'patients-list');
    const ratio = alone ? c.foreground.latency.p95 / alone.single.latency.p95 : NaN;
    const load = c.offeredRate
      ? `${perSecond(c.offeredRate)} offered, ${perSecond(c.background.rps)} answered`
      : `${c.backgroundConnections} connections, ${perSecond(c.background.rps)}`;
    rows.push({
      what: `${c.label} (${load}): p95`,
      target: `≤ ${CONTENTION_TARGET.maxRatio}× alone`,
      figure: ms(c.foreground.latency.p95),
      baseline: alone ? `${ms(alone.single.latency.p95)} (the same page alone, this run)` : '—',
      ratio: times(ratio),
      result: Number.isFinite(ratio) ? verdict(ratio <= CONTENTION_TARGET.maxRatio) : '—',
    });
  }
  rows.push({
    what: 'API memory under all of the above: peak RSS',
    target: `≤ ${mb(API_RSS_TARGET_BYTES)}`,
    figure: `${mb(r.memory.peakBytes)} (VmHWM ${mb(r.memory.highWaterBytes)})`,
    baseline: `${mb(r.memory.idleBytes)} (idle after start-up)`,
    ratio: times(r.memory.peakBytes / r.memory.idleBytes),
    result: verdict(Math.max(r.memory.peakBytes, r.memory.highWaterBytes) <= API_RSS_TARGET_BYTES),
  });
  for (const x of extraRows(r.extras, r.database.dialect)) {
    rows.push({
      what: x.what,
      target: x.target,
      figure: x.figure,
      baseline: x.baseline,
      ratio: x.ratio,
      result: x.ok === null ? '—' : verdict(x.ok),
    });
  }
  const ran = new Set([...r.scenarios.map((s) => s.id), ...measuredPhases(r.extras)]);
  for (const p of PENDING.filter((x) => !ran.has(x.id)))
    rows.push({ what: p.what, target: p.target, figure: 'pendiente', baseline: '—', ratio: '—', result: `pendiente (${p.waitsFor})` });
  return rows;
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
function table(head: string[], body: string[][]): string {
  return [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...body.map((row) => `| ${row.map(cell).join(' | ')} |`)].join(
    '\n',
  );
}

function renderMisses(r: Results): string[] {
  const out: string[] = [];
  for (const s of r.scenarios) {
    if (!s.p95TargetMs || s.single.latency.p95 <= s.p95TargetMs) continue;
    const over = s.single.latency.p95 - s.p95TargetMs;
    const slowest = [...s.baseline.statements].sort((a, b) => b.latency.p95 - a.latency.p95)[0];
    const plan = s.plans.find((p) => p.label === slowest.label && p.sql === slowest.sql);
    out.push(
      `- **${s.label}** (\`${s.endpoint}\`): p95 ${ms(s.single.latency.p95)} against ≤ ${s.p95TargetMs} ms, ${ms(over)} over (${times(s.single.latency.p95 / s.p95TargetMs)} the target). ` +
        `Its slowest statement on the bare driver is "${slowest.label}" at p95 ${ms(slowest.latency.p95)}` +
        (plan ? `, planned as: ${plan.access.join('; ') || plan.plan.join(' / ')}.` : '.'),
    );
  }
  for (const s of r.scenarios) {
    if (!s.rpsTarget || !s.loaded || s.loaded.rps >= s.rpsTarget) continue;
    out.push(
      `- **${s.label}**: ${perSecond(s.loaded.rps)} at ${s.loaded.connections} connections against ≥ ${perSecond(s.rpsTarget)} (the driver ran its statements at ${s.baseline.throughput ? perSecond(s.baseline.throughput.rps) : '—'}; API CPU ${ms(s.loaded.apiCpuMsPerRequest)} per request).`,
    );
  }
  for (const x of extraRows(r.extras, r.database.dialect).filter((row) => row.ok === false))
    out.push(`- **${x.what}**: ${x.figure} against ${x.target} (baseline ${x.baseline}).`);
  const peak = Math.max(r.memory.peakBytes, r.memory.highWaterBytes);
  if (peak > API_RSS_TARGET_BYTES) out.push(`- **API RSS**: peak ${mb(peak)} against ≤ ${mb(API_RSS_TARGET_BYTES)}.`);
  for (const s of r.scenarios) {
    if (!s.check.sameSql) {
      const onlyApi = s.check.apiSql.filter((q) => !s.check.baselineSql.includes(q));
      const onlyBase = s.check.baselineSql.filter((q) => !s.check.apiSql.includes(q));
      out.push(
        `- **${s.label}**: the baseline does not send the statements the API sends, so its figure is not a like-for-like baseline; bench/queries.ts needs updating. Only the API: ${onlyApi.map((q) => `\`${q}\``).join('; ') || '—'}. Only the baseline: ${onlyBase.map((q) => `\`${q}\``).join('; ') || '—'}.`,
      );
    }
    if (!s.check.same)
      out.push(
        `- **${s.label}**: the baseline did not return what the API returned (API ${JSON.stringify(s.check.api)}, baseline ${JSON.stringify(s.check.baseline)}); bench/queries.ts no longer mirrors the service.`,
      );
    const bad = s.single.non2xx + s.single.errors + (s.loaded ? s.loaded.non2xx + s.loaded.errors : 0);
    if (bad) out.push(`- **${s.label}**: ${bad} errors or non-2xx answers during the load.`);
  }
  return out;
}

function renderDetails(r: Results): string[] {
  const lines: string[] = ['## Endpoints in detail', ''];
  const loadRow = (s: ScenarioResult, l: NonNullable<ScenarioResult['loaded']>) => [
    s.endpoint,
    String(l.connections),
    perSecond(l.rps),
    ms(l.latency.p50),
    ms(l.latency.p95),
    ms(l.latency.p99),
    String(l.non2xx),
    String(l.errors + l.timeouts),
    ms(l.apiCpuMsPerRequest),
    mb(s.apiPeakRssBytes),
  ];
  lines.push('API CPU per request: user + system time of the API process (all its threads) during the phase, divided by the answers.', '');
  lines.push(
    table(
      ['endpoint', 'connections', '2xx/s', 'p50', 'p95', 'p99', 'non-2xx', 'errors', 'API CPU/request', 'API peak RSS'],
      r.scenarios.flatMap((s) => [loadRow(s, s.single), ...(s.loaded ? [loadRow(s, s.loaded)] : [])]),
    ),
  );
  lines.push('', "Inputs the requests cycle through (drawn evenly from client A's patients):", '');
  for (const s of r.scenarios) {
    const shown = s.inputs.map((i) =>
      i == null ? '(none)' : typeof i === 'object' ? ((i as { email?: string }).email ?? JSON.stringify(i)) : String(i),
    );
    lines.push(
      `- ${s.endpoint}: ${shown.join(', ')}${s.check.api.total != null ? ` (X-Total-Count for the first: ${count(s.check.api.total)})` : ''}`,
    );
  }

  lines.push(
    '',
    '## Baselines per statement',
    '',
    'The same statements the endpoint sends, in the same order, on the bare driver (one connection, back to back, no HTTP, no ORM).',
    '',
  );
  for (const s of r.scenarios) {
    lines.push(`### ${s.endpoint}`, '');
    lines.push(
      table(
        ['statement', 'p50', 'p95', 'p99'],
        [
          ...s.baseline.statements.map((st) => [st.label, ms(st.latency.p50), ms(st.latency.p95), ms(st.latency.p99)]),
          [
            `**whole request** (${count(s.baseline.latency.count)} runs)`,
            ms(s.baseline.latency.p50),
            ms(s.baseline.latency.p95),
            ms(s.baseline.latency.p99),
          ],
        ],
      ),
      '',
    );
  }

  lines.push(
    '## Query plans',
    '',
    `\`${r.database.dialect === 'sqlite' ? 'EXPLAIN QUERY PLAN' : 'EXPLAIN (ANALYZE, BUFFERS)'}\` of each statement, for the first input. A statement and plan already shown for an earlier endpoint is named, not repeated.`,
    '',
  );
  const shown = new Map<string, string>();
  for (const s of r.scenarios) {
    if (!s.plans.length) continue;
    lines.push(`### ${s.endpoint}`, '');
    for (const p of s.plans) {
      const params = p.params.length > 6 ? `${p.params.length} values` : JSON.stringify(p.params);
      // Timings and buffer counts differ on every run of the same plan.
      const shape = p.plan
        .filter((l) => !/^\s*(Buffers|Planning|Execution|I\/O Timings)/.test(l))
        .map((l) => l.replace(/ \(actual[^)]*\)/, ''));
      const key = `${p.sql}\n${shape.join('\n')}`;
      const earlier = shown.get(key);
      if (earlier) {
        lines.push(`**${p.label}** — same statement and plan as under ${earlier} (params: ${params})`, '');
        continue;
      }
      shown.set(key, s.endpoint);
      lines.push(
        `**${p.label}** — ${p.access.length ? p.access.join('; ') : 'no table access'}`,
        '',
        '```sql',
        p.sql.replace(/\s+/g, ' '),
        `-- params: ${params}`,
        ...p.plan.map((l) => `-- ${l}`),
        '```',
        '',
      );
    }
  }
  return lines;
}

function renderMarkdown(r: Results): string {
  const d = r.dataset;
  const o = d.options;
  const lines: string[] = [
    '# Benchmark results',
    '',
    `Generated by \`npm run bench\` (bench/run.ts) on ${r.date}. Targets are those of issue 7. How to run and read it: bench/README.md.`,
    '',
    `- **Machine**: ${r.machine.cpuModel} × ${r.machine.cpuCount}, ${mb(r.machine.totalMemoryBytes)} RAM, ${r.machine.platform}, Node ${r.machine.node}`,
    `- **Database**: ${r.database.version}${r.database.layout && r.database.layout !== 'one measurements table' ? `; ${r.database.layout}` : ''}`,
    `- **Data set**: ${count(o.patients)} patients per client × ${o.clients} clients, 0–${o.measurementsPerPatient} measurements per patient, seed ${o.seed}, seed clock ${o.now}; ${mb(d.sizeBytes)} on disk; ${d.reused ? `built ${d.builtAt} in ${d.buildSeconds.toFixed(1)} s, reused` : `built in ${d.buildSeconds.toFixed(1)} s`}`,
    `- **Rows**: ${Object.entries(d.counts)
      .filter(([, n]) => n >= 1000)
      .sort((a, b) => b[1] - a[1])
      .map(([t, n]) => `${t} ${count(n)}`)
      .join(' · ')}`,
    `- **Load**: autocannon from the benchmark process over loopback to the API in its own process; per endpoint ${r.settings.warmupSeconds} s warm-up, then ${r.settings.seconds} s at 1 connection and ${r.settings.seconds} s at ${r.settings.connections} connections. Baselines: ${r.settings.seconds / 2} s (or 2,000 runs) back to back, then ${r.settings.seconds / 2} s from ${r.settings.connections} loops.`,
    `- **Run time**: ${(r.runSeconds / 60).toFixed(1)} min in all`,
    '',
    '## Summary',
    '',
    'Ratio = figure ÷ baseline. A p95 held against a target is measured at one connection (no queueing), like its baseline; the throughput rows show latency under load.',
    '',
    table(
      ['what', 'target', 'figure', 'baseline', 'ratio', 'result'],
      r.rows.map((row) => [row.what, row.target, row.figure, row.baseline, row.ratio, row.result]),
    ),
    '',
  ];
  if (o.patients < TARGET_PATIENTS_PER_CLIENT) {
    lines.push(
      `¹ Measured at ${count(o.patients)} patients per client; the issue states the target for ${count(TARGET_PATIENTS_PER_CLIENT)} (\`npm run bench -- --patients ${TARGET_PATIENTS_PER_CLIENT} --measurements-per-patient 50\`).`,
      '',
    );
  }
  const failed = r.extras?.failedPhases ?? [];
  if (failed.length)
    lines.push(
      '## Phases that failed',
      '',
      'Their rows stay pendiente; every other row was measured.',
      '',
      ...failed.map((f) => `- \`${f.phase}\`: ${f.error}`),
      '',
    );
  const misses = renderMisses(r);
  lines.push('## Targets missed and anomalies', '', ...(misses.length ? misses : ['None.']), '');
  lines.push(...renderExtraDetails(r.extras), ...renderDetails(r));
  return `${lines.join('\n').trimEnd()}\n`;
}

export function writeReport(outDir: string, results: Results): { json: string; markdown: string } {
  fs.mkdirSync(outDir, { recursive: true });
  const json = path.join(outDir, 'results.json');
  const markdown = path.join(outDir, 'RESULTS.md');
  fs.writeFileSync(json, `${JSON.stringify(results, null, 2)}\n`);
  fs.writeFileSync(markdown, renderMarkdown(results));
  return { json, markdown };
}
