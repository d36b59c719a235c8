import { readFileSync } from 'node:fs';
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Longest file first, across projects. Vitest's own order runs the projects one after the other by
 * name (api, e2e, security, unit) and, on a fresh clone with no results cache, each project's files
 * by size: CI's two workers then ran a 15-minute browser file (the accessibility scans, 381 lines)
 * wherever its size put it, and a long file started late is the run's tail. Each file's time in the
 * last full run is in tests/durations.json (CI writes a new one to .ci/out/durations.json; copy it
 * when files are added or move a lot). A file not listed there gets its project's typical time.
 */
const TYPICAL_SECONDS: Record<string, number> = { e2e: 120, faults: 60, security: 60, api: 20, unit: 2 };

export type Durations = Record<string, number>;

/** Seconds a file is expected to take: its last measured time, else its project's typical one. */
export function expectedSeconds(durations: Durations, project: string, file: string): number {
  return durations[file] ?? TYPICAL_SECONDS[project] ?? 10;
}

/** The files in the order they should start: the longest first; ties by path, so the order is stable. */
export function longestFirst<T extends { project: string; file: string }>(files: T[], durations: Durations): T[] {
  return [...files].sort(
    (a, b) =>
      expectedSeconds(durations, b.project, b.file) - expectedSeconds(durations, a.project, a.file) ||
      a.file.localeCompare(b.file) ||
      a.project.localeCompare(b.project),
  );
}

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');

function readDurations(): Durations {
  try {
    return JSON.parse(readFileSync(path.join(ROOT, 'tests/durations.json'), 'utf8')) as Durations;
  } catch {
    return {};
  }
}

export default class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const durations = readDurations();
    const keyed = files.map((spec) => ({ spec, project: spec.project.name, file: path.relative(ROOT, spec.moduleId) }));
    return longestFirst(keyed, durations).map((k) => k.spec);
  }
}
