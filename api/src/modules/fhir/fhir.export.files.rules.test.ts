import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { NdjsonSplitWriter } from './fhir.export.files.js';

let dir = '';
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('NdjsonSplitWriter', () => {
  it('splits at the set number of resources and the counts add up', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'vigia-export-'));
    const w = new NdjsonSplitWriter(dir, 'Patient', 3);
    for (let i = 1; i <= 7; i++) await w.write({ resourceType: 'Patient', id: `p${i}` } as { resourceType: string });
    const files = await w.close();
    expect(files.map((f) => f.count)).toEqual([3, 3, 1]);
    const lines = (await Promise.all(files.map((f) => readFile(f.file, 'utf8'))))
      .join('')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: string });
    expect(lines.map((l) => l.id)).toEqual(['p1', 'p2', 'p3', 'p4', 'p5', 'p6', 'p7']);
  });

  it.each([
    ['pages that cross file boundaries', [2, 5, 1, 4], 3, [3, 3, 3, 3]],
    ['a page exactly one file', [3, 3], 3, [3, 3]],
    ['one page of many files', [10], 4, [4, 4, 2]],
    ['an empty page', [0, 2], 4, [2]],
  ])('writeMany: %s', async (_name, pages, perFile, counts) => {
    dir = await mkdtemp(path.join(tmpdir(), 'vigia-export-'));
    const w = new NdjsonSplitWriter(dir, 'Patient', perFile);
    let n = 0;
    for (const size of pages) await w.writeMany(Array.from({ length: size }, () => ({ resourceType: 'Patient', id: `p${++n}` })));
    const files = await w.close();
    expect(files.map((f) => f.count)).toEqual(counts);
    const ids = (await Promise.all(files.map((f) => readFile(f.file, 'utf8'))))
      .map((text, i) => {
        const lines = text.split('\n').filter(Boolean);
        expect(lines).toHaveLength(files[i]!.count);
        return lines.map((l) => (JSON.parse(l) as { id: string }).id);
      })
      .flat();
    expect(ids).toEqual(Array.from({ length: n }, (_, i) => `p${i + 1}`));
    await expect(w.writeMany([{ resourceType: 'Observation' }])).rejects.toThrow(/Observation/);
  });

  it.each([
    ['one writer', [{ first: 1, step: 1 }], [5], ['Patient.1', 'Patient.2', 'Patient.3']],
    [
      'two parts of one type',
      [
        { first: 1, step: 2 },
        { first: 2, step: 2 },
      ],
      [5, 3],
      ['Patient.1', 'Patient.3', 'Patient.5', 'Patient.2', 'Patient.4'],
    ],
    [
      'three parts, one empty',
      [
        { first: 1, step: 3 },
        { first: 2, step: 3 },
        { first: 3, step: 3 },
      ],
      [1, 0, 4],
      ['Patient.1', 'Patient.3', 'Patient.6'],
    ],
  ])('numbers the files of %s so that no two share a name', async (_name, numberings, sizes, names) => {
    dir = await mkdtemp(path.join(tmpdir(), 'vigia-export-'));
    const written = [];
    for (const [k, numbering] of numberings.entries()) {
      const w = new NdjsonSplitWriter(dir, 'Patient', 2, numbering);
      await w.writeMany(Array.from({ length: sizes[k]! }, (_, i) => ({ resourceType: 'Patient', id: `k${k}-${i}` })));
      written.push(...(await w.close()));
    }
    expect(written.map((f) => path.basename(f.file, '.ndjson'))).toEqual(names);
  });

  it('writes no file when no resource came, and refuses another type', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'vigia-export-'));
    const w = new NdjsonSplitWriter(dir, 'Patient', 2);
    await expect(w.write({ resourceType: 'Observation' })).rejects.toThrow(/Observation/);
    expect(await w.close()).toEqual([]);
    expect(() => new NdjsonSplitWriter(dir, 'Patient', 0)).toThrow();
  });

  it('keeps memory bounded on a large run (awaits drain)', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'vigia-export-'));
    const w = new NdjsonSplitWriter(dir, 'Observation', 50_000);
    const pad = 'x'.repeat(500);
    for (let i = 0; i < 20_000; i++) await w.write({ resourceType: 'Observation', id: `m${i}`, note: pad } as { resourceType: string });
    const files = await w.close();
    expect(files).toHaveLength(1);
    expect(files[0]!.count).toBe(20_000);
  });
});
