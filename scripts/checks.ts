/**
 * `npm test`'s steps before the tests: `npm run lint`, `npm run typecheck` and `npm run build` at
 * once instead of one after the other (each is mostly one thread: 57, 51 and 30 s here, about a
 * minute and a half together on two cores instead of two and a half). Each one's output is printed
 * whole when it ends, so they do not interleave; the exit code is non-zero when any of them failed.
 */
import { spawn } from 'node:child_process';

const STEPS = ['lint', 'typecheck', 'build'] as const;

function run(script: string): Promise<{ script: string; code: number; output: string; seconds: number }> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('close', (code) => resolve({ script, code: code ?? 1, output, seconds: (Date.now() - started) / 1000 }));
  });
}

const results = await Promise.all(
  STEPS.map((step) =>
    run(step).then((r) => {
      process.stdout.write(
        `\n==> npm run ${r.script}: ${r.code === 0 ? 'ok' : `falló (código ${r.code})`} en ${r.seconds.toFixed(0)} s\n${r.output}`,
      );
      return r;
    }),
  ),
);
const failed = results.filter((r) => r.code !== 0).map((r) => r.script);
if (failed.length) {
  console.error(`\nFallaron: ${failed.map((s) => `npm run ${s}`).join(', ')}`);
  process.exit(1);
}
