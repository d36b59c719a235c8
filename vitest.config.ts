import os from 'node:os';
import { defineConfig } from 'vitest/config';
import LongestFirstSequencer from './tests/support/sequencer.js';

/**
 * Two files at a time at least. Vitest's default in a run is one worker less than the cores: on
 * CI's 2-core machine one, so the whole SQLite suite ran one file at a time, and the browser tests
 * (a sequential group at the end) took 55 minutes of CI's 81, leaving most of a core idle while
 * each waited on its page. Now they run two at a time beside the API files (P255).
 */
const WORKERS = Math.max(2, os.availableParallelism() - 1);

export default defineConfig({
  test: {
    maxWorkers: WORKERS,
    // Every file of every project in one queue, the longest expected first (tests/durations.json):
    // a long browser file started last was the run's tail (P256).
    sequence: { sequencer: LongestFirstSequencer },
    projects: [
      {
        test: {
          name: 'unit',
          include: [
            'contract/**/*.test.ts',
            'api/src/**/*.rules.test.ts',
            'api/src/**/*.service.test.ts',
            'api/src/modules/sessions/passwords.test.ts',
            'api/src/http/**/*.test.ts',
            'api/src/db/**/*.test.ts',
            'api/src/jobs/**/*.test.ts',
            'seeds/**/*.test.ts',
            'admin/src/**/*.test.ts',
            'portal/src/**/*.test.ts',
            'scripts/**/*.test.ts',
            'bench/**/*.test.ts',
            'tests/support/**/*.test.ts',
          ],
          environment: 'node',
          // Through Vite like the test files, so it shares their react-router (Node would load its
          // CommonJS build, whose router context the tests' ESM one does not see).
          server: { deps: { inline: ['@refinedev/react-router'] } },
          // Several tables parse openapi.yaml (9,000 lines) in their first case: 6-8 s on a machine
          // loaded to 18 on 2 cores. They check behaviour, never speed.
          testTimeout: 20_000,
        },
      },
      {
        test: {
          name: 'api',
          include: ['api/src/**/*.api.test.ts', 'tests/api/**/*.test.ts'],
          environment: 'node',
          // Behaviour, never speed: room for CI, where two files run beside the PostgreSQL suites (P255).
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'security',
          include: ['tests/security/**/*.test.ts'],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'faults',
          include: ['tests/faults/**/*.test.ts'],
          environment: 'node',
          testTimeout: 180_000,
          hookTimeout: 180_000,
          // Each file has its own database, data folder, ports and server bundle: they run beside the
          // other files (one at a time they were a group of their own at the end of the run, P256).
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          environment: 'node',
          // In CI a browser test that fails is run once more (P234): a loaded machine's timing
          // (a toast, an animation) must not cost a whole run; tests/e2e/support/attempts.ts keeps
          // the failed attempt, which the CI summary names as flaky.
          retry: process.env.CI ? 1 : 0,
          setupFiles: ['tests/e2e/support/attempts.ts'],
          testTimeout: 120_000,
          hookTimeout: 180_000,
          // Each file starts its own server (a free port, a data folder of its own) and browser, so
          // they run beside one another and beside the API files.
        },
      },
    ],
  },
});
