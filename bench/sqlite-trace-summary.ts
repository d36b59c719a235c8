/**
 * Reads an API log written under bench/sqlite-trace.cjs and prints, for each second of single
 * readings (POST …/measurements) whose p99 is over --over ms (default 25), what held the writer then:
 * its transactions of over --tx ms (default 10), rebuilt from BEGIN to COMMIT with each statement's
 * time, the checkpoints, the slow reads and the main thread's pauses.
 *
 *   npx tsx bench/sqlite-trace-summary.ts bench/.data/<set>/api.log [--over 25] [--tx 10] [--rate 480-520]
 *
 * --rate keeps only the seconds with that many readings (480-520: the 500/s phase).
 */
import fs from 'node:fs';
import { summarize } from './stats.js';

interface Call {
  c: 'W' | 'C' | 'R';
  at: number;
  ms: number;
  sql: string;
}
interface Transaction {
  at: number;
  ms: number;
  statements: Call[];
}

/** The writer's calls grouped into transactions; a statement outside BEGIN…COMMIT is one of its own. */
export function transactionsOf(writer: Call[]): Transaction[] {
  const out: Transaction[] = [];
  let open: Call[] | null = null;
  for (const call of writer) {
    if (/^BEGIN/.test(call.sql)) open = [call];
    else if (open && /^(COMMIT|ROLLBACK)/.test(call.sql)) {
      open.push(call);
      out.push({ at: open[0].at, ms: call.at + call.ms - open[0].at, statements: open });
      open = null;
    } else if (open) open.push(call);
    else out.push({ at: call.at, ms: call.ms, statements: [call] });
  }
  return out;
}

function main() {
  const [file, ...rest] = process.argv.slice(2);
  if (!file) throw new Error('usage: npx tsx bench/sqlite-trace-summary.ts LOG [--over 25] [--tx 10] [--rate 480-520]');
  const flag = (name: string, fallback: string) => (rest.includes(name) ? rest[rest.indexOf(name) + 1] : fallback);
  const over = Number(flag('--over', '25'));
  const txOver = Number(flag('--tx', '10'));
  const [minRate, maxRate] = flag('--rate', '0-1000000').split('-').map(Number);
  const calls: Call[] = [];
  const stalls: Array<{ at: number; stall: number }> = [];
  const readings = new Map<number, number[]>();
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (!line.startsWith('{')) continue;
    let o: Record<string, unknown>;
    try {
      o = JSON.parse(line) as Record<string, unknown>;
    } catch {
      continue;
    }
    if (typeof o.c === 'string') calls.push(o as unknown as Call);
    else if (typeof o.stall === 'number') stalls.push(o as unknown as { at: number; stall: number });
    else if (o.method === 'POST' && /measurements/.test(String(o.route)) && typeof o.ms === 'number') {
      // A request's log line is written when it ends: its second is the end's.
      const second = Math.floor(Date.parse(String(o.time)) / 1000);
      const times = readings.get(second);
      if (times) times.push(o.ms);
      else readings.set(second, [o.ms]);
    }
  }
  const transactions = transactionsOf(calls.filter((c) => c.c === 'W'));
  const hhmmss = (ms: number) => new Date(ms).toISOString().slice(11, 23);
  for (const [second, times] of [...readings].sort((a, b) => a[0] - b[0])) {
    if (times.length < minRate || times.length > maxRate) continue;
    const { p99 } = summarize(times);
    console.log(`${hhmmss(second * 1000).slice(0, 8)}  ${times.length} readings  p99 ${p99.toFixed(1)} ms`);
    if (p99 <= over) continue;
    const from = second * 1000 - 200;
    const to = second * 1000 + 1000;
    for (const t of transactions.filter((x) => x.at >= from && x.at < to && x.ms > txOver)) {
      console.log(`  writer ${hhmmss(t.at)}  ${t.ms.toFixed(1)} ms, ${t.statements.length} statements`);
      for (const s of t.statements.filter((x) => x.ms > 2)) console.log(`      ${s.ms.toFixed(1).padStart(6)} ms  ${s.sql.slice(0, 70)}`);
    }
    for (const c of calls.filter((x) => x.c !== 'W' && x.at >= from && x.at < to))
      console.log(`  ${c.c === 'C' ? 'checkpoint' : 'read'} ${hhmmss(c.at)}  ${c.ms.toFixed(1)} ms  ${c.sql.slice(0, 60)}`);
    for (const s of stalls.filter((x) => x.at >= from && x.at < to)) console.log(`  main thread paused ${hhmmss(s.at)}  ${s.stall} ms`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) main();
