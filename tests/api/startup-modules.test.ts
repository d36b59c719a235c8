import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { testBundle } from '../support/bundle';

/**
 * Packages only a rare action needs are loaded by that action, not when the server starts: each
 * one held from start-up is memory every API process keeps (issue 22, peak RSS on PostgreSQL).
 * Checked on the production bundle `npm start` runs, where a static import anywhere would load it.
 */
const ON_DEMAND: Array<[string, string]> = [
  ['pdfkit', 'the PDF of a patient’s readings'],
  ['nodemailer', 'the first e-mail over SMTP'],
  ['openid-client', 'the first single sign-on'],
];

describe('packages loaded on demand', () => {
  it.each(ON_DEMAND)('%s is imported only when needed (%s)', async (name) => {
    const code = await readFile(await testBundle(), 'utf8');
    const statics = [...code.matchAll(/^import\s+(?:[^'"]*?\s+from\s+)?["']([^"']+)["'];?$/gm)].map((m) => m[1]);
    expect(statics.length).toBeGreaterThan(10);
    expect(statics).not.toContain(name);
    expect(code).toContain(`import("${name}")`);
  });
});
