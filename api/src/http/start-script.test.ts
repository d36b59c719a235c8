import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SERVER_BUNDLE, SERVER_ENV, SERVER_NODE_ARGS } from '../../build.js';
import { ROOT_DIR } from '../paths.js';

/**
 * `npm start` repeats what api/build.ts gives the server in the benchmark and the bundle's test
 * suites (environment and V8 flags): the figures measured there are those of the product's start.
 */
describe('npm start runs the server as the benchmark does', () => {
  const start = (JSON.parse(readFileSync(path.join(ROOT_DIR, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts
    .start;
  const command = start.split('&&').at(-1)!.trim();
  const cases: Array<[string, string]> = [
    ...Object.entries(SERVER_ENV).map(([name, value]): [string, string] => [`environment ${name}`, `${name}=${value}`]),
    ...SERVER_NODE_ARGS.map((flag): [string, string] => [`node flag ${flag}`, flag]),
    ['the bundle', path.relative(ROOT_DIR, SERVER_BUNDLE)],
  ];
  it.each(cases)('%s', (_what, piece) => {
    expect(command.split(/\s+/)).toContain(piece);
  });
});
