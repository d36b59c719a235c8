import { describe, expect, it } from 'vitest';
import { expectedSeconds, longestFirst } from './sequencer';

const durations = { 'tests/e2e/accessibility.test.ts': 933, 'tests/e2e/tags.test.ts': 40, 'tests/api/patients.test.ts': 90 };

describe('expectedSeconds', () => {
  it.each([
    ['a file measured in the last run: its time', 'e2e', 'tests/e2e/tags.test.ts', 40],
    ['a browser file not measured yet: the project’s typical time', 'e2e', 'tests/e2e/new.test.ts', 120],
    ['an API file not measured yet', 'api', 'tests/api/new.test.ts', 20],
    ['a unit file not measured yet', 'unit', 'contract/x.test.ts', 2],
    ['a project with no typical time', 'other', 'x.test.ts', 10],
  ])('%s', (_, project, file, seconds) => {
    expect(expectedSeconds(durations, project, file)).toBe(seconds);
  });
});

describe('longestFirst', () => {
  it('starts the longest expected file first, across projects, ties by path', () => {
    const files = [
      { project: 'unit', file: 'contract/a.test.ts' },
      { project: 'api', file: 'tests/api/patients.test.ts' },
      { project: 'e2e', file: 'tests/e2e/tags.test.ts' },
      { project: 'e2e', file: 'tests/e2e/accessibility.test.ts' },
      { project: 'e2e', file: 'tests/e2e/z-new.test.ts' },
      { project: 'e2e', file: 'tests/e2e/b-new.test.ts' },
    ];
    expect(longestFirst(files, durations).map((f) => f.file)).toEqual([
      'tests/e2e/accessibility.test.ts',
      'tests/e2e/b-new.test.ts',
      'tests/e2e/z-new.test.ts',
      'tests/api/patients.test.ts',
      'tests/e2e/tags.test.ts',
      'contract/a.test.ts',
    ]);
  });
});
