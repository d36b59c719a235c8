/**
 * A worker thread that runs a TypeScript module from the source tree (tests, `npm run dev`, the
 * bench), for the API's export worker and the bench's paced loads alike: tsx's ESM API registers its
 * loader in the new thread, then the thread imports `moduleUrl`. Node-only; nothing in the front
 * ends imports it.
 *
 * execArgv is []: the thread does not inherit the parent's loaders (vitest's, tsx's CLI), which
 * would register a second time; tsx's is registered by the thread's first line instead.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/** tsx's ESM API (its `import` export), which registers its loader in the thread that imports it. */
function tsxApiUrl(): string {
  const manifest = createRequire(import.meta.url).resolve('tsx/package.json');
  return pathToFileURL(path.join(path.dirname(manifest), 'dist', 'esm', 'api', 'index.mjs')).href;
}

export function typeScriptWorker(moduleUrl: string, options: Omit<WorkerOptions, 'eval' | 'execArgv'> = {}): Worker {
  const start = `import(${JSON.stringify(tsxApiUrl())}).then(({ register }) => { register(); return import(${JSON.stringify(moduleUrl)}); })`;
  return new Worker(start, { ...options, eval: true, execArgv: [] });
}
