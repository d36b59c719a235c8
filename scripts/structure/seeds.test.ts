import { describe, expect, it } from 'vitest';
import { checkStructure, type FileImport } from '../check-structure';
import { checkSeedsLayer } from './seeds';

const imp = (from: string, to: string, typeOnly = false): FileImport => ({ from, to, spec: to, typeOnly });

describe('checkSeedsLayer', () => {
  it.each([
    ['a seed importing the API’s types', [imp('seeds/demo.ts', 'api/src/seed-deps.ts', true)], []],
    ['the composition root importing a seeder', [imp('api/src/server.ts', 'seeds/demo.ts')], []],
    [
      'a test beside the seeds holding the demo to the API’s rules',
      [imp('seeds/demo.rules.test.ts', 'api/src/modules/patients/patients.rules.ts')],
      [],
    ],
    ['bench and tests above both', [imp('bench/dataset.ts', 'seeds/large.ts'), imp('bench/dataset.ts', 'api/src/seed-deps.ts')], []],
    [
      'a seed importing API code',
      [imp('seeds/large.ts', 'api/src/db/migrate.ts')],
      ['seeds import API code: seeds/large.ts → api/src/db/migrate.ts (take it from SeedDeps, handed in by api/src/seed-deps.ts)'],
    ],
    [
      'a cycle: the API imports a seeder that imports API code',
      [imp('api/src/server.ts', 'seeds/demo.ts'), imp('seeds/demo.ts', 'api/src/modules/patients/patients.rules.ts')],
      [
        'seeds import API code: seeds/demo.ts → api/src/modules/patients/patients.rules.ts (take it from SeedDeps, handed in by api/src/seed-deps.ts)',
        'import cycle between api and seeds: api/src/server.ts → seeds/demo.ts and seeds/demo.ts → api/src/modules/patients/patients.rules.ts',
      ],
    ],
  ])('%s', (_name, imports, problems) => {
    expect(checkSeedsLayer(imports)).toEqual(problems);
  });

  it('passes the real tree: seeds import no API code, the API imports seeds only from server.ts', () => {
    const { imports } = checkStructure();
    expect(checkSeedsLayer(imports)).toEqual([]);
    const apiToSeeds = imports.filter((i) => !i.typeOnly && i.from.startsWith('api/') && i.to?.startsWith('seeds/'));
    expect([...new Set(apiToSeeds.map((i) => i.from))]).toEqual(['api/src/server.ts']);
  }, 60_000);
});
