/**
 * Seeds as a layer above the API (issue 40). The demo and large data sets are built with the API's
 * own operations and rules, handed to them by the composition root (api/src/seed-deps.ts, through
 * seeds/deps.ts's SeedDeps), so a seed file imports only @vigia/contract, other seed files and the
 * API's types. Fails on a value import from seeds/ into api/, and on any import cycle between the
 * two (check-structure.ts already refuses api/src importing seeds/ outside app.ts and server.ts).
 * A test beside the seeds is a harness, like tests/: it may import the API to hold the demo to the
 * API's rules, and it is no part of the layer (nothing imports it).
 */
import type { FileImport } from '../check-structure.js';

const isTest = (file: string) => /\.test\.tsx?$/.test(file);
const layerOf = (file: string | null) => (file?.startsWith('api/') ? 'api' : file?.startsWith('seeds/') ? 'seeds' : null);

export function checkSeedsLayer(imports: FileImport[]): string[] {
  const problems: string[] = [];
  const edges = { api: [] as FileImport[], seeds: [] as FileImport[] };
  for (const imp of imports) {
    if (imp.typeOnly || isTest(imp.from)) continue;
    const from = layerOf(imp.from);
    const to = layerOf(imp.to);
    if (!from || !to || from === to) continue;
    edges[from].push(imp);
    if (from === 'seeds')
      problems.push(`seeds import API code: ${imp.from} → ${imp.spec} (take it from SeedDeps, handed in by api/src/seed-deps.ts)`);
  }
  if (edges.api.length && edges.seeds.length) {
    const one = (list: FileImport[]) => `${list[0].from} → ${list[0].spec}`;
    problems.push(`import cycle between api and seeds: ${one(edges.api)} and ${one(edges.seeds)}`);
  }
  return problems;
}
