/**
 * Where the export's worker thread (fhir-exports.worker.ts) finds its code in production: a bundle
 * of its own beside the server's (api/build.ts writes both), `server.js` → `server.fhir-export-worker.js`.
 * The whole server bundle, loaded in the thread, kept 36 MB of heap live there against 15 for the
 * worker's own modules, and the thread's heap is what an export adds to the API's RSS.
 */
export function workerBundleOf(serverBundle: string): string {
  return serverBundle.replace(/\.js$/, '.fhir-export-worker.js');
}
