import { afterEach } from 'vitest';

declare module 'vitest' {
  interface TaskMeta {
    /** The first line and Playwright's call log of each failed attempt (CI retries a browser test once). */
    failedAttempts?: string[];
  }
}

/**
 * Keeps what each failed attempt of a browser test said, in the test's meta (which the JSON report
 * carries): a test that passes on its retry is still named, with its first failure, in the CI
 * summary (.ci/run), so a flaky test stays visible instead of hidden by the retry.
 */
afterEach(({ task }) => {
  if (task.result?.state !== 'fail') return;
  const error = task.result.errors?.[0];
  const text = String(error?.message ?? error ?? 'sin mensaje');
  task.meta.failedAttempts = [...(task.meta.failedAttempts ?? []), text.slice(0, 2_000)];
});
