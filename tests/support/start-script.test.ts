import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SERVER_ENV, SERVER_NODE_ARGS } from '../../api/build';
const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * `npm start` repeats the server's environment and V8 flags that api/build.ts gives the tests and
 * the bench (SERVER_ENV, SERVER_NODE_ARGS): what is measured and tested is what runs.
 */
describe('npm start runs the server as the tests and the bench do', () => {
  const start = (JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start;
  const command = start.split('&&').at(-1)!.trim().split(/\s+/);
  const node = command.indexOf('node');

  it.each(Object.entries(SERVER_ENV))('sets %s=%s', (name, value) => {
    expect(command.slice(0, node)).toContain(`${name}=${value}`);
  });

  it('passes the same Node flags, then the bundle', () => {
    expect(command.slice(node + 1)).toEqual([...SERVER_NODE_ARGS, 'api/dist/server.js']);
  });
});
