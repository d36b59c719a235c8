import { readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildServer } from '../../api/build.js';
import { workerBundleOf } from '../../api/src/modules/fhir_exports/fhir-exports.bundle.js';

const API_DIST = fileURLToPath(new URL('../../api/dist/', import.meta.url));
let bundle: Promise<string> | null = null;

/**
 * The API's production bundle (what `npm start` runs), built from the sources once per test
 * process into a file of its own, so parallel test workers never read a half-written bundle and a
 * stale build is never tested. One folder under api/ like api/dist/server.js (see
 * api/src/paths.ts); removed when the process exits, or by a later run if the test runner ended
 * the process without an exit event.
 */
export function testBundle(): Promise<string> {
  if (!bundle) {
    removeOrphans();
    const file = path.join(API_DIST, `test-${process.pid}.js`);
    process.once('exit', () => [file, workerBundleOf(file)].forEach((f) => rmSync(f, { force: true })));
    bundle = buildServer(file);
  }
  return bundle;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
};

function removeOrphans(): void {
  let names: string[];
  try {
    names = readdirSync(API_DIST);
  } catch {
    return;
  }
  for (const name of names) {
    const pid = /^test-(\d+)\.(?:fhir-export-worker\.)?js$/.exec(name)?.[1];
    if (pid && !alive(Number(pid))) rmSync(path.join(API_DIST, name), { force: true });
  }
}
