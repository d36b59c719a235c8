import { appendFileSync } from 'node:fs';
import path from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

/**
 * What failed outside any test: a file that could not be imported, or a beforeAll/afterAll hook of a
 * file or a describe block. Vitest's JSON report marks such a file 'failed' with an empty message and
 * its tests 'skipped', so CI's summary named the file and nothing else (stop 56: rda-journey). CI
 * passes this reporter beside the JSON one (`--reporter=./tests/support/hook-errors-reporter.ts`) with
 * HOOK_ERRORS_FILE set; each error is one JSON line: { file, where, message }.
 */
export default class HookErrorsReporter implements Reporter {
  onTestModuleEnd(module: TestModule) {
    const out = process.env.HOOK_ERRORS_FILE;
    if (!out) return;
    const file = path.relative(process.cwd(), module.moduleId);
    const lines: string[] = [];
    const add = (where: string, errors: Array<{ message?: string; name?: string }>) => {
      for (const e of errors) lines.push(JSON.stringify({ file, where, message: `${e.name ?? 'Error'}: ${e.message ?? ''}` }));
    };
    add('(archivo)', module.errors());
    for (const suite of module.children.allSuites()) add(suite.fullName, suite.errors());
    if (lines.length) appendFileSync(out, lines.join('\n') + '\n');
  }
}
