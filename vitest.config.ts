import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
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
          testTimeout: 30_000,
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
          fileParallelism: false,
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
          fileParallelism: false,
        },
      },
    ],
  },
});
