/**
 * Reads a V8 CPU profile (.cpuprofile: bench/frontend.ts under BENCH_TRACE, or node --cpu-prof) and
 * prints where its time went: by script, and the functions with the most self time.
 *
 *   npx tsx bench/profile-summary.ts FILE [--top N]
 */
import fs from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** Self time in ms by node id: each sample's delta goes to the node it was taken in. */
export function selfTimes(profile: Profile): Map<number, number> {
  const self = new Map<number, number>();
  profile.samples.forEach((id, k) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[k + 1] ?? 0) / 1000));
  return self;
}

function main() {
  const [file, ...rest] = process.argv.slice(2);
  if (!file) throw new Error('usage: npx tsx bench/profile-summary.ts FILE [--top N]');
  const top = Number(rest[rest.indexOf('--top') + 1]) || 25;
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as Profile;
  const self = selfTimes(profile);
  const byScript = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let total = 0;
  for (const node of profile.nodes) {
    const ms = self.get(node.id) ?? 0;
    total += ms;
    const { functionName, url, lineNumber } = node.callFrame;
    const script = url ? url.replace(/^https?:\/\/[^/]+/, '') : `(${functionName || 'anonymous'})`;
    byScript.set(script, (byScript.get(script) ?? 0) + ms);
    const key = `${functionName || '(anonymous)'} ${script}:${lineNumber + 1}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + ms);
  }
  const print = (title: string, map: Map<string, number>) => {
    console.log(`\n${title}`);
    for (const [k, ms] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top))
      console.log(`${ms.toFixed(1).padStart(9)} ms ${((100 * ms) / total).toFixed(1).padStart(5)} %  ${k}`);
  };
  console.log(`${file}: ${((profile.endTime - profile.startTime) / 1000).toFixed(0)} ms profiled, ${total.toFixed(0)} ms sampled`);
  print('By script', byScript);
  print('By function (self time)', byFunction);
}

if (import.meta.url === `file://${process.argv[1]}`) main();
