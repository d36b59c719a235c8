/**
 * The API for production: one ES module, api/dist/server.js, bundled by esbuild (the transpiler
 * tsx already uses) with every npm package left as an import. `npx tsx api/build.ts` builds it. `npm start` runs it with plain
 * node: no TypeScript loader thread in the server (~30 MB of RSS under tsx) and no source maps
 * resolved on every captured stack. Tests and `npm run dev` keep running the sources with tsx.
 * api/dist/server.js sits two levels under the root, like api/src/paths.ts, so run-time files
 * resolve the same way (see paths.ts).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { workerBundleOf } from './src/modules/fhir_exports/fhir-exports.bundle.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export const SERVER_BUNDLE = path.join(root, 'api', 'dist', 'server.js');

/**
 * The environment `npm start` gives the server (package.json repeats it; keep them in step): at
 * most two malloc arenas, instead of one per thread that allocates (libuv's pool runs SQLite),
 * which kept ~20 MB of RSS that the API never used again.
 */
export const SERVER_ENV = { MALLOC_ARENA_MAX: '2' } as const;

/**
 * The V8 flags `npm start` gives the server (package.json repeats them too): semi-spaces of at
 * most 8 MB instead of 16, so the young generation stays under 24 MB. On the issue 7 benchmark's
 * ingestion phase (100,000 x 2 patients) the API peaked at 259 MB instead of 274 MB with the same
 * readings per second within the run's noise; the run of every phase had reached 300 MB.
 * And the old generation grows to at most one and a half times what the last full collection left
 * before the next one (V8's own factor went up to four: 37 MB live, collected at 150-175 MB under
 * 500 readings/s). Twice (issue 22) took the ingestion phase at 20,000 x 2 from 270 MB to 196 MB;
 * one and a half (P278) took the full run at 100,000 x 2 from 322 MB to 298 MB at its peak (the RDA
 * backlog's drain), the Bulk export beside ingestion from 322 to 284 MB, every phase 20-40 MB lower,
 * with readings per second, the export's rate and the drain's within the paired runs' noise.
 * And a full collection marks the heap on the main thread, in the small steps V8 interleaves with
 * the requests, instead of on helper threads beside it (P205): on two cores those threads took
 * their turns from SQLite's thread and the main one, and the slow requests at 500 readings/s came
 * in bursts just before each collection ended. Three alternated rounds of the ingestion phases at
 * 20,000 x 2, six 500/s phases each (bench/README, 'The collector's helpers and the minute's job'):
 * 500/s p99 median 14.5 ms against 28 ms, 10 connections 1,415-1,557/s against 1,080-1,219/s.
 */
export const SERVER_NODE_ARGS = ['--max-semi-space-size=8', '--heap-growing-percent=50', '--no-concurrent-marking'] as const;

const externalPackagesButContract: Plugin = {
  name: 'vigia:external-packages',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith('@vigia/contract/') ? undefined : { path: args.path, external: true },
    );
  },
};

/**
 * Builds the bundle at `outfile` (default api/dist/server.js), and the export worker's beside it
 * (fhir-exports.bundle.ts). Any file one folder under api/ works: paths.ts resolves the root two
 * levels up from the bundle.
 */
export async function buildServer(outfile = SERVER_BUNDLE): Promise<string> {
  const bundle = (entry: string, out: string) =>
    build({
      entryPoints: [path.join(root, 'api', 'src', entry)],
      outfile: out,
      bundle: true,
      // npm packages stay imports, read from node_modules at run time; @vigia/contract is TypeScript
      // source shared with the front ends, so it is compiled into the bundle.
      plugins: [externalPackagesButContract],
      platform: 'node',
      format: 'esm',
      target: 'node20',
      // Sequelize names a model after its class (`AS "Patient"`, and our literals say so); esbuild
      // renames classes that collide in the bundle (Patient -> _Patient) unless told to keep names.
      keepNames: true,
      logLevel: 'warning',
    });
  // The server, and beside it the FHIR export's worker thread with only its own modules.
  await Promise.all([
    bundle('server.ts', outfile),
    bundle(path.join('modules', 'fhir_exports', 'fhir-exports.worker.ts'), workerBundleOf(outfile)),
  ]);
  return outfile;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await buildServer();
}
