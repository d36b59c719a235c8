import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, readDemoSeeding } from '../../api/src/config.js';
import { runServerToExit } from '../support/server-process.js';

/**
 * Issue 49: a setting the product cannot use printed a stack trace under the Spanish sentence, which
 * reads like a crash of the product when the fix is one variable. The start prints the sentence
 * alone and exits non-zero; LOG_LEVEL=debug keeps the trace for whoever needs it. Each start below
 * fails before it opens a database, so the real bundle ends within its own loading time.
 */

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigia-config-'));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

const base = { NODE_ENV: 'production', DATA_DIR: dataDir, JWT_SECRET: 'x'.repeat(48) };
const STACK_LINE = /^\s+at /;

describe('a start with a wrong setting', () => {
  it.each([
    ['PORT', { PORT: 'tres mil' }, /^PORT debe ser un número entero entre 1 y 65535; se recibió «tres mil»\.$/],
    ['CLOCK_OFFSET_MS', { CLOCK_OFFSET_MS: '1.5' }, /^CLOCK_OFFSET_MS debe ser un número entero de milisegundos; se recibió «1\.5»\.$/],
    // Read by the observability settings, not config.ts: the start words its refusal the same way.
    ['METRICS_PORT', { METRICS_PORT: 'x' }, /^METRICS_PORT .+«x».$/],
  ])('%s: prints one Spanish line, no stack trace, and exits non-zero', async (_name, env, sentence) => {
    const run = await runServerToExit({ ...base, ...env });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    const lines = run.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0].replace('[vigia] no se pudo iniciar: ', '')).toMatch(sentence);
  });

  it('prints the stack trace too under LOG_LEVEL=debug', async () => {
    const run = await runServerToExit({ ...base, PORT: 'tres mil', LOG_LEVEL: 'debug' });
    expect(run.code).toBe(1);
    const [first, ...rest] = run.stderr.trimEnd().split('\n');
    expect(first).toBe('[vigia] no se pudo iniciar: PORT debe ser un número entero entre 1 y 65535; se recibió «tres mil».');
    expect(rest.length).toBeGreaterThan(0);
    expect(rest.every((line) => STACK_LINE.test(line))).toBe(true);
  });
});

describe('loadConfig', () => {
  it.each([
    [{ PORT: '70000' }, 'PORT debe ser un número entero entre 1 y 65535; se recibió «70000».'],
    [{ PORT: '0x50' }, 'PORT debe ser un número entero entre 1 y 65535; se recibió «0x50».'],
    [{ TOKEN_TTL_SECONDS: '-5' }, 'TOKEN_TTL_SECONDS debe ser un número entero entre 1 y 31536000; se recibió «-5».'],
    [{ SEED_DEMO: 'sí' }, 'SEED_DEMO debe ser 1 o 0; se recibió «sí».'],
  ])('refuses %j with a ConfigError', (env, message) => {
    expect(() => loadConfig({ ...base, ...env })).toThrow(new ConfigError(message));
  });

  it('takes an empty PORT as unset', () => {
    expect(loadConfig({ ...base, PORT: '' }).port).toBe(3000);
  });
});

describe('readDemoSeeding', () => {
  it.each([
    [undefined, 'development', 'published'],
    ['1', 'development', 'published'],
    ['0', 'development', 'off'],
    [undefined, 'test', 'published'],
    [undefined, 'production', 'off'],
    ['', 'production', 'off'],
    ['0', 'production', 'off'],
    ['1', 'production', 'generated'],
  ] as const)('SEED_DEMO=%s under %s: %s', (text, nodeEnv, expected) => {
    expect(readDemoSeeding(text, nodeEnv)).toBe(expected);
  });
});
